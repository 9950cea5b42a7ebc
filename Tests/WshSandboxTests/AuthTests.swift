import Testing
import WshModel
@testable import WshSandbox

@Suite("Auth, like the real service")
struct AuthTests {
    @Test("a request without a token is 401 with error 21301")
    func missingToken_is401AuthFailed() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/public_timeline.json", useToken: false)
            #expect(result.status == 401)
            #expect(result.errorCode == 21301)
            #expect(result.json?["request"] as? String == "/2/statuses/public_timeline.json")
        }
    }

    @Test("a wrong token is 401 with error 21327 expired_token")
    func wrongToken_is401Expired() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/public_timeline.json", token: "not-the-token")
            #expect(result.status == 401)
            #expect(result.errorCode == 21327)
            #expect(result.json?["error"] as? String == "expired_token")
        }
    }

    @Test("the token is accepted as access_token or as an OAuth2 Authorization header")
    func queryAndHeader_bothAuthorize() async throws {
        try await withSandbox { server in
            #expect(await server.get("statuses/public_timeline.json").status == 200)
            let viaHeader = await TestHTTPConnection(port: server.port).send(
                "GET", "/2/statuses/public_timeline.json", headers: ["Authorization": "OAuth2 \(server.token)"])
            #expect(viaHeader.status == 200)
            let wrongHeader = await TestHTTPConnection(port: server.port).send(
                "GET", "/2/statuses/public_timeline.json", headers: ["Authorization": "OAuth2 nope"])
            #expect(wrongHeader.errorCode == 21327)
        }
    }

    @Test("a configured token replaces the default")
    func configuredToken_isTheOnlyOneAccepted() async throws {
        try await withSandbox(SandboxConfiguration(token: "s3cret")) { server in
            #expect(server.token == "s3cret")
            #expect(await server.get("statuses/public_timeline.json").status == 200)
            #expect(await server.get("statuses/public_timeline.json", token: "sandbox-token").status == 401)
        }
    }
}
