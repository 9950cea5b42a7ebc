import Foundation
import Testing
import WshRequest
import WshTestSupport

@Suite("CurlHTTPClient and private CAs", .serialized)
struct CertificateTrustTests {
    static let advice = "pass --cacert FILE to trust a private CA"

    /// The failure of one GET, or nil when it succeeded.
    private func failure(_ url: String, trusting authorities: CertificateAuthorities) async -> RequestError? {
        do {
            _ = try await CurlHTTPClient(options: .init(authorities: authorities)).send(HTTPRequest(url: url))
            return nil
        } catch {
            return error
        }
    }

    @Test("given a server a private CA signed, then the system's CAs refuse it in one line that names the host and the way out")
    func refusedByDefault() async throws {
        let server = try TLSTestServer()
        defer { server.stop() }
        let error = try #require(await failure(server.baseURL + "2/statuses/public_timeline.json?count=5",
                                               trusting: CertificateAuthorities(advice: Self.advice)))
        guard case .transport(let transport) = error else { Issue.record("\(error)"); return }
        #expect(transport.kind == .untrusted)
        let text = error.description
        #expect(text.hasPrefix("https://127.0.0.1:\(server.port)/: the server's certificate is not trusted by the system's CAs"), "\(text)")
        #expect(text.hasSuffix("; " + Self.advice), "\(text)")
        #expect(!text.contains("\n"))
        // Where the server is, not what was asked of it.
        #expect(!text.contains("count=5"), "\(text)")
    }

    @Test("given the CA's bundle, then the same server answers")
    func trustedWithBundle() async throws {
        let server = try TLSTestServer()
        defer { server.stop() }
        try server.answer("2/ping.json", body: #"{"ok":true}"#)
        let client = CurlHTTPClient(options: .init(authorities: CertificateAuthorities(bundle: server.caFile, origin: "test")))
        let response = try await client.send(HTTPRequest(url: server.baseURL + "2/ping.json"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
    }

    @Test("given another CA's bundle, then the server stays refused, and the error names the bundle and who chose it")
    func refusedByAnotherBundle() async throws {
        let server = try TLSTestServer()
        defer { server.stop() }
        let error = try #require(await failure(
            server.baseURL, trusting: CertificateAuthorities(bundle: server.otherCAFile, origin: "--cacert", advice: Self.advice)))
        #expect(error.description.contains("is not trusted by the CAs in \(server.otherCAFile) (--cacert)"), "\(error)")
        #expect(error.description.hasSuffix(Self.advice))
    }

    @Test("given a bundle that cannot be read, then no request is trusted and the error names the file and its origin")
    func unreadableBundle() async throws {
        let server = try TLSTestServer()
        defer { server.stop() }
        let missing = WshProcess.temporaryDirectory() + "/missing.pem"
        let error = try #require(await failure(server.baseURL, trusting: CertificateAuthorities(bundle: missing, origin: "$CURL_CA_BUNDLE")))
        guard case .transport(let transport) = error else { Issue.record("\(error)"); return }
        #expect(transport.kind == .tls)
        #expect(error.description.hasPrefix("https://127.0.0.1:\(server.port)/: cannot use the CAs in \(missing) ($CURL_CA_BUNDLE)"),
                "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test("the environment, in curl's order: $CURL_CA_BUNDLE, then $SSL_CERT_FILE, else the system's; empty is unset",
          arguments: [
            (["CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem"], CertificateAuthorities(bundle: "/a.pem", origin: "$CURL_CA_BUNDLE")),
            (["SSL_CERT_FILE": "/b.pem"], CertificateAuthorities(bundle: "/b.pem", origin: "$SSL_CERT_FILE")),
            (["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": "/b.pem"], CertificateAuthorities(bundle: "/b.pem", origin: "$SSL_CERT_FILE")),
            (["CURL_CA_BUNDLE": ""], CertificateAuthorities.system),
            ([:], CertificateAuthorities.system),
          ])
    func environmentOrder(_ environment: [String: String], _ expected: CertificateAuthorities) {
        #expect(CertificateAuthorities.fromEnvironment { environment[$0] } == expected)
    }
}
