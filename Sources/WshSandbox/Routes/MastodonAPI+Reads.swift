import FoundationEssentials
import Hummingbird
import HTTPTypes
import NIOCore

/// The GET endpoints: timelines and notifications with Mastodon's paging,
/// statuses and their context, accounts and relationships.
extension MastodonAPI {
    // MARK: Paging

    /// One page of the timeline `index`, the ordinals `keep` holds for, as
    /// `page(byID:…)` pages them listed newest first; but read from the cursor on
    /// (found by binary search) and only as far as the page and its `rel="next"`
    /// need, so a page costs the same whatever the size of the timeline.
    func page(_ index: OrdinalIndex, _ call: Call, keep: (Int) -> Bool) throws -> (ordinals: [Int], link: String?) {
        let (limit, maxID, lowerID, fromBelow) = try cursors(call, maximum: 40)
        // A status's id is `firstID` + its ordinal; an id far below `firstID` is below every ordinal.
        func ordinal(_ id: Int64) -> Int {
            let (difference, overflow) = id.subtractingReportingOverflow(SandboxStatus.firstID)
            return overflow ? Int.min : Int(difference)
        }
        let lower = ordinal(lowerID)
        let upper = maxID.map(ordinal) ?? Int.max
        var slice: [Int] = []
        if fromBelow {
            // The `limit` just above `min_id`: read upwards, then turned newest first.
            for candidate in index.ascending(above: lower) {
                guard candidate < upper, slice.count < limit else { break }
                if keep(candidate) { slice.append(candidate) }
            }
            slice.reverse()
        } else {
            for candidate in index.descending(below: upper) {
                guard candidate > lower, slice.count < limit else { break }
                if keep(candidate) { slice.append(candidate) }
            }
        }
        let link = pageLink(call, newest: slice.first.map { SandboxStatus.firstID + Int64($0) },
                            oldest: slice.last.map { SandboxStatus.firstID + Int64($0) }) {
            index.descending(below: slice.last!).contains(where: keep)
        }
        return (slice, link)
    }

    /// A page of statuses as a reply with its `Link` header.
    private func statusPage(_ ordinals: [Int], _ call: Call, timeline: Timeline, viewer: Int?) throws -> Reply {
        try pagedReply(ordinals, by: { SandboxStatus.firstID + Int64($0) }, call, maximum: 40) {
            renderer(timeline, viewer: viewer).statuses($0)
        }
    }

    /// The page `select` picks from the timeline, as a reply with its `Link`
    /// header: rendered once for the timeline as it is, the viewer and the
    /// query, then served from the store's cache until a write, as the Weibo
    /// side's answers are. Nothing else goes into a page: the clock does not.
    /// Its statuses carry the viewer's matching filters (`filtered`), as every status rendered for a viewer does.
    func cachedStatusPage(_ call: Call, viewer: Int?,
                          _ select: (Timeline) throws -> (ordinals: [Int], link: String?)) throws -> Reply {
        let key = "\(viewer.map(String.init) ?? "-") \(state.ids.rawValue) \(state.origin)\(call.path)?\(call.query)"
        let page = try store.page(for: key) { timeline in
            let (slice, link) = try select(timeline)
            return (renderer(timeline, viewer: viewer).statuses(slice), link)
        }
        var reply = Reply(body: page.body)
        setPageLink(page.link, on: &reply)
        return reply
    }

    // MARK: Timelines

    /// `timelines/public` and `timelines/tag/:hashtag`: every public status but
    /// boosts (as Mastodon leaves them out) and the viewer's blocked and muted accounts'; `local` changes nothing (every
    /// account is local), `remote=true` is empty, `only_media` keeps statuses with pictures.
    func publicTimeline(_ call: Call, viewer: Int?, tag: String?) throws -> Reply {
        if call.parameters.flag("remote") { return try statusPage([], call, timeline: store.timeline, viewer: viewer) }
        let onlyMedia = call.parameters.flag("only_media")
        return try cachedStatusPage(call, viewer: viewer) { timeline in
            let hidden = viewer.map(timeline.hiddenAuthors(for:)) ?? []
            let index = tag.map(timeline.tagIndex) ?? timeline.publicIndex
            return try page(index, call) { ordinal in
                timeline.isOnPublicTimeline(ordinal, hidden: hidden, onlyMedia: onlyMedia, tag: tag)
            }
        }
    }

    /// `timelines/home`: the viewer's statuses and those of whom they follow,
    /// boosts included; replies as Mastodon's feed takes them (`Timeline.isOnHome`),
    /// members of the viewer's exclusive lists left out. A status a `hide` filter
    /// matches stays, carrying it in `filtered`: Mastodon 4 leaves hiding to the client.
    func homeTimeline(_ call: Call, viewer: Int) throws -> Reply {
        return try cachedStatusPage(call, viewer: viewer) { timeline in
            let exclusive = timeline.exclusiveListMembers(of: viewer)
            return try page(timeline.authorsIndex(timeline.homeAuthors(of: viewer)), call) { ordinal in
                timeline.isOnHome(ordinal, of: viewer, exclusive: exclusive)
            }
        }
    }

    /// `accounts/:id/statuses`: `exclude_reblogs`, `exclude_replies` (a thread's
    /// self-replies stay, as on Mastodon), `only_media`, `tagged`; `pinned=true`: the statuses pinned (`statuses/:id/pin`).
    func accountStatuses(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let user = timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        if call.parameters.flag("pinned") {
            return try statusPage(timeline.pinnedOrdinals(of: user.index), call, timeline: timeline, viewer: viewer)
        }
        let excludeReblogs = call.parameters.flag("exclude_reblogs")
        let excludeReplies = call.parameters.flag("exclude_replies")
        let onlyMedia = call.parameters.flag("only_media")
        let tagged = call.parameters.nonEmpty("tagged")
        return try cachedStatusPage(call, viewer: viewer) { timeline in
            try page(timeline.userIndex(user.index), call) { ordinal in
                guard !timeline.isDeleted(ordinal: ordinal), let status = timeline.status(ordinal: ordinal) else { return false }
                if excludeReblogs && timeline.isBoost(status) { return false }
                if excludeReplies && !Timeline.isThreadOrNoReply(status) { return false }
                if onlyMedia && status.pictureKeys.isEmpty { return false }
                if let tagged, !Hashtags.text(status.text, has: tagged) { return false }
                return true
            }
        }
    }

    // MARK: Statuses

    /// A status, or a comment as the reply it is.
    func showStatus(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        let id = try identifier(id)
        if let status = timeline.status(id: id) {
            return Self.json(renderer(timeline, viewer: viewer).statusJSON(status))
        }
        if let (comment, status) = timeline.comment(id: id) {
            return Self.json(renderer(timeline, viewer: viewer).replyJSON(comment, on: status))
        }
        throw MastodonError.notFound
    }

    /// `statuses/:id/context`: a status's comments as threaded replies; a
    /// reply's status and parent replies as ancestors.
    func context(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        let id = try identifier(id)
        if let status = timeline.status(id: id) {
            // A boost's context is its original's, as Mastodon shows it.
            let shown = timeline.isBoost(status) ? timeline.boosted(by: status) ?? status : status
            return Self.json(renderer(timeline, viewer: viewer).context(of: shown))
        }
        if let (comment, status) = timeline.comment(id: id) {
            return Self.json(renderer(timeline, viewer: viewer).context(of: comment, on: status))
        }
        throw MastodonError.notFound
    }

    // MARK: Accounts

    func verifyCredentials(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        return Self.json(renderer(timeline, viewer: viewer).accountJSON(timeline.data.users[viewer], withSource: true))
    }

    /// `accounts/lookup?acct=`: a screen name, with or without `@` and this server's domain.
    func lookup(_ call: Call, viewer: Int?) throws -> Reply {
        let timeline = store.timeline
        var acct = Substring(call.parameters["acct"] ?? "")
        if acct.hasPrefix("@") { acct = acct.dropFirst() }
        if let at = acct.firstIndex(of: "@") {
            let domain = acct[acct.index(after: at)...]
            // Another server's account is not here.
            guard state.origin.hasSuffix("//" + domain) else { throw MastodonError.notFound }
            acct = acct[..<at]
        }
        guard let user = timeline.user(screenName: String(acct)) else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: viewer).accountJSON(user))
    }

    func account(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        guard let user = timeline.user(id: try identifier(id)) else { throw MastodonError.notFound }
        return Self.json(renderer(timeline, viewer: viewer).accountJSON(user))
    }

    /// `accounts/relationships?id[]=…`: unknown ids are left out, as Mastodon does.
    func relationships(_ call: Call, viewer: Int) throws -> Reply {
        let timeline = store.timeline
        let users = call.parameters.list("id").compactMap { state.ids.parse($0).flatMap(timeline.user(id:)) }
        return Self.json(renderer(timeline, viewer: viewer).relationships(users))
    }
}
