import WshText
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the shell writes: results to one stream (stdout), notes, traces and
/// errors to the other (stderr), so piped stdout holds only results.
///
/// Both streams are the process's boundary, so both pass the same two
/// filters on the way out, whatever wrote the text: secrets are masked
/// (`Redaction`, with the secrets `secrets` gives), and nothing that drives
/// a terminal gets through but the colours the shell's own Views write
/// (`TerminalText.sanitize(_, .output)`). Views still sanitize server text
/// themselves (through their ViewModels): this is the net under them.
public final class Console {
    /// Writes results.
    public var result: (String) -> Void { { [unowned self] in write(outgoing($0), isError: false) } }
    /// Writes notes, progress, traces and errors.
    public var diagnostic: (String) -> Void { { [unowned self] in write(outgoing($0), isError: true) } }
    /// Hears everything written, as it left the process (masked and
    /// sanitized), and whether it went to stderr: the web page's copy of the
    /// terminal. Nil unless a page is served.
    public var tee: ((String, Bool) -> Void)?
    /// Styling for results (off unless stdout is a terminal without NO_COLOR).
    public let style: Style
    /// Styling for diagnostics (off unless stderr is a terminal without NO_COLOR).
    public let diagnosticStyle: Style
    /// Columns available to one line of a list.
    public let columns: () -> Int
    /// True when diagnostics go to a terminal (progress lines are drawn only there).
    public var diagnosticIsTerminal = false
    /// The secrets to mask in everything written; the shell points it at its connection's.
    public var secrets: () -> [String] = { [] }

    private let writeResult: (String) -> Void
    private let writeDiagnostic: (String) -> Void
    /// The first failed write of results not yet taken (see `takeResultWriteFailure()`).
    private let resultWriteFailure = Mutex<WriteFailure?>(nil)

    public init(result: @escaping (String) -> Void, diagnostic: @escaping (String) -> Void,
                style: Style = .plain, diagnosticStyle: Style = .plain, columns: @escaping () -> Int = { 100 }) {
        self.writeResult = result
        self.writeDiagnostic = diagnostic
        self.style = style
        self.diagnosticStyle = diagnosticStyle
        self.columns = columns
    }

    private func write(_ text: String, isError: Bool) {
        if isError { writeDiagnostic(text) } else { writeResult(text) }
        tee?(text, isError)
    }

    /// `text` as it may leave the process.
    func outgoing(_ text: String) -> String {
        Redaction.redact(TerminalText.sanitize(text, .output), secrets: secrets())
    }

    /// The process's stdout and stderr; colour as the terminal and `NO_COLOR` allow.
    public static func standard(colorAllowed: Bool) -> Console {
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        let allowed = colorAllowed && !noColor
        // The result closure needs the console it belongs to, made just after it.
        weak var made: Console?
        let console = Console(
            result: { text in
                if let failure = write(STDOUT_FILENO, text) { made?.recordResultWriteFailure(failure) }
            },
            diagnostic: { write(STDERR_FILENO, $0) },
            style: Style(enabled: allowed && isatty(STDOUT_FILENO) != 0),
            diagnosticStyle: Style(enabled: allowed && isatty(STDERR_FILENO) != 0),
            columns: terminalColumns)
        made = console
        console.diagnosticIsTerminal = isatty(STDERR_FILENO) != 0
        return console
    }

    /// A write of results that failed: stdout is full, closed or gone.
    public struct WriteFailure: Error, Equatable, CustomStringConvertible {
        /// The `errno` of the failed write.
        public let code: Int32

        public init(code: Int32) { self.code = code }

        /// The reader went away (EPIPE), as when piped to `head`: a quiet end, not an error.
        public var isBrokenPipe: Bool { code == EPIPE }
        /// The status a broken pipe ends the run with, as a shell killed by SIGPIPE would.
        public static let brokenPipeStatus: Int32 = 128 + SIGPIPE

        public var description: String { "cannot write output: \(String(cString: strerror(code)))" }
    }

    /// Remembers a failed write of results; only the first counts until it is taken.
    public func recordResultWriteFailure(_ failure: WriteFailure) {
        resultWriteFailure.withLock { if $0 == nil { $0 = failure } }
    }

    /// The first failed write of results since the last call, clearing it: the
    /// shell's loop turns it into a failed command.
    public func takeResultWriteFailure() -> WriteFailure? {
        resultWriteFailure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }

    /// Writes one line of results.
    public func line(_ text: String) { result(text + "\n") }

    /// Writes one line of notes.
    public func note(_ text: String) { diagnostic(text + "\n") }

    /// The terminal's width; `COLUMNS` or 100 when stdout is not a terminal.
    static func terminalColumns() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 20 { return columns }
        return 100
    }

    /// Writes all of `text`, retrying short writes and EINTR; the failure, if any.
    @discardableResult
    static func write(_ fd: Int32, _ text: String) -> WriteFailure? {
        var text = text
        return text.withUTF8 { buffer -> WriteFailure? in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return WriteFailure(code: errno)
                }
                offset += n
            }
            return nil
        }
    }
}
