import Foundation
import Synchronization
import Testing
import WshRequest
import WshSandbox
import WshTestSupport

@Suite("The sandbox's streaming API (server-sent events)")
struct MastodonStreamingTests {
    /// What a stream sent, collected as it arrives.
    final class Received: Sendable {
        let text = Mutex("")
        var value: String { text.withLock { $0 } }
    }

    /// Opens `path` on the sandbox as `token` in a task of its own; returns what it received and the task.
    func open(_ server: SandboxServer, _ path: String, token: String?) -> (Received, Task<HTTPResponse?, Never>) {
        let received = Received()
        let client = CurlHTTPClient()
        let task = Task { () -> HTTPResponse? in
            var headers: [HTTPHeader] = []
            if let token { headers.append(HTTPHeader("Authorization", "Bearer " + token)) }
            return try? await client.stream(HTTPRequest(url: server.mastodonBaseURL + "api/v1/streaming/" + path, headers: headers)) { chunk in
                received.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                return true
            }
        }
        return (received, task)
    }

    @Test("health answers OK; an unknown stream is 400; the user stream needs a token")
    func health() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let health = await server.mastodon("streaming/health")
            #expect(health.status == 200)
            #expect(String(decoding: health.body, as: UTF8.self) == "OK")
            #expect(await server.mastodon("streaming/nonsense", token: server.accounts[0].token).status == 400)
            #expect(await server.mastodon("streaming/user").status == 401)
            let instance = await server.mastodon("instance")
            #expect((instance.json?["urls"] as? [String: Any])?["streaming_api"] as? String
                    == "ws://" + server.mastodonBaseURL.dropFirst("http://".count).dropLast())
        }
    }

    @Test("public and user streams open with :) and send each status posted after they opened as event: update")
    func updates() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let me = server.accounts[0]
            let (publicStream, publicTask) = open(server, "public", token: nil)
            let (userStream, userTask) = open(server, "user", token: me.token)
            let (tagStream, tagTask) = open(server, "hashtag?tag=wshstream", token: nil)
            #expect(await waitUntil { publicStream.value.hasPrefix(":)") && userStream.value.hasPrefix(":)") && tagStream.value.hasPrefix(":)") })
            #expect(!publicStream.value.contains("event: update"))

            let posted = await server.mastodon("POST", "statuses", token: me.token, form: "status=" + formEncoded("streamed #wshstream"))
            let id = try #require(posted.json?["id"] as? String)
            #expect(await waitUntil { publicStream.value.contains("\"id\":\"\(id)\"") })
            #expect(await waitUntil { userStream.value.contains("\"id\":\"\(id)\"") })
            #expect(await waitUntil { tagStream.value.contains("\"id\":\"\(id)\"") })
            #expect(publicStream.value.contains("event: update\ndata: {"))
            // A direct status is in no public stream.
            let direct = await server.mastodon("POST", "statuses", token: me.token, form: "visibility=direct&status=shh")
            let directID = try #require(direct.json?["id"] as? String)
            let other = await server.mastodon("POST", "statuses", token: me.token, form: "status=after")
            let otherID = try #require(other.json?["id"] as? String)
            #expect(await waitUntil { publicStream.value.contains("\"id\":\"\(otherID)\"") })
            #expect(!publicStream.value.contains("\"id\":\"\(directID)\""))

            // Another account's favourite reaches the user stream as a notification.
            _ = await server.mastodon("POST", "statuses/\(id)/favourite", token: server.second.token)
            #expect(await waitUntil { userStream.value.contains("event: notification") })
            for task in [publicTask, userTask, tagTask] { task.cancel(); _ = await task.value }
        }
    }
}
