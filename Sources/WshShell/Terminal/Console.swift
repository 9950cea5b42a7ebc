import WshText
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    public var result: (String) -> Void { { [unowned self] in writeResult(outgoing($0)) } }
    /// Writes notes, progress, traces and errors.
    public var diagnostic: (String) -> Void { { [unowned self] in writeDiagnostic(outgoing($0)) } }
    /// Styling for results (off unless stdout is a terminal without NO_COLOR).
    public let style: Style
    /// Styling for diagnostics (off unless stderr is a terminal without NO_COLOR).
    public let diagnosticStyle: Style
    /// Columns available to one line of a list.
    public let columns: () -> Int
    /// The secrets to mask in everything written; the shell points it at its connection's.
    public var secrets: () -> [String] = { [] }

    private let writeResult: (String) -> Void
    private let writeDiagnostic: (String) -> Void

    public init(result: @escaping (String) -> Void, diagnostic: @escaping (String) -> Void,
                style: Style = .plain, diagnosticStyle: Style = .plain, columns: @escaping () -> Int = { 100 }) {
        self.writeResult = result
        self.writeDiagnostic = diagnostic
        self.style = style
        self.diagnosticStyle = diagnosticStyle
        self.columns = columns
    }

    /// `text` as it may leave the process.
    func outgoing(_ text: String) -> String {
        Redaction.redact(TerminalText.sanitize(text, .output), secrets: secrets())
    }

    /// The process's stdout and stderr; colour as the terminal and `NO_COLOR` allow.
    public static func standard(colorAllowed: Bool) -> Console {
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        let allowed = colorAllowed && !noColor
        return Console(
            result: { write(STDOUT_FILENO, $0) },
            diagnostic: { write(STDERR_FILENO, $0) },
            style: Style(enabled: allowed && isatty(STDOUT_FILENO) != 0),
            diagnosticStyle: Style(enabled: allowed && isatty(STDERR_FILENO) != 0),
            columns: terminalColumns)
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

    /// Writes all of `text`, retrying short writes and EINTR.
    static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
