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
    /// `--dialect weibo|mastodon`; nil means found out from `--api`.
    public var dialect: String?
    /// `--token-file PATH`.
    public var tokenFile: String?
    /// `--token-command CMD`.
    public var tokenCommand: String?
    /// `--cacert FILE`: a PEM file of CA certificates to trust for https, checked readable.
    public var cacert: String?
    /// `--record FILE`: every HTTP exchange appended, secrets masked, to a HAR 1.2 file.
    public var record: String?
    /// `--replay FILE`: every request answered from a HAR file, with no network.
    public var replay: String?
    /// `--archive FILE`: the local archive (`archive`, `sql`, offline answers); nil is the default file.
    public var archive: String?
    /// `--offline`: timelines answer from the archive, sending nothing.
    public var offline = false
    /// `--json`.
    public var json = false
    /// `--no-color`.
    public var noColor = false
    /// `-c COMMANDS`.
    public var command: String?
    /// `--present LESSON`: a lesson shown command by command on a terminal, run as a script otherwise.
    public var present: String?
    /// `--timeout SECONDS`.
    public var timeout: Double = Options.defaultTimeout
    /// `--version`.
    public var version = false
    /// A script and its arguments, or `-c`'s arguments; with `--test`, the paths.
    public var script: [String] = []
    /// `-x`, `--echo`: print each command on stderr before it runs.
    public var echo = false
    /// `--keep-going`: a script goes on with the next command after a failing one.
    public var keepGoing = false
    /// `--test`: run each `.wsh` file under the paths as a test case.
    public var test = false
    /// `--jobs N` (with `--test`): how many test files run at once.
    public var jobs = 1
    /// `--report-junit FILE` (with `--test`).
    public var reportJUnit: String?
    /// `--report-tap FILE` (with `--test`).
    public var reportTAP: String?
    /// `--web [PORT]`: serve the classroom page from the start; 0 picks a free port. Nil: not served.
    public var web: Int?
    /// `--web-host ADDR`: where the classroom page listens; nil is loopback.
    public var webHost: String?
    /// `--sandbox-flavour NAME`: the server the embedded sandbox's Mastodon side imitates; nil is Mastodon.
    public var sandboxFlavour: String?

    public static let defaultTimeout: Double = 30
    /// A day: longer is a mistake, and would overflow the milliseconds.
    public static let maximumTimeout: Double = 86_400

    /// The dialects `--dialect` takes.
    static let dialects = ["weibo", "mastodon"]

    /// The flavours `--sandbox-flavour` takes: `SandboxFlavour.all`'s names
    /// (this target does not link the sandbox; wsh's main maps the name).
    public static let sandboxFlavours = ["mastodon", "gotosocial", "pleroma", "akkoma", "sharkey"]

    /// Whether `url` may be an `--api` base: http or https only.
    static func isAPIBase(_ url: String) -> Bool {
        url.hasPrefix("http://") || url.hasPrefix("https://")
    }

    /// Whether `seconds` is a usable `--timeout`.
    static func isTimeout(_ seconds: Double) -> Bool {
        seconds > 0 && seconds <= maximumTimeout
    }

    /// Parses `arguments` (without the program name).
    ///
    /// Throws argument-parser's errors, help and `--version` requests
    /// included: `Options.report(_:)` turns them into text and a status.
    public static func parse(_ arguments: [String]) throws -> Options {
        if let options = QuickParse.options(arguments) { return options }
        return try Arguments.parse(webPortSpelledOut(arguments)).options
    }

    /// `--web PORT` and `--web=PORT` as `--web --web-port PORT`: argument-parser
    /// has no option whose value may be left out. A word after `--web` is its
    /// port only when it is a number; anything else is left as it was.
    static func webPortSpelledOut(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            // The script's own arguments and -c's text are not wsh's options.
            if !word.hasPrefix("-") || word == "--" {
                result += arguments[index...]
                break
            }
            if word == "-c" || Self.valuedOptions.contains(word) {
                result.append(word)
                if index + 1 < arguments.endIndex { result.append(arguments[index + 1]) }
                index += 2
                continue
            }
            if word.hasPrefix("--web=") {
                result += ["--web", "--web-port", String(word.dropFirst("--web=".count))]
            } else if word == "--web", index + 1 < arguments.endIndex, !arguments[index + 1].isEmpty,
                      arguments[index + 1].allSatisfy(\.isNumber) {
                result += ["--web", "--web-port", arguments[index + 1]]
                index += 1
            } else {
                result.append(word)
            }
            index += 1
        }
        return result
    }

    /// The options that take a value as the next word.
    static let valuedOptions = ["--api", "--dialect", "--token-file", "--token-command", "--cacert", "--record", "--replay", "--archive",
                                "--timeout", "--present", "--jobs", "--report-junit", "--report-tap", "--web-port", "--web-host",
                                "--sandbox-flavour"]

    /// What to print for an error `parse` threw, and the exit status.
    public struct Report: Sendable {
        public var text: String
        /// 0 for help (printed on stdout), 2 for a usage error (on stderr).
        public var status: Int32
        public var isError: Bool { status != 0 }
    }

    /// The report for an error `parse` threw: help is a success; anything
    /// else is a usage error.
    public static func report(_ error: Error) -> Report {
        Report(text: Arguments.fullMessage(for: error), status: Arguments.exitCode(for: error) == .success ? 0 : 2)
    }
}
