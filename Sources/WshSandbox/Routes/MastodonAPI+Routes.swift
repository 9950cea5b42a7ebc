import HTTPTypes
import WshText

/// Every route the Mastodon face serves, in one table the responder
/// dispatches on: the method, the path after `/api/` (`*` one segment, `**`
/// the rest), who may call it, and the handler. A route for a signed-in user
/// (`.user`) gets the user; without one the dispatcher answers 401 (422 for
/// an app's token) in the flavour's words. The first row that matches serves.
extension MastodonAPI {
    static let routes: [Route] = [
        // Profile, emojis, who favourited or boosted (MastodonAPI+Accounts.swift).
        .user(.patch, "v1/accounts/update_credentials") { try $0.updateCredentials($1, actor: $2) },
        .open(.get, "v1/custom_emojis") { try $0.customEmojis($1, viewer: $2) },
        .open(.get, "v1/statuses/*/favourited_by") { try $0.favouritedBy($1, viewer: $2, id: $1.id) },
        .open(.get, "v1/statuses/*/reblogged_by") { try $0.rebloggedBy($1, viewer: $2, id: $1.id) },
        // Filters v2 (MastodonAPI+Filters.swift).
        .user(.get, "v2/filters") { api, _, viewer in api.filters(viewer: viewer) },
        .user(.post, "v2/filters") { try $0.saveFilter($1, id: nil, viewer: $2) },
        .user(.get, "v2/filters/*") { try $0.showFilter(viewer: $2, id: $1.id) },
        .user(.put, "v2/filters/*") { try $0.saveFilter($1, id: $1.id, viewer: $2) },
        .user(.delete, "v2/filters/*") { try $0.deleteFilter(viewer: $2, id: $1.id) },
        .user(.get, "v2/filters/*/keywords") { try $0.filterKeywords(viewer: $2, id: $1.id) },
        .user(.post, "v2/filters/*/keywords") { try $0.addKeyword($1, viewer: $2, id: $1.id) },
        .user(nil, "v2/filters/keywords/*") { try $0.keywordAction($1, viewer: $2, id: $1.id) },
        // Any other path under filters asks for the user before it is not found.
        .user(nil, "v2/filters/**") { _, _, _ in throw MastodonError.notFound },
        // Instance and apps (MastodonAPI+Instance.swift).
        .open(.get, "v1/instance") { api, _, _ in api.instanceV1() },
        .open(.get, "v2/instance") { api, _, _ in api.instanceV2() },
        .open(.post, "v1/apps") { api, call, _ in try api.registerApp(call) },
        .open(.get, "v1/apps/verify_credentials") { api, call, _ in try api.verifyApp(call) },
        // Timelines, statuses and accounts (MastodonAPI+Reads.swift).
        .preview(.get, "v1/timelines/public") { try $0.publicTimeline($1, viewer: $2, tag: nil) },
        // The tag arrives percent-encoded (`%E8%AF%9D…` for a CJK topic).
        .preview(.get, "v1/timelines/tag/*") { try $0.publicTimeline($1, viewer: $2, tag: PercentEncoding.decoded($1.id) ?? $1.id) },
        .user(.get, "v1/timelines/home") { try $0.homeTimeline($1, viewer: $2) },
        // Notifications, streaming and conversations (MastodonAPI+Notifications.swift, +Streaming.swift).
        .user(.get, "v1/notifications") { try $0.notifications($1, viewer: $2) },
        .user(.post, "v1/notifications/clear") { try $0.clearNotifications($1, viewer: $2) },
        .user(.get, "v1/notifications/*") { try $0.notification($1, viewer: $2, id: $1.id) },
        .user(.post, "v1/notifications/*/dismiss") { try $0.dismissNotification($1, viewer: $2, id: $1.id) },
        .user(.post, "v1/notifications/dismiss", servedIf: { $0.extras.dismissByBody }) {
            try $0.dismissNotification($1, viewer: $2, id: $1.parameters["id"] ?? "")
        },
        .open(.get, "v1/streaming/health") { api, _, _ in api.streamingHealth() },
        .open(.get, "v1/streaming") { api, call, _ in try api.stream(call, name: call.parameters["stream"] ?? "") },
        .open(.get, "v1/streaming/**") { api, call, _ in try api.stream(call, name: call.id) },
        .user(.get, "v1/conversations") { try $0.conversations($1, viewer: $2) },
        .user(.post, "v1/conversations/*/read") { try $0.readConversation($1, viewer: $2, id: $1.id) },
        .user(.delete, "v1/conversations/*") { try $0.removeConversation($1, viewer: $2, id: $1.id) },
        .user(.get, "v1/accounts/verify_credentials") { try $0.verifyCredentials($1, viewer: $2) },
        .open(.get, "v1/accounts/lookup") { try $0.lookup($1, viewer: $2) },
        .user(.get, "v1/accounts/relationships") { try $0.relationships($1, viewer: $2) },
        // Search, followers/following, blocks and mutes (MastodonAPI+Search.swift, +Relations.swift).
        .open(.get, "v2/search") { try $0.search($1, viewer: $2) },
        .user(.get, "v1/accounts/search") { try $0.accountSearch($1, viewer: $2) },
        .open(.get, "v1/accounts/*/followers") { try $0.followList($1, viewer: $2, id: $1.id, followers: true) },
        .open(.get, "v1/accounts/*/following") { try $0.followList($1, viewer: $2, id: $1.id, followers: false) },
        .user(.get, "v1/blocks") { try $0.blockList($1, viewer: $2) },
        .user(.get, "v1/mutes") { try $0.muteList($1, viewer: $2) },
        .user(.post, "v1/accounts/*/block") { try $0.relate($1, actor: $2, id: $1.id, action: "block") },
        .user(.post, "v1/accounts/*/unblock") { try $0.relate($1, actor: $2, id: $1.id, action: "unblock") },
        .user(.post, "v1/accounts/*/mute") { try $0.relate($1, actor: $2, id: $1.id, action: "mute") },
        .user(.post, "v1/accounts/*/unmute") { try $0.relate($1, actor: $2, id: $1.id, action: "unmute") },
        .open(.get, "v1/accounts/*") { try $0.account($1, viewer: $2, id: $1.id) },
        .open(.get, "v1/accounts/*/statuses") { try $0.accountStatuses($1, viewer: $2, id: $1.id) },
        // Writes (MastodonAPI+Writes.swift).
        .user(.post, "v1/accounts/*/follow") { try $0.follow($1, actor: $2, id: $1.id, follow: true) },
        .user(.post, "v1/accounts/*/unfollow") { try $0.follow($1, actor: $2, id: $1.id, follow: false) },
        .user(.post, "v1/statuses") { try $0.postStatus($1, actor: $2) },
        .open(.get, "v1/statuses/*") { try $0.showStatus($1, viewer: $2, id: $1.id) },
        .user(.delete, "v1/statuses/*") { try $0.deleteStatus($1, actor: $2, id: $1.id) },
        .open(.get, "v1/statuses/*/context") { try $0.context($1, viewer: $2, id: $1.id) },
        .user(.post, "v1/statuses/*/reblog") { try $0.statusAction($1, actor: $2, id: $1.id, action: "reblog") },
        .user(.post, "v1/statuses/*/unreblog") { try $0.statusAction($1, actor: $2, id: $1.id, action: "unreblog") },
        .user(.post, "v1/statuses/*/favourite") { try $0.statusAction($1, actor: $2, id: $1.id, action: "favourite") },
        .user(.post, "v1/statuses/*/unfavourite") { try $0.statusAction($1, actor: $2, id: $1.id, action: "unfavourite") },
        // Bookmarks, favourites and lists (MastodonAPI+Lists.swift).
        .user(.get, "v1/bookmarks") { try $0.bookmarks($1, viewer: $2) },
        .user(.get, "v1/favourites") { try $0.favouritesList($1, viewer: $2) },
        .user(.post, "v1/statuses/*/bookmark") { try $0.statusAction($1, actor: $2, id: $1.id, action: "bookmark") },
        .user(.post, "v1/statuses/*/unbookmark") { try $0.statusAction($1, actor: $2, id: $1.id, action: "unbookmark") },
        .user(.post, "v1/statuses/*/pin") { try $0.statusAction($1, actor: $2, id: $1.id, action: "pin") },
        .user(.post, "v1/statuses/*/unpin") { try $0.statusAction($1, actor: $2, id: $1.id, action: "unpin") },
        .user(.get, "v1/timelines/list/*") { try $0.listTimeline($1, viewer: $2, id: $1.id) },
        .user(.get, "v1/lists") { try $0.listsIndex($1, viewer: $2) },
        .user(.post, "v1/lists") { try $0.saveList($1, actor: $2, id: nil) },
        .user(.get, "v1/lists/*") { try $0.showList($1, viewer: $2, id: $1.id) },
        .user(.put, "v1/lists/*") { try $0.saveList($1, actor: $2, id: $1.id) },
        .user(.delete, "v1/lists/*") { try $0.deleteList($1, actor: $2, id: $1.id) },
        .user(.get, "v1/lists/*/accounts") { try $0.listAccounts($1, viewer: $2, id: $1.id) },
        .user(.post, "v1/lists/*/accounts") { try $0.changeListAccounts($1, actor: $2, id: $1.id, add: true) },
        .user(.delete, "v1/lists/*/accounts") { try $0.changeListAccounts($1, actor: $2, id: $1.id, add: false) },
        .user(.get, "v1/accounts/*/lists") { try $0.accountLists($1, viewer: $2, id: $1.id) },
        // Edits and scheduled statuses (MastodonAPI+Edits.swift).
        .user(.put, "v1/statuses/*") { try $0.editStatus($1, actor: $2, id: $1.id) },
        .open(.get, "v1/statuses/*/history") { try $0.statusHistory($1, viewer: $2, id: $1.id) },
        .user(.get, "v1/statuses/*/source") { try $0.statusSource($1, actor: $2, id: $1.id) },
        .user(.get, "v1/scheduled_statuses") { try $0.scheduledStatuses($1, actor: $2) },
        .user(.get, "v1/scheduled_statuses/*") { try $0.scheduledStatus($1, actor: $2, id: $1.id) },
        .user(.put, "v1/scheduled_statuses/*") { try $0.scheduledStatus($1, actor: $2, id: $1.id) },
        .user(.delete, "v1/scheduled_statuses/*") { try $0.scheduledStatus($1, actor: $2, id: $1.id) },
        // Posting: media uploads, polls (MastodonAPI+Posting.swift).
        .user(.post, "v1/media") { try $0.uploadMedia($1, actor: $2, synchronous: true) },
        .user(.post, "v2/media") { try $0.uploadMedia($1, actor: $2, synchronous: false) },
        .user(.get, "v1/media/*") { try $0.showMedia($1, actor: $2, id: $1.id) },
        .user(.put, "v1/media/*") { try $0.updateMedia($1, actor: $2, id: $1.id) },
        .preview(.get, "v1/polls/*") { try $0.showPoll($1, viewer: $2, id: $1.id) },
        .user(.post, "v1/polls/*/votes") { try $0.vote($1, actor: $2, id: $1.id) },
    ]

    /// Serves `call` by the first route that matches it; 404 when none does.
    func route(_ call: Call) throws -> Reply {
        var call = call
        for route in Self.routes where route.method == nil || route.method == call.method {
            guard route.servedIf?(state.flavour) ?? true,
                  let captured = route.captures(call.segments) else { continue }
            call.captured = captured
            return try route.serve(self, call)
        }
        throw MastodonError.notFound
    }

    /// The signed-in user; without one 401 (422 for an app's token), which the flavour words.
    func signedIn(_ caller: Caller) throws -> Int {
        switch caller {
        case .user(let user, _, _): return user
        case .anonymous: throw MastodonError.tokenInvalid
        case .app: throw MastodonError.appTokenRefused
        }
    }

    /// Who reads where public preview lets anyone read (nil: no token, or an
    /// app's); 401 without a token when preview is off.
    func previewer(_ caller: Caller) throws -> Int? {
        if case .anonymous = caller, !state.publicPreview { throw MastodonError.userRequired }
        return caller.user
    }

    /// One row of the table.
    struct Route: Sendable {
        /// nil: any method.
        let method: HTTPRequest.Method?
        let pattern: [Substring]
        /// For a route only some flavours serve: whether this one does.
        var servedIf: (@Sendable (SandboxFlavour) -> Bool)? = nil
        let serve: @Sendable (MastodonAPI, Call) throws -> Reply

        /// Anyone, with a token or without; the handler gets the user, if any.
        static func open(_ method: HTTPRequest.Method?, _ path: String,
                         _ handler: @escaping @Sendable (MastodonAPI, Call, Int?) throws -> Reply) -> Route {
            Route(method: method, pattern: path.split(separator: "/")) { try handler($0, $1, $1.caller.user) }
        }

        /// Anyone while public preview is on, else a user (`previewer`).
        static func preview(_ method: HTTPRequest.Method?, _ path: String,
                            _ handler: @escaping @Sendable (MastodonAPI, Call, Int?) throws -> Reply) -> Route {
            Route(method: method, pattern: path.split(separator: "/")) { try handler($0, $1, try $0.previewer($1.caller)) }
        }

        /// A signed-in user, whom the handler gets (`signedIn`).
        static func user(_ method: HTTPRequest.Method?, _ path: String,
                         servedIf: (@Sendable (SandboxFlavour) -> Bool)? = nil,
                         _ handler: @escaping @Sendable (MastodonAPI, Call, Int) throws -> Reply) -> Route {
            Route(method: method, pattern: path.split(separator: "/"), servedIf: servedIf) {
                try handler($0, $1, try $0.signedIn($1.caller))
            }
        }

        /// What `*` and `**` stand for in `segments`; nil when they are not this route's path.
        func captures(_ segments: [Substring]) -> [String]? {
            var captured: [String] = []
            for (index, part) in pattern.enumerated() {
                if part == "**" {
                    captured.append(segments[min(index, segments.count)...].joined(separator: "/"))
                    return captured
                }
                guard index < segments.count else { return nil }
                if part == "*" {
                    captured.append(String(segments[index]))
                } else if part != segments[index] {
                    return nil
                }
            }
            return pattern.count == segments.count ? captured : nil
        }
    }
}
