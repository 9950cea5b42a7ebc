import Foundation
import Testing
import WshSandbox

@Suite("Rate limits per token")
struct RateLimitTests {
    @Test("with rateLimit N, a token's call N+1 in the hour is 403 with 10023; other tokens are counted apart")
    func limit_perToken() async throws {
        try await withSandbox(SandboxConfiguration(rateLimit: 3, clock: .manual())) { server in
            for _ in 0..<3 { #expect(await server.get("statuses/public_timeline.json", "count=1").status == 200) }
            let refused = await server.get("statuses/public_timeline.json", "count=1")
            #expect(refused.status == 403)
            #expect(refused.errorCode == 10023)
            #expect(refused.json?["error"] as? String == "User requests out of rate limit!")
            #expect(await server.post("statuses/update.json", form: "status=x").errorCode == 10023)
            #expect(await server.get("statuses/public_timeline.json", "count=1", token: server.second.token).status == 200)
            // The status call does not count and still answers.
            let status = await server.get("account/rate_limit_status.json")
            #expect(status.status == 200)
            #expect(status.json?["remaining_user_hits"] as? Int == 0)
            #expect(status.json?["user_limit"] as? Int == 3)
        }
    }

    @Test("a new hour starts the counts afresh; reset clears them")
    func window_andReset() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(rateLimit: 1, clock: clock)) { server in
            #expect(await server.get("statuses/show.json", "id=4000000000000500").status == 200)
            #expect(await server.get("statuses/show.json", "id=4000000000000500").errorCode == 10023)
            clock.advance(by: 3600)
            #expect(await server.get("statuses/show.json", "id=4000000000000500").status == 200)
            #expect(await server.get("statuses/show.json", "id=4000000000000500").errorCode == 10023)
            server.reset()
            #expect(await server.get("statuses/show.json", "id=4000000000000500").status == 200)
        }
    }

    @Test("rate_limit_status has Weibo's shape and counts the token's calls, not its own")
    func status_shape() async throws {
        // 13:30:00 UTC is 21:30:00 in Beijing; the window resets at 22:00:00, 1800 s later.
        try await withSandbox(SandboxConfiguration(clock: .manual())) { server in
            let fresh = try #require(await server.get("account/rate_limit_status.json").json)
            #expect(fresh["user_limit"] as? Int == 150)
            #expect(fresh["remaining_user_hits"] as? Int == 150)
            #expect(fresh["ip_limit"] as? Int == 10000)
            #expect(fresh["limit_time_unit"] as? String == "HOURS")
            #expect(fresh["reset_time"] as? String == "2024-11-11 22:00:00")
            #expect(fresh["reset_time_in_seconds"] as? Int == 1800)
            let apis = try #require(fresh["api_rate_limits"] as? [[String: Any]])
            #expect(apis.contains { $0["api"] as? String == "statuses/update" && $0["remaining_hits"] as? Int == 30 })

            _ = await server.get("statuses/public_timeline.json", "count=1")
            _ = await server.post("statuses/update.json", form: "status=counted")
            _ = await server.get("account/rate_limit_status.json")
            let after = try #require(await server.get("account/rate_limit_status.json").json)
            #expect(after["remaining_user_hits"] as? Int == 148)
            #expect(after["remaining_ip_hits"] as? Int == 9998)
            let updates = (after["api_rate_limits"] as? [[String: Any]])?.first { $0["api"] as? String == "statuses/update" }
            #expect(updates?["remaining_hits"] as? Int == 29)
            // Another token's own count is untouched.
            let theirs = await server.get("account/rate_limit_status.json", token: server.second.token).json
            #expect(theirs?["remaining_user_hits"] as? Int == 150)
            #expect(await server.get("account/rate_limit_status.json", useToken: false).errorCode == 21301)
        }
    }
}
