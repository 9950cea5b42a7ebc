import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// Endpoints real clients call that Mastodon 4 documents: the profile edit
/// (`PATCH accounts/update_credentials`), who favourited or boosted a status
/// (`statuses/:id/favourited_by`, `reblogged_by`), the server's custom emojis;
/// and the expiries the clock drives.
extension MastodonAPI {
    // MARK: Expiry

    /// Ends the mutes and filters whose time the sandbox's clock has passed,
    /// as a write (so cached pages go): checked on each Mastodon request, as
    /// scheduled statuses are published.
    func expireDue() {
        let now = self.now
        guard let next = store.read(\.nextExpiry), next <= now else { return }
        _ = store.write { timeline in
            timeline.expire(at: now)
            return []
        }
    }

    // MARK: Profile

    /// `PATCH accounts/update_credentials`: `display_name`, `note`, `locked`,
    /// `bot`, `discoverable`, `fields_attributes[N][name|value]` (at most 4,
    /// replacing the fields), `source[privacy|sensitive|language]`; answers the
    /// CredentialAccount (the Account with `source`).
    func updateCredentials(_ call: Call, actor: Int) throws -> Reply {
        let parameters = call.parameters
        if let name = parameters["display_name"], name.count > 30 {
            throw MastodonError.validation("Display name is too long (maximum is 30 characters)")
        }
        if let note = parameters["note"], note.count > 500 {
            throw MastodonError.validation("Note is too long (maximum is 500 characters)")
        }
        let fieldGroups = parameters.groups("fields_attributes")
        guard fieldGroups.count <= 4 else { throw MastodonError.validation("Fields is too long (maximum is 4 fields)") }
        if let privacy = parameters["source[privacy]"], !["public", "unlisted", "private"].contains(privacy) {
            throw MastodonError.validation("Privacy is not included in the list")
        }
        return write(as: actor) { timeline, render in
            timeline.updateProfile(of: actor) { profile in
                if let name = parameters["display_name"] { profile.displayName = name }
                if let note = parameters["note"] { profile.note = note }
                if let locked = parameters.optionalFlag("locked") { profile.locked = locked }
                if let bot = parameters.optionalFlag("bot") { profile.bot = bot }
                if let discoverable = parameters.optionalFlag("discoverable") { profile.discoverable = discoverable }
                if !fieldGroups.isEmpty {
                    // Blank pairs are dropped, as Mastodon drops them.
                    profile.fields = fieldGroups.map { ($0["name"] ?? "", $0["value"] ?? "") }
                        .filter { !$0.0.isEmpty || !$0.1.isEmpty }
                }
                if let privacy = parameters["source[privacy]"] { profile.privacy = privacy }
                if let sensitive = parameters.optionalFlag("source[sensitive]") { profile.sensitive = sensitive }
                if let language = parameters.nonEmpty("source[language]") { profile.language = language }
            }
            return render(timeline).accountJSON(timeline.data.users[actor], withSource: true)
        }
    }

    // MARK: Emojis

    /// `GET custom_emojis`: the seed's emoji (`:wsh:`), with its category.
    func customEmojis(_ call: Call, viewer: Int?) throws -> Reply {
        return Self.json(renderer(store.timeline, viewer: viewer).customEmojisJSON())
    }

    // MARK: Who favourited, who boosted

    /// `statuses/:id/favourited_by`: the accounts that favourited the status
    /// through the API, newest favourite first, paged by the favourite's own
    /// record id (as Mastodon pages them), `Link` header included. The
    /// generated `favourites_count` has no accounts behind it.
    func favouritedBy(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        let status = try shownStatus(id, in: timeline)
        var records: [(user: Int, id: Int64)] = []
        for (user, ordinals) in timeline.favouriteRecordIDs {
            if let record = ordinals[status.ordinal], timeline.favouritedTime(status.ordinal, by: user) != nil {
                records.append((user, record))
            }
        }
        return try accountPage(records.sorted { $0.id > $1.id }, call, timeline: timeline, viewer: viewer)
    }

    /// `statuses/:id/reblogged_by`: the accounts that boosted the status,
    /// newest boost first, paged by the boost's id, `Link` header included.
    func rebloggedBy(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        let status = try shownStatus(id, in: timeline)
        let candidates = (timeline.postedReposts[status.ordinal] ?? []) + (timeline.data.repostOrdinalsByOrdinal[status.ordinal] ?? [])
        var boosts: [(user: Int, id: Int64)] = []
        for ordinal in Set(candidates) where !timeline.isDeleted(ordinal: ordinal) {
            guard let boost = timeline.status(ordinal: ordinal), timeline.isBoost(boost),
                  (boost.repostedOrdinal ?? boost.retweetedOrdinal) == status.ordinal else { continue }
            boosts.append((boost.authorIndex, boost.id))
        }
        return try accountPage(boosts.sorted { $0.id > $1.id }, call, timeline: timeline, viewer: viewer)
    }

    /// The status `id` names (a boost stands for what it boosts); 404 when there is none.
    private func shownStatus(_ id: String, in timeline: Timeline) throws -> SandboxStatus {
        guard let status = timeline.status(id: try identifier(id)) else { throw MastodonError.notFound }
        return timeline.isBoost(status) ? timeline.boosted(by: status) ?? status : status
    }
}

extension MastodonAPI.Parameters {
    /// The hashes of a Rails array parameter, in order: `name[][key]` (a new
    /// hash starts where a key repeats) or `name[N][key]` (grouped by N).
    func groups(_ name: String) -> [[String: String]] {
        var groups: [[String: String]] = []
        var indexed: [(index: String, values: [String: String])] = []
        let prefix = name + "["
        for (full, value) in ordered where full.hasPrefix(prefix) {
            let rest = full.dropFirst(prefix.count)
            guard let close = rest.firstIndex(of: "]") else { continue }
            let index = String(rest[..<close])
            var key = rest[rest.index(after: close)...]
            guard key.hasPrefix("["), key.hasSuffix("]") else { continue }
            key = key.dropFirst().dropLast()
            if index.isEmpty {
                if groups.isEmpty || groups[groups.count - 1][String(key)] != nil { groups.append([:]) }
                groups[groups.count - 1][String(key)] = value
            } else if let position = indexed.firstIndex(where: { $0.index == index }) {
                indexed[position].values[String(key)] = value
            } else {
                indexed.append((index, [String(key): value]))
            }
        }
        return groups + indexed.map(\.values)
    }
}
