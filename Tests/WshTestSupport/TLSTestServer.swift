import Foundation

/// An https server on 127.0.0.1 whose certificate a CA made for the test
/// signs: `openssl s_server -HTTP` over a folder of canned answers.
///
/// Nothing trusts the CA but a client given `caFile`, so the same server
/// shows both a refusal and a success. `s_server -HTTP` answers a GET of
/// `/PATH` with the file PATH under its folder, which must hold the whole
/// answer, status line and headers included (`answer(_:body:)` writes one);
/// it takes one connection at a time and closes each after its answer.
public final class TLSTestServer: @unchecked Sendable {
    /// The PEM file of the CA that signed the server's certificate.
    public let caFile: String
    /// The PEM file of a second CA, which signed nothing this server shows.
    public let otherCAFile: String
    /// The bound port.
    public let port: Int
    private let folder: String
    private let process: Process

    /// Makes the CAs and the server's certificate (for IP 127.0.0.1) in a new
    /// folder, starts `openssl s_server` on a free port and returns once it listens.
    public init() throws {
        folder = WshProcess.temporaryDirectory()
        caFile = folder + "/ca.pem"
        otherCAFile = folder + "/other-ca.pem"
        try Self.makeCA(name: "wsh test CA", key: folder + "/ca.key", certificate: caFile, in: folder)
        try Self.makeCA(name: "wsh unrelated CA", key: folder + "/other-ca.key", certificate: otherCAFile, in: folder)
        try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n".write(toFile: folder + "/server.ext", atomically: true, encoding: .utf8)
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], in: folder)
        try Self.openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                          "-days", "1", "-extfile", "server.ext", "-out", "server.pem"], in: folder)
        let root = folder + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)

        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.opensslPath)
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-HTTP",
                             "-cert", folder + "/server.pem", "-key", folder + "/server.key"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // s_server says `ACCEPT 127.0.0.1:PORT` once it listens.
        let reader = output.fileHandleForReading
        var seen = Data()
        var found: Int?
        while found == nil {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            seen += chunk
            // Only whole lines: the port may come in two reads.
            let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let line = lines.first(where: { $0.hasPrefix("ACCEPT 127.0.0.1:") }) {
                found = Int(line.dropFirst("ACCEPT 127.0.0.1:".count))
            }
        }
        guard let found else {
            process.terminate()
            throw TLSTestServerError(message: "openssl s_server did not start: \(String(decoding: seen, as: UTF8.self))")
        }
        port = found
        // Keep reading what it prints per connection, so a full pipe never stops it.
        Thread.detachNewThread { while !reader.availableData.isEmpty {} }
    }

    /// `https://127.0.0.1:PORT/`.
    public var baseURL: String { "https://127.0.0.1:\(port)/" }

    /// Makes GET `/path` answer 200 with `body` (and `headers`).
    public func answer(_ path: String, body: String, headers: [String] = ["Content-Type: application/json"]) throws {
        let file = folder + "/www/" + path
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let head = (["HTTP/1.0 200 OK"] + headers + ["Content-Length: \(body.utf8.count)"]).joined(separator: "\r\n")
        try (head + "\r\n\r\n" + body).write(toFile: file, atomically: true, encoding: .utf8)
    }

    public func stop() {
        guard process.isRunning else { return }
        // SIGKILL, not terminate(): a child spawned from a test's thread
        // inherits its blocked signals, SIGTERM included.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A self-signed CA certificate and its key.
    private static func makeCA(name: String, key: String, certificate: String, in folder: String) throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", key, "-out", certificate, "-subj", "/CN=\(name)", "-days", "1",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
                    in: folder)
    }

    private static var opensslPath: String {
        ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/openssl"
    }

    private static func openssl(_ arguments: [String], in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opensslPath)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TLSTestServerError(message: "openssl \(arguments.first ?? "") failed: \(text)")
        }
    }
}

/// Why the test server could not be set up.
public struct TLSTestServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
