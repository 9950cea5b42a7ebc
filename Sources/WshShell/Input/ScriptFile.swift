#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a script's bytes with plain `open`/`read` to end of file, so a FIFO,
/// `/dev/stdin` or a process substitution (`wsh <(…)`) reads as a file does.
enum ScriptFile {
    /// A script could not be read.
    struct ReadFailure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    }

    /// The bytes of the file at `path`, without a leading UTF-8 byte-order mark.
    static func contents(atPath path: String) throws(ReadFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadFailure(path: path, code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR && !Interrupts.pending { continue }
                throw ReadFailure(path: path, code: errno)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return TextEncoding.droppingByteOrderMark(bytes)
    }
}
