import WshModel
import WshRequest
import WshText

/// A remote write that turns one flag on or off, declared once: the command
/// and its opposite, the words the history, the notes and `help` use, the
/// flag the server's answer or a read-back holds (when an answer is lost),
/// and the call each API makes each way. `Flagged` is what holds the flag: a
/// `Status` (favourite, bookmark: `StatusToggle`) or your `Relationship` to
/// an account (follow, block: `AccountToggle`).
///
/// Everything else reads this value: the shell makes the two commands and
/// their help from it (`help favorite` names the call the connected API
/// sends, taken from `calls`), the ViewModel records the write and its undo
/// (the same toggle the other way) and redo, the dialect sends the call, and
/// the trace names it. A new toggle is one more value in `all` (or one handed
/// to the shell's configuration), and nothing else changes.
public struct Toggle<Flagged>: Sendable, Hashable {
    /// The command that turns the flag on (`favorite`).
    public var name: String
    /// The command that turns it off (`unfavorite`).
    public var oppositeName: String
    /// The flag on, as notes say it: `favourited`.
    public var on: String
    /// The flag off, as notes say it: `unfavourited`.
    public var off: String
    /// What undo of turning it on does, for `history --effects`: `unfavourites`.
    public var undoOfOn: String
    /// What undo of turning it off does: `favourites`.
    public var undoOfOff: String
    /// `help`'s one line for each command.
    public var abstract: (on: String, off: String)
    /// The field that holds the flag, by API, as its answers name it (`favourited`;
    /// Weibo's `favorited`; `following`), for help and the advice after a lost answer.
    public var field: [String: String]
    /// The flag in the Model, read from the server's answer and when an answer is lost.
    public var flag: @Sendable (Flagged) -> Bool?
    /// The flag set in the Model, as the server's answer said it or as wanted.
    public var setFlag: @Sendable (inout Flagged, Bool) -> Void
    /// What `help` says beyond the toggle's own lines, if anything.
    public var note: String?
    /// What a refusal says an API without it lacks: `this API (weibo) has no bookmarks`.
    public var feature: String
    /// What else the API must offer, beyond having the calls (a Mastodon-family server may lack bookmarks).
    public var capability: (KeyPath<Capabilities, Bool> & Sendable)?
    /// The calls, by the name of the dialect that sends them (`weibo`, `mastodon`);
    /// an API not named here does not offer the toggle.
    public var calls: [String: Calls]

    /// The call that turns the flag on and the one that turns it off, on one API.
    public struct Calls: Sendable, Hashable {
        public var on: ToggleCall
        public var off: ToggleCall

        public init(on: ToggleCall, off: ToggleCall) {
            self.on = on
            self.off = off
        }
    }

    public init(name: String, oppositeName: String, on: String, off: String, undoOfOn: String, undoOfOff: String,
                abstract: (on: String, off: String), field: [String: String],
                flag: @escaping @Sendable (Flagged) -> Bool?, setFlag: @escaping @Sendable (inout Flagged, Bool) -> Void = { _, _ in },
                note: String? = nil, feature: String, capability: (KeyPath<Capabilities, Bool> & Sendable)? = nil,
                calls: [String: Calls]) {
        self.name = name
        self.oppositeName = oppositeName
        self.on = on
        self.off = off
        self.undoOfOn = undoOfOn
        self.undoOfOff = undoOfOff
        self.abstract = abstract
        self.field = field
        self.flag = flag
        self.setFlag = setFlag
        self.note = note
        self.feature = feature
        self.capability = capability
        self.calls = calls
    }

    /// The command for `on` (`favorite`) or off (`unfavorite`).
    public func command(_ on: Bool) -> String { on ? name : oppositeName }
    /// `favourited` or `unfavourited`.
    public func past(_ on: Bool) -> String { on ? self.on : off }
    /// `favouriting` or `unfavouriting`, for an undo's or redo's failure.
    public func doing(_ on: Bool) -> String {
        let past = past(on)
        return past.hasSuffix("ed") ? String(past.dropLast(2)) + "ing" : past
    }

    /// The call `dialect` sends to turn the flag `on` or off; nil when it does not offer the toggle.
    public func call(_ on: Bool, on dialect: any Dialect) -> ToggleCall? {
        guard let calls = calls[dialect.name] else { return nil }
        if let capability, !dialect.capabilities[keyPath: capability] { return nil }
        return on ? calls.on : calls.off
    }

    /// True when `dialect` offers the toggle: it has the calls, and what else it must offer.
    public func isOffered(by dialect: any Dialect) -> Bool { call(true, on: dialect) != nil }

    /// Declarations are told apart by their command.
    public static func == (lhs: Toggle, rhs: Toggle) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// One way of a toggle on one API: the request, as help names it, and what
/// its answer holds.
public struct ToggleCall: Sendable, Hashable, CustomStringConvertible {
    /// What the answer holds.
    public enum Answer: Sendable, Hashable {
        /// The status.
        case status
        /// An object whose `status` is the status (Weibo's favourites).
        case wrapped
        /// The account (Weibo's friendships).
        case account
        /// Your relationship to the account (Mastodon's follow, block); with
        /// `rereadsAccount`, the account is read again after it, so a profile
        /// on screen shows what changed (its followers).
        case relationship(rereadsAccount: Bool)
    }

    public var method: HTTPMethod
    /// The path as help names it, `:id` where the id goes
    /// (`/api/v1/statuses/:id/favourite`); a path without `:id` sends the id as `idParameter`.
    public var path: String
    /// The form field the id goes in when the path has no `:id` (Weibo's `id`;
    /// an account's, `uid or screen_name`, is the one the user was named by).
    public var idParameter: String?
    public var answer: Answer

    public init(_ method: HTTPMethod, _ path: String, idParameter: String? = nil, answer: Answer = .status) {
        self.method = method
        self.path = path
        self.idParameter = idParameter
        self.answer = answer
    }

    /// The request for the status or account `id`: the path relative to the
    /// API's base, the id in it percent-encoded (or as the form field `idParameter`).
    public func endpoint(id: String) -> Endpoint {
        Endpoint(method, documented: path, id: id, parameters: idParameter.map { [($0, id)] } ?? [])
    }

    /// `POST /api/v1/statuses/:id/favourite`, or `POST favorites/create.json (id)`.
    public var description: String {
        "\(method.rawValue) \(path)" + (idParameter.map { " (\($0))" } ?? "")
    }
}

/// A toggle of a status's flag: `favorite N`, `bookmark N`.
public typealias StatusToggle = Toggle<Status>
/// A toggle of your relationship to an account: `follow USER`, `block USER`.
public typealias AccountToggle = Toggle<Relationship>

extension Toggle where Flagged == Status {
    /// wsh's status toggles, in the order `help` lists them.
    public static var all: [StatusToggle] { [favorite, bookmark] }

    /// `favorite N` / `unfavorite N`.
    public static var favorite: StatusToggle { StatusToggle(
        name: "favorite", oppositeName: "unfavorite", on: "favourited", off: "unfavourited",
        undoOfOn: "unfavourites", undoOfOff: "favourites", abstract: ("Favourite row N.", "Unfavourite row N."),
        field: ["weibo": "favorited", "mastodon": "favourited"],
        flag: { $0.favorited }, setFlag: { $0.favorited = $1 }, feature: "favourites",
        calls: [
            "weibo": Calls(on: ToggleCall(.post, "favorites/create.json", idParameter: "id", answer: .wrapped),
                           off: ToggleCall(.post, "favorites/destroy.json", idParameter: "id", answer: .wrapped)),
            "mastodon": Calls(on: ToggleCall(.post, "/api/v1/statuses/:id/favourite"),
                              off: ToggleCall(.post, "/api/v1/statuses/:id/unfavourite")),
        ]) }

    /// `bookmark N` / `unbookmark N` (Mastodon).
    public static var bookmark: StatusToggle { StatusToggle(
        name: "bookmark", oppositeName: "unbookmark", on: "bookmarked", off: "unbookmarked",
        undoOfOn: "unbookmarks", undoOfOff: "bookmarks again",
        abstract: ("Bookmark row N (Mastodon).", "Remove the bookmark of row N (Mastodon)."),
        field: ["mastodon": "bookmarked"],
        flag: { $0.bookmarked }, setFlag: { $0.bookmarked = $1 }, feature: "bookmarks", capability: \Capabilities.bookmarks,
        calls: [
            "mastodon": Calls(on: ToggleCall(.post, "/api/v1/statuses/:id/bookmark"),
                              off: ToggleCall(.post, "/api/v1/statuses/:id/unbookmark")),
        ]) }
}

extension Toggle where Flagged == Relationship {
    /// wsh's account toggles, in the order `help` lists them.
    public static var all: [AccountToggle] { [follow, block] }

    /// `follow USER` / `unfollow USER`.
    public static var follow: AccountToggle { AccountToggle(
        name: "follow", oppositeName: "unfollow", on: "followed", off: "unfollowed",
        undoOfOn: "unfollows", undoOfOff: "follows again",
        abstract: ("Follow a user by screen name (@name) or uid.", "Unfollow a user by screen name (@name) or uid."),
        field: ["weibo": "following", "mastodon": "following"], flag: { $0.following }, feature: "follows",
        calls: [
            "weibo": Calls(on: ToggleCall(.post, "friendships/create.json", idParameter: "uid or screen_name", answer: .account),
                           off: ToggleCall(.post, "friendships/destroy.json", idParameter: "uid or screen_name", answer: .account)),
            "mastodon": Calls(on: ToggleCall(.post, "/api/v1/accounts/:id/follow", answer: .relationship(rereadsAccount: true)),
                              off: ToggleCall(.post, "/api/v1/accounts/:id/unfollow", answer: .relationship(rereadsAccount: true))),
        ]) }

    /// `block USER` / `unblock USER` (Mastodon).
    public static var block: AccountToggle { AccountToggle(
        name: "block", oppositeName: "unblock", on: "blocked", off: "unblocked", undoOfOn: "unblocks", undoOfOff: "blocks again",
        abstract: ("Block a user on the server (Mastodon).", "Unblock a user on the server (Mastodon)."),
        field: ["mastodon": "blocking"], flag: { $0.blocking },
        note: "Blocking also ends the follows between you (the server's doing; undo does not restore them).",
        feature: "block", capability: \Capabilities.blocksAccounts,
        calls: [
            "mastodon": Calls(on: ToggleCall(.post, "/api/v1/accounts/:id/block", answer: .relationship(rereadsAccount: false)),
                              off: ToggleCall(.post, "/api/v1/accounts/:id/unblock", answer: .relationship(rereadsAccount: false))),
        ]) }
}
