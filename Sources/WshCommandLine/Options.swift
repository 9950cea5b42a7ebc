/// What the command line asked for, as plain values.
///
/// `Arguments` (swift-argument-parser) is the specification: it declares the
/// options, renders `--help` and words every usage error. `Options.parse`
/// first tries `QuickParse`, which reads only the everyday forms and checks
/// nothing itself, and hands anything else to `Arguments`. The quick path is
/// there for start-up time: argument-parser's reflection costs more than the
/// rest of `wsh -c 'echo hi'` together (see `scripts/bench-startup`).
public struct Options: Equatable, Sendable {
    /// `--api URL`: a Weibo API base; nil means the embedded sandbox.
    public var api: String?
    /// `--token-file PATH`.
    public var tokenFile: String?
    /// `--json`.
    public var json = false
    /// `--no-color`.
    public var noColor = false
    /// `-c COMMANDS`.
    public var command: String?
    /// `--timeout SECONDS`.
    public var timeout: Double = Options.defaultTimeout
    /// `--version`.
    public var version = false
    /// A script and its arguments, or `-c`'s arguments.
    public var script: [String] = []

    public static let defaultTimeout: Double = 30
    /// A day: longer is a mistake, and would overflow the milliseconds.
    public static let maximumTimeout: Double = 86_400

    public init() {}

    /// Parses `arguments` (without the program name).
    ///
    /// Throws argument-parser's errors, help and `--version` requests
    /// included: `Options.report(_:)` turns them into text and a status.
    public static func parse(_ arguments: [String]) throws -> Options {
        if let options = QuickParse.options(arguments) { return options }
        return try Arguments.parse(arguments).options
    }

    /// The text and exit status for an error `parse` threw: help is a success
    /// on stdout; anything else is a usage error (2) on stderr.
    public static func report(_ error: Error) -> (text: String, status: Int32, isError: Bool) {
        let text = Arguments.fullMessage(for: error)
        let succeeded = Arguments.exitCode(for: error) == .success
        return (text, succeeded ? 0 : 2, !succeeded)
    }
}
