/// What one read from a line source gave.
public enum LineRead: Equatable, Sendable {
    /// One line, without its newline.
    case line(String)
    /// The input is over (end of file, Ctrl-D at an empty prompt).
    case end
    /// Ctrl-C at the prompt: the line being typed is dropped.
    case interrupted
    /// Line `line` of the input is not UTF-8 text: the loop refuses it as a
    /// syntax error (status 2) instead of running a guess at it.
    case invalidText(line: Int)
    /// The source stopped waiting for input because the classroom page asked
    /// the shell for something between commands (a replay): the loop does it
    /// and reads again (a line half typed at the prompt is dropped).
    case wake
}

/// Where the loop's lines come from: the prompt, a file, stdin, a `-c` string.
///
/// The shell has one loop for all of them (`Shell.run(source:)`); what differs
/// lives here. Only the prompt source is interactive.
public protocol LineSource: AnyObject {
    /// The name errors use: a file path, `-c`, `<stdin>`.
    var name: String { get }
    /// True for the prompt: errors do not end the session.
    var isInteractive: Bool { get }
    /// The next line; `prompt` is shown only by interactive sources.
    func readLine(prompt: String) -> LineRead
    /// Records a complete entry in the history, if the source keeps one.
    func remember(_ entry: String)
}

extension LineSource {
    public func remember(_ entry: String) {}
}

/// A source that waits for input (the prompt, a pipe) and can be woken from
/// the wait: it polls `wake`'s descriptor beside its input and, when that is
/// readable and the input is not, returns `.wake` (the loop drains it).
protocol WakeableLineSource: LineSource {
    /// The descriptor to poll beside the input; nil while nothing can wake the source.
    var wake: () -> Int32? { get set }
}

/// Lines from text held in memory: `-c 'CMDS'`, a script file, `source FILE`.
public final class TextLineSource: LineSource {
    public let name: String
    public var isInteractive: Bool { false }
    private var lines: [Substring]
    private var next = 0
    /// The first line that is not UTF-8: the whole input is refused before any of it runs.
    private var invalidLine: Int?

    /// Lines of `text` under `name`.
    public init(name: String, text: String) {
        self.name = name
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.invalidLine = nil
        // A final newline ends the last line; it does not start an empty one.
        if lines.last?.isEmpty == true { lines.removeLast() }
    }

    /// Lines of a file's or argument's bytes. Bytes that are not UTF-8 refuse
    /// the whole input: its first read reports the first such line.
    public convenience init(name: String, bytes: [UInt8]) {
        // ASCII, as most scripts and every `-c` of the benchmarks are, is UTF-8:
        // decoded without the general validation, which is not specialised and
        // looks its types up at run time (14 000 instructions of `wsh -c 'echo hi'`).
        if bytes.allSatisfy({ $0 < 0x80 }) {
            self.init(name: name, text: String(decoding: bytes, as: UTF8.self))
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self.init(name: name, text: text)
        } else {
            self.init(name: name, invalidLine: TextEncoding.firstInvalidLine(in: bytes))
        }
    }

    private init(name: String, invalidLine: Int) {
        self.name = name
        self.lines = []
        self.invalidLine = invalidLine
    }

    public func readLine(prompt: String) -> LineRead {
        if let invalidLine {
            // Said once: then the input ends, with nothing of it run (`--keep-going` too).
            self.invalidLine = nil
            return .invalidText(line: invalidLine)
        }
        guard next < lines.count else { return .end }
        defer { next += 1 }
        var line = lines[next]
        if line.last == "\r" { line.removeLast() }
        return .line(String(line))
    }
}

/// How wsh reads input bytes as text: UTF-8 only, a leading byte-order mark allowed.
enum TextEncoding {
    /// The UTF-8 byte-order mark some editors put at the start of a file.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a leading byte-order mark.
    static func droppingByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(byteOrderMark.count)) : bytes
    }

    /// The 1-based number of the first line of `bytes` that is not UTF-8 (1 if all are).
    static func firstInvalidLine(in bytes: [UInt8]) -> Int {
        var number = 1
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: line, as: UTF8.self) == nil { return number }
            number += 1
        }
        return 1
    }
}
