import WshDataController
import WshLanguage

/// What the connected API offers, as `help fetch` and completion say it:
/// drawn from the dialect's own page limits, so it cannot drift from what
/// `fetch` accepts.
extension Shell {
    /// A timeline `fetch` can name, with an example source to ask the API about.
    struct TimelineWord {
        let word: String
        let synopsis: String
        let source: TimelineSource
    }

    private static let timelineWords = [
        TimelineWord(word: "public", synopsis: "public", source: .public),
        TimelineWord(word: "local", synopsis: "local", source: .local),
        TimelineWord(word: "home", synopsis: "home", source: .home),
        TimelineWord(word: "tag", synopsis: "tag NAME", source: .tag("wsh")),
        TimelineWord(word: "user", synopsis: "user NAME", source: .user(.screenName("wsh"))),
        TimelineWord(word: "mentions", synopsis: "mentions", source: .mentions),
        TimelineWord(word: "reposts", synopsis: "reposts N", source: .reposts(statusID: "1")),
        TimelineWord(word: "list", synopsis: "list NAME", source: .list("wsh")),
        TimelineWord(word: "bookmarks", synopsis: "bookmarks", source: .bookmarks),
        TimelineWord(word: "favourites", synopsis: "favourites", source: .favourites),
    ]

    /// The timelines the connected API offers; every one while the API is not yet known.
    func offeredTimelines() -> [TimelineWord] {
        guard let dialect = connection.knownDialect else { return Self.timelineWords }
        return Self.timelineWords.filter { dialect.maximumCount(for: $0.source) != nil }
    }

    /// `On this API (mastodon): public, local, … — 1 to 40 statuses a page. Not offered: reposts N.`
    func timelineNotes() -> String {
        guard let dialect = connection.knownDialect else {
            return "On \(connection.label): which timelines and page sizes depends on the API, "
                + "found out by connect URL or the first request; help fetch says them then."
        }
        return "On this API (\(dialect.name)): " + Self.timelineLimits(dialect)
    }

    /// What the manual page says for `fetch`, where the API is not known: each API's timelines.
    static var everyAPITimelineNotes: String {
        Dialects.all.map { "On \($0.name): " + timelineLimits($0) }.joined(separator: "\n\n")
    }

    /// `public, local, …: 1 to 40 statuses a page. Not offered here: reposts N.`
    private static func timelineLimits(_ dialect: any Dialect) -> String {
        var byLimit: [(Int, [String])] = []
        var missing: [String] = []
        for word in timelineWords {
            guard let limit = dialect.maximumCount(for: word.source) else {
                missing.append(word.synopsis)
                continue
            }
            if let index = byLimit.firstIndex(where: { $0.0 == limit }) { byLimit[index].1.append(word.synopsis) }
            else { byLimit.append((limit, [word.synopsis])) }
        }
        let offered = byLimit.map { limit, words in "\(words.joined(separator: ", ")): 1 to \(limit) statuses a page" }
        return offered.joined(separator: "; ") + "."
            + (missing.isEmpty ? "" : " Not offered here: \(missing.joined(separator: ", ")).")
    }

    /// `favorites` (Weibo's spelling) is `favourites` (Mastodon's): both are accepted on both APIs.
    static func canonicalTimelineWord(_ word: String) -> String {
        word == "favorites" ? "favourites" : word
    }

    /// Refuses, before any request, a timeline the connected API does not
    /// offer: one line naming the API and what it offers.
    func checkOffered(_ word: String?) throws(LanguageError) {
        guard let word, let dialect = connection.knownDialect,
              let named = Self.timelineWords.first(where: { $0.word == Self.canonicalTimelineWord(word) }),
              dialect.maximumCount(for: named.source) == nil else { return }
        throw .usage("\(named.synopsis): this API (\(dialect.name)) has no such timeline; it offers "
            + offeredTimelines().map(\.synopsis).joined(separator: ", "))
    }

    // MARK: Capabilities beyond timelines (Dialect.capabilities)

    /// Refuses, before any request, what the connected API cannot do: one line naming the API.
    func refuseUnless(_ capability: KeyPath<Capabilities, Bool>, _ what: String) throws(LanguageError) {
        guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return }
        throw .usage("this API (\(dialect.serverName)) \(what)")
    }

    /// The commands only some APIs have, with what the connected API must
    /// offer for each and its name in a refusal: `help NAME` and the `help`
    /// list say when the connected API lacks it (the commands themselves
    /// refuse before any request).
    static let offeredOnlyWith: [String: (capability: KeyPath<Capabilities, Bool> & Sendable, feature: String)] = [
        "notifications": (\.notifications, "notifications"), "dismiss": (\.notifications, "notifications"),
        "conversations": (\.conversations, "direct conversations"),
        "lists": (\.lists, "lists"),
        "edit": (\.editsStatuses, "status edits"), "edits": (\.editsStatuses, "status edits"),
        "scheduled": (\.schedulesStatuses, "scheduled statuses"), "unschedule": (\.schedulesStatuses, "scheduled statuses"),
        "vote": (\.polls, "polls"),
        "block": (\.blocksAccounts, "block"), "unblock": (\.blocksAccounts, "block"),
        "filters": (\.filters, "filters"),
        "favourited-by": (\.listsFavouritedBy, "a list of who favourited a status"),
        "reblogged-by": (\.listsRebloggedBy, "a list of who boosted a status"),
    ]

    /// `command` as the connected API offers it: when it lacks what the
    /// command needs (`offeredOnlyWith`), `help NAME` says so in one line
    /// (unless the command says more itself) and the `help` list marks it.
    func gatedByCapability(_ command: CommandSpec) -> CommandSpec {
        guard let (capability, feature) = Self.offeredOnlyWith[command.name] else { return command }
        var gated = command
        if gated.currentNotes == nil {
            gated.currentNotes = { [unowned self] in capabilityNote(capability, feature) }
        }
        gated.unavailable = { [unowned self] in
            guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return nil }
            return "not on \(dialect.serverName)"
        }
        return gated
    }

    /// `help` for a command the connected API lacks: one line saying so.
    func capabilityNote(_ capability: KeyPath<Capabilities, Bool>, _ feature: String) -> String? {
        guard let dialect = connection.knownDialect, !dialect.capabilities[keyPath: capability] else { return nil }
        return "Not on this API: \(dialect.serverName) has no \(feature)."
    }
}
