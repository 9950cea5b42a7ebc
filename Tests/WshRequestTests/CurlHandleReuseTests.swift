import Foundation
import Testing
import WshRequest
import WshSandbox
import WshTestSupport

/// One curl handle carries every request of a client: nothing of one request
/// may leak into the next.
@Suite("CurlHTTPClient handle reuse")
struct CurlHandleReuseTests {
    @Test("a GET after a POST on the same handle is a GET without the POST's body; the next POST sends its own body")
    func getAfterPost() async throws {
        let server = try await SandboxServer.start(SandboxConfiguration(statuses: 20))
        let client = CurlHTTPClient(secrets: [server.token])
        func request(_ method: HTTPMethod, _ path: String, body: String? = nil) -> HTTPRequest {
            HTTPRequest(method: method, url: server.baseURL + path,
                        headers: [HTTPHeader("Authorization", "OAuth2 \(server.token)"),
                                  HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                        body: body.map { Data($0.utf8) })
        }
        do {
            let first = try await client.send(request(.post, "statuses/update.json", body: "status=first-post"))
            #expect(first.status == 200)
            #expect(String(decoding: first.body, as: UTF8.self).contains("first-post"))

            // Were the handle still in POST mode, this would post again (and with a stale body).
            let get = try await client.send(request(.get, "statuses/update.json"))
            #expect(get.status != 200)
            #expect(server.stats.posts == 1)
            let timeline = try await client.send(request(.get, "statuses/public_timeline.json?count=2"))
            #expect(timeline.status == 200)

            let second = try await client.send(request(.post, "statuses/update.json", body: "status=second-post"))
            #expect(second.status == 200)
            #expect(String(decoding: second.body, as: UTF8.self).contains("second-post"))
            #expect(server.stats.posts == 2)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
