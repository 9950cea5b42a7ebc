#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check `--cacert FILE` passes before any request: a file that cannot
/// be read, a folder or a file with no PEM certificate is a usage error at
/// start-up, not a TLS failure on the first request.
enum CABundleFile {
    /// What is wrong with `path` as a CA bundle, or nil when it is a readable
    /// file holding at least one PEM certificate.
    static func problem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "cannot read '\(path)': \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return "'\(path)' is a folder, not a file of CA certificates"
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 { return "cannot read '\(path)': \(String(cString: strerror(errno)))" }
            if count == 0 { break }
            bytes += chunk[0..<count]
            // Enough to tell a PEM file; a bundle ends well before this.
            if bytes.count > 64 << 20 { break }
        }
        guard contains(bytes, Array("-----BEGIN ".utf8)), contains(bytes, Array("CERTIFICATE-----".utf8)) else {
            return "'\(path)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        }
        return nil
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
