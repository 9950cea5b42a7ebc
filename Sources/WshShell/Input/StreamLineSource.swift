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
/// through a pipe and see each answer before it sends the next command. While
/// the classroom page is served it waits on the page too (`wake`).
public final class StreamLineSource: WakeableLineSource {
    public let name: String
    public let isInteractive: Bool
    private let stream: UnsafeMutablePointer<FILE>
    private var linesRead = 0
    var wake: () -> Int32? = { nil }

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
        // Nothing read ahead in the stream's buffer: wait for the input or the page, whichever comes first.
        if let wakeEnd = wake(), !hasReadAhead {
            waiting: while true {
                switch WakeablePoll.wait(input: fileno(stream), wake: wakeEnd) {
                case .input: break waiting
                case .wake: return .wake
                case .interrupted:
                    if Interrupts.pending { return .interrupted }
                }
            }
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

    /// Whether the stream holds bytes it read ahead, which a poll of its descriptor would not see.
    private var hasReadAhead: Bool {
        #if canImport(Glibc)
        stream.pointee._IO_read_ptr != stream.pointee._IO_read_end
        #else
        true
        #endif
    }
}

/// Waiting for input or for the page's wake pipe, whichever is ready first.
enum WakeablePoll {
    enum Outcome {
        /// Read the input now (it is ready, or nothing else can end the wait).
        case input
        /// The wake pipe is readable and the input is not.
        case wake
        /// A signal came: the caller decides whether to wait again.
        case interrupted
    }

    /// Blocks until `input` or `wake` is readable; `.input` at once without a `wake`.
    static func wait(input: Int32, wake: Int32?) -> Outcome {
        guard let wake else { return .input }
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 2, -1) < 0 { return errno == EINTR ? .interrupted : .input }
        // Keys first: what was typed reaches libedit before the wake ends the line.
        if fds[0].revents != 0 { return .input }
        return fds[1].revents & Int16(POLLIN) != 0 ? .wake : .input
    }
}
