import WshRequest

/// A write the server carried out, and how wsh learned it.
///
/// Most writes are answered (`resolution == .answered`). When the answer was
/// lost on the way back, the DataController asked the server before saying
/// anything (`.recovered`); when the change was already in place, the write
/// had nothing to do (`.alreadyDone`, e.g. deleting a status already gone).
public struct WriteOutcome<Value: Sendable>: Sendable {
    /// How the outcome became known.
    public enum Resolution: Sendable, Hashable {
        /// The server answered.
        case answered
        /// The answer was lost (`reason`), and reading the server showed the write landed.
        case recovered(lostAnswer: String)
        /// The server said the change was already made (`reason`): nothing left to do.
        case alreadyDone(reason: String)
    }

    /// What the write produced: the status posted, the status deleted.
    public var value: Value
    public var resolution: Resolution

    public init(_ value: Value, resolution: Resolution = .answered) {
        self.value = value
        self.resolution = resolution
    }
}

/// Why a write did not happen, or why wsh cannot tell whether it did.
///
/// A write whose answer is lost (timeout, dropped connection, an empty or
/// cut reply, a 5xx without an API body) may have been carried out; the
/// DataController reads the server before choosing between `notApplied`
/// and `unknown`, so what wsh reports always agrees with the server.
public enum WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server refused, or the request never reached it: nothing changed.
    case rejected(RequestError)
    /// The answer was lost (`lostAnswer`), and reading the server showed
    /// that the write did not happen.
    case notApplied(lostAnswer: RequestError)
    /// The answer was lost (`lostAnswer`), and the check that should have
    /// told what happened failed or could not decide (`check`).
    case unknown(lostAnswer: RequestError, check: String)

    /// The request's own failure.
    public var requestError: RequestError {
        switch self {
        case .rejected(let error), .notApplied(let error), .unknown(let error, _): error
        }
    }

    /// The request's own failure, as a message.
    public var reason: String { requestError.description }

    public var description: String {
        switch self {
        case .rejected(let error): error.description
        case .notApplied(let error): "\(error.description); the server shows the write did not happen"
        case .unknown(let error, let check): "\(error.description); whether the write happened is unknown: \(check)"
        }
    }
}

extension RequestError {
    /// True when the request may have been carried out although no usable
    /// answer came back: it may have reached the server, and the server's
    /// verdict is missing. A refused connection, an unknown host, a failed
    /// TLS handshake, an API error body, a bad configuration mean the write
    /// did not happen. A cancelled request is the user stopping: reported as
    /// an interrupt, not resolved.
    public var leavesWriteOutcomeUnknown: Bool {
        switch self {
        case .transport(let failure):
            switch failure.kind {
            case .refused, .dns, .tls, .untrusted, .webSocket: false
            case .timeout, .dropped, .tooLarge, .headerTooLarge, .other: true
            }
        case .http(let status, _, _): status >= 500
        case .decoding: true          // a 2xx whose body did not read: the server did answer yes
        case .api, .cancelled, .configuration: false
        }
    }

    /// True when the API itself answered that the thing is not there (Weibo's
    /// 20101, 20201, 20003; Mastodon's 404 `Record not found`): a bare 404
    /// page without an API body (a wrong base URL, a proxy) is not such an answer.
    var isNotThere: Bool {
        if case .api = self, kind == .notFound { return true }
        return false
    }

    /// True when the API answered that what was asked is already so.
    var isAlreadyDone: Bool { kind == .alreadyDone }
}

// MARK: Reading a write back when its answer was lost

/// What a user can read with `api get` to see for themselves whether a write
/// took effect when its answer was lost: each API words it in its own paths
/// and field names, so the advice a ViewModel gives names no API.
public enum ReadBack: Sendable, Hashable {
    /// The status, to see it is there (or gone).
    case status(id: String)
    /// The status and the field that holds `toggle`'s flag (whether you favourited it, bookmarked it…).
    case toggle(StatusToggle, statusID: String)
    /// The text as written, before editing again.
    case statusSource(id: String)
    /// The comments (Weibo) or the thread (Mastodon) of a status.
    case comments(statusID: String)
    /// The account's latest statuses, to see whether a post or a repost was made.
    case ownRecentStatuses
    /// Your relationship to the user, and the field that holds `toggle`'s flag (whether you follow them…).
    case account(AccountToggle, UserReference)
    /// Your relationship to an account: `field` is what to look at
    /// (`blocking`, `muting`), `id` the account's id if known.
    case relationship(field: String, accountID: String?)
    /// The members of a list.
    case listAccounts(listID: String)
}

/// The words of one read-back: the command, and the field to look at.
public struct ReadBackHint: Sendable, Hashable {
    /// `api get …`, as typed at the prompt.
    public var command: String
    /// The field of the answer that tells, if one does.
    public var field: String?

    public init(_ command: String, field: String? = nil) {
        self.command = command
        self.field = field
    }

    /// "check with `api get …` (its "favourited")".
    public var advice: String {
        "check with `\(command)`" + (field.map { " (its \"\($0)\")" } ?? "")
    }
}
