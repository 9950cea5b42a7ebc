import Foundation
import Testing
import WshRequest
import WshTestSupport

@Suite("CurlHTTPClient messages for what curl words badly", .serialized)
struct TransportMessageTests {
    @Test("given a response header past libcurl's limit, one 1 MiB line or a thousand lines, then the error says the header was too large",
          arguments: ["raw/hugeheader", "raw/manyheaders"])
    func oversizeHeader(_ path: String) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        do {
            _ = try await CurlHTTPClient().send(HTTPRequest(url: server.baseURL + path))
            Issue.record("expected a failure")
        } catch {
            guard case .transport(let transport) = error else { Issue.record("\(error)"); return }
            #expect(transport.kind == .headerTooLarge)
            #expect(error.description.hasPrefix("response header too large: "), "\(error)")
            #expect(error.description.contains(server.baseURL + path))
            #expect(!error.description.localizedCaseInsensitiveContains("out of memory"), "\(error)")
            #expect(!error.description.contains("connection dropped"), "\(error)")
        }
    }

    @Test("given a body past the client's limit, then the error gives the limit, not curl's write failure")
    func oversizeBody() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        do {
            _ = try await CurlHTTPClient(options: .init(maxBodyBytes: 10)).send(HTTPRequest(url: server.baseURL + "raw/notjson"))
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.hasPrefix("response too large: the body passed the limit of 10 bytes"), "\(error)")
        }
    }

    @Test("given https:// to a plain http server, then the error says the server did not answer in TLS")
    func httpsToPlainServer() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        do {
            _ = try await CurlHTTPClient().send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/2/raw/notjson"))
            Issue.record("expected a failure")
        } catch {
            guard case .transport(let transport) = error else { Issue.record("\(error)"); return }
            #expect(transport.kind == .tls)
            #expect(error.description.contains("the server did not answer in TLS; is it an http:// server?"), "\(error)")
        }
    }
}
