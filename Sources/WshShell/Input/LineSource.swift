/// What one read from a line source gave.
public enum LineRead: Equatable, Sendable {
    /// One line, without its newline.
    case line(String)
    /// The input is over (end of file, Ctrl-D at an empty prompt).
    case end
    /// Ctrl-C at the prompt: the line being typed is dropped.
    case interrupted
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

/// Lines from text held in memory: `-c 'CMDS'`, a script file, `source FILE`.
public final class TextLineSource: LineSource {
    public let name: String
    public var isInteractive: Bool { false }
    private var lines: [Substring]
    private var next = 0

    /// Lines of `text` under `name`.
    public init(name: String, text: String) {
        self.name = name
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // A final newline ends the last line; it does not start an empty one.
        if lines.last?.isEmpty == true { lines.removeLast() }
    }

    /// Lines of a file's bytes; invalid UTF-8 becomes U+FFFD rather than failing.
    public convenience init(name: String, bytes: [UInt8]) {
        self.init(name: name, text: String(decoding: bytes, as: UTF8.self))
    }

    public func readLine(prompt: String) -> LineRead {
        guard next < lines.count else { return .end }
        defer { next += 1 }
        var line = lines[next]
        if line.last == "\r" { line.removeLast() }
        return .line(String(line))
    }
}
