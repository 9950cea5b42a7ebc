import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// Bookmarks, favourites and lists: `bookmarks`, `favourites` (bookmarking
/// is a status action, MastodonAPI+Writes.swift), `lists` (CRUD and members),
/// `accounts/:id/lists` and `timelines/list/:id`.
///
/// Bookmarks and favourites page by the record's own id, as Mastodon's do:
/// the `Link` header's `max_id` is not a status id.
extension MastodonAPI {
    // MARK: Bookmarks and favourites

    /// `GET bookmarks`: the viewer's bookmarks, newest first.
    func bookmarks(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        return try recordPage(timeline.bookmarkRecords(of: viewer), call, timeline: timeline, viewer: viewer)
    }

    /// `GET favourites`: the viewer's favourites, newest first.
    func favouritesList(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        return try recordPage(timeline.favouriteRecords(of: viewer), call, timeline: timeline, viewer: viewer)
    }

    /// One page of records (newest first) by `max_id`/`since_id`/`min_id`
    /// naming record ids, with its `Link` header, as `page` does for status ids.
    private func recordPage(_ records: [(ordinal: Int, id: Int64)], _ call: Call, timeline: Timeline,
                            viewer: Int) throws -> Reply {
        try pagedReply(records, by: \.id, call, maximum: 40) { renderer(timeline, viewer: viewer).statuses($0.map(\.ordinal)) }
    }

    // MARK: Lists

    /// `GET lists`.
    func listsIndex(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        return Self.json(renderer(timeline, viewer: viewer).lists(timeline.lists(of: viewer)))
    }

    /// `GET lists/:id`.
    func showList(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let timeline = store.timeline
        return Self.json(renderer(timeline, viewer: viewer).listJSON(try list(id, of: viewer, in: timeline)))
    }

    /// `POST lists` (`title`, `replies_policy`, `exclusive`) and `PUT lists/:id` (the same, each optional).
    func saveList(_ call: Call, actor: Int, id: String?) throws -> Reply {
        let parameters = call.parameters
        let title = parameters["title"]
        if id == nil || title != nil, (title ?? "").allSatisfy(\.isWhitespace) {
            throw MastodonError.validation("Title can't be blank")
        }
        let policy = parameters.nonEmpty("replies_policy")
        if let policy, !["followed", "list", "none"].contains(policy) {
            throw MastodonError.validation("Replies policy is not included in the list")
        }
        let exclusive = parameters["exclusive"].map { _ in parameters.flag("exclusive") }
        return try write(as: actor) { timeline, render in
            let saved: SandboxList
            if let id {
                guard let number = listNumber(id), let updated = timeline.updateList(id: number, of: actor, { list in
                    if let title { list.title = title }
                    if let policy { list.repliesPolicy = policy }
                    if let exclusive { list.exclusive = exclusive }
                }) else { throw MastodonError.notFound }
                saved = updated
            } else {
                saved = timeline.createList(title: title ?? "", repliesPolicy: policy ?? "list",
                                            exclusive: exclusive ?? false, by: actor)
            }
            return render(timeline).listJSON(saved)
        }
    }

    /// `DELETE lists/:id`: `{}`.
    func deleteList(_ call: Call, actor: Int, id: String) throws -> Reply {
        try emptyWrite { timeline in listNumber(id).flatMap { timeline.deleteList(id: $0, of: actor) } != nil }
    }

    /// `GET lists/:id/accounts`: the members, in the order added (`limit`, default 40, 0 for all).
    func listAccounts(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let timeline = store.timeline
        let list = try list(id, of: viewer, in: timeline)
        let count = call.parameters["limit"] == "0" ? Int.max : limit(call, default: 40, maximum: 80)
        let users = list.members.prefix(count).map { timeline.data.users[$0] }
        return Self.json(renderer(timeline, viewer: viewer).accounts(Array(users)))
    }

    /// `POST lists/:id/accounts` and `DELETE` with `account_ids[]`: `{}`. Only
    /// accounts the owner follows may be added (404, as Mastodon answers).
    func changeListAccounts(_ call: Call, actor: Int, id: String, add: Bool) throws -> Reply {
        let accountIDs = call.parameters.list("account_ids")
        guard !accountIDs.isEmpty else { throw MastodonError.badParameter("account_ids is missing") }
        return try emptyWrite { timeline in
            let list = try self.list(id, of: actor, in: timeline)
            var members = list.members
            for text in accountIDs {
                guard let user = state.ids.parse(text).flatMap(timeline.user(id:)) else { throw MastodonError.notFound }
                if add {
                    guard timeline.isFollowing(actor, user.index) else { throw MastodonError.notFound }
                    guard !members.contains(user.index) else {
                        throw MastodonError.validation("Account has already been taken")
                    }
                    members.append(user.index)
                } else {
                    members.removeAll { $0 == user.index }
                }
            }
            _ = timeline.updateList(id: list.id, of: actor) { $0.members = members }
            return true
        }
    }

    /// `GET accounts/:id/lists`: the viewer's lists that hold the account.
    func accountLists(_ call: Call, viewer: Int, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let user = timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: viewer).lists(timeline.lists(of: viewer, holding: user.index)))
    }

    /// `GET timelines/list/:id`: the members' statuses, paged as a timeline;
    /// their replies to others by the list's `replies_policy`.
    func listTimeline(_ call: Call, viewer: Int, id: String) throws -> Reply {
        return try cachedStatusPage(call, viewer: viewer) { timeline in
            let list = try list(id, of: viewer, in: timeline)
            return try page(timeline.authorsIndex(list.members), call) { ordinal in
                timeline.isOnList(ordinal, list, owner: viewer)
            }
        }
    }

    /// A list's number from its id in the server's id style.
    private func listNumber(_ id: String) -> Int? {
        state.ids.parse(id).flatMap { Int(exactly: $0) }
    }

    /// The list `id` of `owner`; 404 when it is not one of theirs.
    private func list(_ id: String, of owner: Int, in timeline: Timeline) throws -> SandboxList {
        guard let number = listNumber(id), let list = timeline.list(id: number, of: owner) else { throw MastodonError.notFound }
        return list
    }
}
