/// Every failure the language reports: syntax and usage errors, failed commands,
/// interrupts and `exit` requests.
///
/// Errors are values; ``ErrorReport/init(_:interactive:)`` is the one place that turns
/// an error into text and an exit status.
public struct LanguageError: Error, Sendable, Equatable {
    /// What went wrong, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The text is not valid syntax (status 2).
        case syntax
        /// A command was given arguments it does not accept (status 2).
        case usage
        /// A command ran and failed (status 1).
        case failed
        /// The host asked execution to stop (status 130).
        case interrupted
        /// The host's step budget ran out (status 1); `try` cannot catch it.
        case stepLimitExceeded
        /// `exit N` asked the host to end with status N.
        case exit(Int32)
    }

    /// What went wrong.
    public var kind: Kind
    /// A one-line human-readable message without position or command name.
    public var message: String
    /// The command that failed, when known.
    public var command: String?
    /// Where the failing command starts, when known.
    public var position: SourcePosition?
    /// A machine-readable code the host attaches, such as an API's error code
    /// or an HTTP status; `catch` puts it in `$errcode` (empty when nil).
    public var code: String?
    /// What the failure means, in the host's own few words (wsh: `not_found`,
    /// `unauthorized`, `forbidden`, `rate_limited`, `already_done`, `invalid`,
    /// `server`, `network`); `catch` puts it in `$errkind` (empty when nil).
    public var category: String?
    /// How long to wait before trying again, when the host knows (an API's
    /// rate-limit error or `Retry-After` header); `retry` waits this long instead of
    /// its `--every`.
    public var retryAfter: Duration?
    /// True when a syntax error was caused only by the input ending too early
    /// (open quote, brace, `$(` or trailing backslash).
    public var isIncompleteInput: Bool

    /// Creates an error; hosts usually use the static constructors instead.
    public init(
        _ kind: Kind, _ message: String, command: String? = nil,
        position: SourcePosition? = nil, isIncompleteInput: Bool = false, code: String? = nil,
        retryAfter: Duration? = nil, category: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.code = code
        self.category = category
        self.retryAfter = retryAfter
        self.command = command
        self.position = position
        self.isIncompleteInput = isIncompleteInput
    }

    /// A command failed (status 1): `command: message`. `code` becomes `$errcode`
    /// and `category` `$errkind` in `catch`; `retryAfter` tells `retry` how long
    /// to wait before the next try.
    public static func commandFailed(
        _ message: String, code: String? = nil, retryAfter: Duration? = nil, category: String? = nil
    ) -> LanguageError {
        LanguageError(.failed, message, code: code, retryAfter: retryAfter, category: category)
    }

    /// A command was used wrongly (status 2); the message should name what was wrong.
    public static func usage(_ message: String) -> LanguageError {
        LanguageError(.usage, message)
    }

    /// The exit status this error ends a script with: 0 ok, 1 failed, 2 usage or
    /// syntax error, 130 interrupted, N for `exit N`.
    public var status: Int32 {
        switch kind {
        case .syntax, .usage: 2
        case .failed, .stepLimitExceeded: 1
        case .interrupted: 130
        case .exit(let code): code
        }
    }

    /// Whether `try … catch` may handle this error. Interrupts, `exit` and the step
    /// limit always end the script.
    public var isCatchable: Bool {
        switch kind {
        case .syntax, .usage, .failed: true
        case .interrupted, .stepLimitExceeded, .exit: false
        }
    }

    /// Fills in the command and position if the error does not carry them yet.
    func located(command: String?, position: SourcePosition?) -> LanguageError {
        var copy = self
        // A parse error already points into its own text (maybe a sourced file); naming
        // the outer command there would mislead.
        let isParseError = kind == .syntax && self.position != nil && self.command == nil
        if copy.command == nil && !isParseError { copy.command = command }
        if copy.position == nil { copy.position = position }
        return copy
    }
}
