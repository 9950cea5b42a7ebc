import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// Filters v2 (`/api/v2/filters`), the viewer's own: `GET`, `POST`, and
/// `GET`/`PUT`/`DELETE filters/:id`; a filter's keywords
/// (`filters/:id/keywords`, `filters/keywords/:id`). Every status rendered
/// for the viewer (timelines, a status, a thread, notifications, conversations)
/// carries the filters it matches in `filtered`, whatever the context; the
/// client applies each filter's contexts and action, as with Mastodon 4.
extension MastodonAPI {
    /// `GET filters`.
    func filters(viewer: Int) -> Reply {
        Self.json(renderer(store.timeline, viewer: viewer).filtersJSON(store.timeline.filterList(of: viewer)))
    }

    /// `GET filters/:id`.
    func showFilter(viewer: Int, id: String) throws -> Reply {
        Self.json(renderer(store.timeline, viewer: viewer).filterJSON(try filter(id, of: viewer, in: store.timeline)))
    }

    /// `DELETE filters/:id`.
    func deleteFilter(viewer: Int, id: String) throws -> Reply {
        let number = try filter(id, of: viewer, in: store.timeline).id
        return try emptyWrite { $0.deleteFilter(id: number, of: viewer) }
    }

    /// `GET filters/:id/keywords`.
    func filterKeywords(viewer: Int, id: String) throws -> Reply {
        let filter = try filter(id, of: viewer, in: store.timeline)
        return Self.json(renderer(store.timeline, viewer: viewer).filterKeywordsJSON(filter.keywords))
    }

    /// `POST filters/:id/keywords` (`keyword`, `whole_word`).
    func addKeyword(_ call: Call, viewer: Int, id: String) throws -> Reply {
        var filter = try filter(id, of: viewer, in: store.timeline)
        filter.keywords.append(try keyword(call.parameters["keyword"], wholeWord: wholeWord(call.parameters["whole_word"] ?? "")))
        return write(as: viewer) { timeline, render in
            let saved = timeline.saveFilter(filter, of: viewer)
            return render(timeline).filterKeywordJSON(saved.keywords.last!)
        }
    }

    /// `GET`, `PUT` (`keyword`, `whole_word`), `DELETE filters/keywords/:id`.
    func keywordAction(_ call: Call, viewer: Int, id: String) throws -> Reply {
        guard let number = state.ids.parse(id).flatMap({ Int(exactly: $0) }),
              var filter = store.timeline.filter(holdingKeyword: number, of: viewer),
              let position = filter.keywords.firstIndex(where: { $0.id == number }) else { throw MastodonError.notFound }
        switch call.method {
        case .get:
            return Self.json(renderer(store.timeline, viewer: viewer).filterKeywordJSON(filter.keywords[position]))
        case .put:
            if let text = call.parameters["keyword"] { filter.keywords[position].keyword = try keyword(text, wholeWord: false).keyword }
            if let wholeWord = call.parameters.optionalFlag("whole_word") { filter.keywords[position].wholeWord = wholeWord }
            return write(as: viewer) { timeline, render in
                render(timeline).filterKeywordJSON(timeline.saveFilter(filter, of: viewer).keywords[position])
            }
        case .delete:
            filter.keywords.remove(at: position)
            return try emptyWrite { _ = $0.saveFilter(filter, of: viewer); return true }
        default:
            throw MastodonError.notFound
        }
    }

    /// `POST filters` and `PUT filters/:id`: `title`, `context[]`, `filter_action`
    /// (`warn`, the default, or `hide`), `expires_in` (seconds; empty: never),
    /// `keywords_attributes[][keyword|whole_word]` (with `id` to change one,
    /// `_destroy` to remove it, on `PUT`). 422 for a blank title, no context
    /// or one not in the list, an unknown action.
    func saveFilter(_ call: Call, id: String?, viewer: Int) throws -> Reply {
        let parameters = call.parameters
        var filter = try id.map { try self.filter($0, of: viewer, in: store.timeline) }
            ?? SandboxFilter(id: 0, title: "", context: [], action: "warn", expiresAt: nil, keywords: [])
        if let title = parameters["title"] { filter.title = title }
        guard !filter.title.allSatisfy(\.isWhitespace) else { throw MastodonError.validation("Title can't be blank") }
        let contexts = parameters.list("context")
        if id == nil || !contexts.isEmpty { filter.context = contexts }
        guard !filter.context.isEmpty else { throw MastodonError.validation("Context can't be blank") }
        guard filter.context.allSatisfy(SandboxFilter.contexts.contains) else {
            throw MastodonError.validation("Context contains invalid context types")
        }
        if let action = parameters["filter_action"], !action.isEmpty {
            guard SandboxFilter.actions.contains(action) else {
                throw MastodonError.validation("Filter action is not included in the list")
            }
            filter.action = action
        }
        if let text = parameters["expires_in"] {
            if text.isEmpty {
                filter.expiresAt = nil
            } else {
                guard let seconds = Int(text), seconds > 0 else {
                    throw MastodonError.validation("Expires in must be a number of seconds, got \(text)")
                }
                filter.expiresAt = now.addingTimeInterval(TimeInterval(seconds))
            }
            filter.expired = false
        }
        for group in parameters.groups("keywords_attributes") {
            let destroy = Parameters.isTrue(group["_destroy"] ?? "")
            if let idText = group["id"], !idText.isEmpty {
                guard let number = state.ids.parse(idText).flatMap({ Int(exactly: $0) }),
                      let position = filter.keywords.firstIndex(where: { $0.id == number }) else { throw MastodonError.notFound }
                if destroy {
                    filter.keywords.remove(at: position)
                    continue
                }
                if let text = group["keyword"] { filter.keywords[position].keyword = try keyword(text, wholeWord: false).keyword }
                if let text = group["whole_word"], !text.isEmpty { filter.keywords[position].wholeWord = wholeWord(text) }
            } else if !destroy {
                filter.keywords.append(try keyword(group["keyword"], wholeWord: wholeWord(group["whole_word"] ?? "")))
            }
        }
        return write(as: viewer) { timeline, render in
            render(timeline).filterJSON(timeline.saveFilter(filter, of: viewer))
        }
    }

    /// A new keyword; 422 when blank.
    private func keyword(_ text: String?, wholeWord: Bool) throws -> SandboxFilter.Keyword {
        guard let text, !text.allSatisfy(\.isWhitespace) else { throw MastodonError.validation("Keyword can't be blank") }
        return SandboxFilter.Keyword(id: 0, keyword: text, wholeWord: wholeWord)
    }

    /// `whole_word`: Mastodon's default is true.
    private func wholeWord(_ text: String) -> Bool {
        text.isEmpty || Parameters.isTrue(text)
    }

    /// The viewer's filter `id` names; 404 for another's or an unknown one.
    private func filter(_ id: String, of viewer: Int, in timeline: Timeline) throws -> SandboxFilter {
        guard let number = state.ids.parse(id).flatMap({ Int(exactly: $0) }),
              let filter = timeline.filter(id: number, of: viewer) else { throw MastodonError.notFound }
        return filter
    }
}
