#if canImport(Glibc)
import Glibc
#endif

/// Writing whole texts to the process's stdout and stderr (`write(2)`,
/// unbuffered, short writes and interruptions retried).
public enum StandardStreams {
    public static func writeOutput(_ text: String) { write(text, to: 1) }
    public static func writeError(_ text: String) { write(text, to: 2) }

    /// Writes `text` to `descriptor`; false when it could not all be written (a closed pipe, a full disk).
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) == nil }
    }

    /// Writes all of `bytes` to `descriptor` (a file, a pipe); the `errno` of
    /// the write that failed (`ENOSPC`: a full disk), nil when all was written.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
