import CEditLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines read one at a time from a stream, as they arrive: batch stdin, or
/// a terminal without line editing when libedit cannot be loaded.
///
/// Reading as lines arrive (not all input first) lets a program drive wsh
/// through a pipe and see each answer before it sends the next command.
public final class StreamLineSource: LineSource {
    public let name: String
    public let isInteractive: Bool
    private let stream: UnsafeMutablePointer<FILE>
    private var linesRead = 0

    /// Reads `stream` (stdin by default) under `name`; an interactive source
    /// shows the prompt on stderr.
    public init(name: String = "<stdin>", stream: UnsafeMutablePointer<FILE> = wsh_stdin(), isInteractive: Bool = false) {
        self.name = name
        self.stream = stream
        self.isInteractive = isInteractive
    }

    public func readLine(prompt: String) -> LineRead {
        if isInteractive {
            fputs(prompt, wsh_stderr())
            fflush(wsh_stderr())
        }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, stream)
        if count < 0 {
            // A signal can interrupt the read; the loop decides what it means.
            if errno == EINTR && ferror(stream) != 0 {
                clearerr(stream)
                return .interrupted
            }
            // Ctrl-D on a terminal ends this read, not the terminal: the next read waits again.
            if isInteractive { clearerr(stream) }
            return .end
        }
        guard let buffer else { return .end }
        linesRead += 1
        var bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)[...]
        if linesRead == 1 && bytes.starts(with: TextEncoding.byteOrderMark) {
            bytes = bytes.dropFirst(TextEncoding.byteOrderMark.count)
        }
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard let line = String(validating: bytes, as: UTF8.self) else { return .invalidText(line: linesRead) }
        return .line(line)
    }
}
