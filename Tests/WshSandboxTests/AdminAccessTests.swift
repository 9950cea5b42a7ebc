import Foundation
import Testing
@testable import WshSandbox
import WshTestSupport

/// Who may use `/admin/`: loopback peers as always, other machines only with
/// the admin token.
@Suite("Admin access")
struct AdminAccessTests {
    @Test("loopback is 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost; 0.0.0.0, ::, LAN addresses and names are not")
    func loopbackAddresses() {
        for host in ["127.0.0.1", "127.8.9.10", "127.255.255.255", "::1", "[::1]", "0:0:0:0:0:0:0:1",
                     "::ffff:127.0.0.1", "localhost", "LocalHost", "localhost."] {
            #expect(LoopbackAddress.contains(host), "\(host) is loopback")
            #expect(!SandboxConfiguration(host: host).listensBeyondLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "::", "[::]", "192.0.2.1", "10.1.2.3", "128.0.0.1", "126.255.255.255",
                     "::ffff:10.0.0.1", "::2", "fe80::1", "example.com", "localhost.example.com", "127.0.0.1.nip.io", ""] {
            #expect(!LoopbackAddress.contains(host), "\(host) is not loopback")
            #expect(SandboxConfiguration(host: host).listensBeyondLoopback, "\(host)")
        }
    }

    @Test("a loopback peer needs no token; another needs the admin token as a Bearer token, and nothing else will do")
    func permits() {
        let access = AdminAccess(token: "s3cret-Admin_token")
        #expect(access.permits(peer: "127.0.0.1", authorization: nil))
        #expect(access.permits(peer: "::1", authorization: "Bearer wrong"))
        #expect(access.permits(peer: "192.0.2.7", authorization: "Bearer s3cret-Admin_token"))
        #expect(access.permits(peer: "192.0.2.7", authorization: "bearer s3cret-Admin_token"))
        for authorization in [nil, "", "Bearer", "Bearer ", "Bearer wrong", "Bearer s3cret-Admin_toke",
                              "Bearer s3cret-Admin_tokenX", "Bearer S3CRET-ADMIN_TOKEN", "s3cret-Admin_token",
                              "Basic s3cret-Admin_token", "OAuth2 s3cret-Admin_token"] as [String?] {
            #expect(!access.permits(peer: "192.0.2.7", authorization: authorization), "\(authorization ?? "nil")")
        }
        // A peer whose address is unknown is not taken for loopback.
        #expect(!access.permits(peer: nil, authorization: nil))
        #expect(access.permits(peer: nil, authorization: "Bearer s3cret-Admin_token"))
        // Without an admin token, no peer beyond loopback gets in, whatever it sends.
        #expect(!AdminAccess(token: nil).permits(peer: "192.0.2.7", authorization: "Bearer "))
        #expect(!AdminAccess(token: nil).permits(peer: "192.0.2.7", authorization: "Bearer anything"))
    }

    @Test("a generated admin token is 32 URL- and header-safe characters, new each time")
    func generatedToken() {
        let tokens = (0..<20).map { _ in AdminAccess.generatedToken() }
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(token)")
            #expect(SandboxConfiguration.adminTokenProblem(token) == nil)
        }
        #expect(Set(tokens).count == tokens.count)
    }

    @Test("an admin token must be visible ASCII without spaces; a bad one stops the server before it binds")
    func badAdminToken_rejected() async {
        for token in ["", "two words", "tab\there", "tökén"] {
            #expect(SandboxConfiguration.adminTokenProblem(token) != nil, "\(token)")
            await #expect(throws: SandboxStartError.self) {
                _ = try await SandboxServer.start(SandboxConfiguration(adminToken: token))
            }
        }
    }

    @Test("on loopback, /admin/ answers a loopback client without a token, as before, even with an admin token set")
    func loopbackClient_needsNoToken() async throws {
        try await withSandbox(SandboxConfiguration(adminToken: "s3cret-Admin_token")) { server in
            #expect(server.adminToken == "s3cret-Admin_token")
            let accounts = await server.admin("GET", "accounts")
            #expect(accounts.status == 200)
            #expect(accounts.text.contains(server.token))
            #expect(await server.admin("POST", "faults", body: "{\"latency_ms\":1}").status == 200)
        }
        try await withSandbox { server in
            #expect(server.adminToken == nil, "no token is made for a loopback sandbox")
            #expect(await server.admin("GET", "stats").status == 200)
        }
    }
}
