import Foundation
import Testing
import WshSandbox

@Suite("Mastodon instance, rate-limit headers, faults and unknown paths")
struct MastodonLimitsTests {
    @Test("instance names the version and max_characters; the base URL is the server root")
    func instance() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            #expect(server.mastodonBaseURL == "http://127.0.0.1:\(server.port)/")
            let v1 = try #require(await server.mastodon("instance").json)
            #expect(v1["version"] as? String == "4.3.0")
            #expect(v1["uri"] as? String == "127.0.0.1:\(server.port)")
            #expect(v1["title"] is String)
            let statuses = (v1["configuration"] as? [String: Any])?["statuses"] as? [String: Any]
            #expect(statuses?["max_characters"] as? Int == 500)
            let v2 = try #require(await server.mastodon("v2/instance").json)
            #expect(v2["domain"] as? String == "127.0.0.1:\(server.port)")
            let unknown = await server.mastodon("nothing/here")
            #expect(unknown.status == 404)
            #expect(unknown.mastodonError == "Record not found")
        }
    }

    @Test("every authenticated answer has Mastodon's X-RateLimit headers: 300 per token in each 5 minutes")
    func rateLimitWindow() async throws {
        let clock = SandboxClock.manual()   // 13:30:00 UTC
        try await withSandbox(SandboxConfiguration(statuses: 10, clock: clock)) { server in
            let first = await server.mastodon("timelines/home", token: server.token)
            #expect(first.headers["x-ratelimit-limit"] == "300")
            #expect(first.headers["x-ratelimit-remaining"] == "299")
            #expect(first.headers["x-ratelimit-reset"] == "2024-11-11T13:35:00.000Z")
            #expect(await server.mastodon("timelines/home", token: server.token).headers["x-ratelimit-remaining"] == "298")
            // Weibo's calls are counted in Weibo's hour, not in Mastodon's window.
            #expect(await server.get("statuses/home_timeline.json").status == 200)
            clock.advance(by: 299)
            let late = await server.mastodon("timelines/home", token: server.token)
            #expect(late.headers["x-ratelimit-remaining"] == "297")
            #expect(late.headers["x-ratelimit-reset"] == "2024-11-11T13:35:00.000Z")
            clock.advance(by: 1)   // 13:35:00: a new window
            let next = await server.mastodon("timelines/home", token: server.token)
            #expect(next.headers["x-ratelimit-remaining"] == "299")
            #expect(next.headers["x-ratelimit-reset"] == "2024-11-11T13:40:00.000Z")
            // Weibo keeps its hour.
            let weibo = try #require(await server.get("account/rate_limit_status.json").json)
            #expect(weibo["user_limit"] as? Int == 150)
            #expect(weibo["reset_time_in_seconds"] as? Int == 25 * 60)
        }
    }

    @Test("past --rate-limit in the window 429 with the headers; the next window admits again; anonymous is not counted")
    func rateLimit() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(statuses: 10, rateLimit: 2, clock: clock)) { server in
            let first = await server.mastodon("timelines/home", token: server.token)
            #expect(first.headers["x-ratelimit-limit"] == "2")
            #expect(first.headers["x-ratelimit-remaining"] == "1")
            #expect(await server.mastodon("timelines/home", token: server.token).status == 200)
            let refused = await server.mastodon("timelines/home", token: server.token)
            #expect(refused.status == 429)
            #expect(refused.mastodonError == "Too many requests")
            #expect(refused.headers["x-ratelimit-remaining"] == "0")
            // Anonymous calls are not counted and carry no headers.
            let anonymous = await server.mastodon("timelines/public?limit=1")
            #expect(anonymous.status == 200)
            #expect(anonymous.headers["x-ratelimit-limit"] == nil)
            #expect(await server.mastodon("timelines/home", token: server.second.token).status == 200)
            clock.advance(by: 300)
            #expect(await server.mastodon("timelines/home", token: server.token).status == 200)
        }
    }

    @Test("faults apply to /api/ with Mastodon bodies: 500, the rate-limit fault as 429, drop")
    func faults() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 10)) { server in
            server.setFaults(SandboxFaults(failStatus: 500, failRate: 1))
            let failed = await server.mastodon("timelines/public")
            #expect(failed.status == 500)
            #expect(failed.mastodonError == "Internal Server Error")
            server.setFaults(SandboxFaults(failStatus: 503, failRate: 1))
            #expect(await server.mastodon("timelines/public").headers["content-type"] == "text/html")
            server.setFaults(SandboxFaults(rateLimit: 1))
            #expect(await server.mastodon("timelines/public").status == 200)
            let limited = await server.mastodon("timelines/public")
            #expect(limited.status == 429)
            #expect(limited.mastodonError == "Too many requests")
            server.setFaults(SandboxFaults(drop: true, path: "api/v1/timelines/public"))
            #expect(await server.mastodon("timelines/public").failure == .closedWithoutResponse)
            #expect(await server.mastodon("instance").status == 200)
            // OAuth is never faulted.
            server.setFaults(SandboxFaults(failStatus: 500, failRate: 1))
            #expect(await server.mastodonOAuth("POST", "token", form: "grant_type=client_credentials&client_id=\(SandboxConfiguration.defaultAppKey)&client_secret=\(SandboxConfiguration.defaultAppSecret)").status == 200)
            server.reset()
            #expect(server.stats.requests == 0)
        }
    }
}
