import Foundation
import Testing
import WshModel
import WshSandbox

/// `statuses/user_timeline.json`, `statuses/destroy.json`, and the faults
/// that lose a write's answer: what wsh needs to resolve lost answers and to
/// undo a post.
@Suite("user_timeline, destroy, and lost answers")
struct WriteEndpointsTests {
    /// The poster (the token's owner).
    static let posterUID = "1700000000"

    func statuses(_ result: HTTPResult) -> [[String: Any]] {
        result.json?["statuses"] as? [[String: Any]] ?? []
    }

    func post(_ server: SandboxServer, _ text: String) async throws -> Status {
        let result = await server.post("statuses/update.json", form: "status=" + formEncoded(text))
        try #require(result.status == 200, "\(result.text)")
        return try ModelDecoding.decode(Status.self, from: result.data)
    }

    @Test("user_timeline without uid lists the token owner's statuses, newest first, posts included")
    func userTimeline_ownStatuses() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let before = statuses(await server.get("statuses/user_timeline.json", "count=100"))
            #expect(!before.isEmpty)
            #expect(before.allSatisfy { ($0["user"] as? [String: Any])?["idstr"] as? String == Self.posterUID })
            let ids = before.compactMap { Int64($0["idstr"] as? String ?? "") }
            #expect(ids == ids.sorted(by: >))

            let posted = try await post(server, "mine")
            let after = await server.get("statuses/user_timeline.json", "count=2")
            #expect(statuses(after).first?["idstr"] as? String == posted.idstr)
            #expect(after.json?["total_number"] as? Int == before.count + 1)
            // Someone else's, by uid and by screen name: none of the poster's.
            let other = statuses(await server.get("statuses/user_timeline.json", "uid=1700000003&count=100"))
            #expect(other.allSatisfy { ($0["user"] as? [String: Any])?["idstr"] as? String == "1700000003" })
            #expect(!other.contains { $0["idstr"] as? String == posted.idstr })
        }
    }

    @Test("user_timeline since_id keeps greater ids, max_id ids up to itself; count and page slice")
    func userTimeline_sinceAndMax() async throws {
        try await withSandbox { server in
            let newest = try #require(statuses(await server.get("statuses/user_timeline.json", "count=1")).first)
            let newestID = try #require(newest["idstr"] as? String)
            #expect(statuses(await server.get("statuses/user_timeline.json", "since_id=\(newestID)")).isEmpty)

            let first = try await post(server, "one")
            let second = try await post(server, "two")
            let since = statuses(await server.get("statuses/user_timeline.json", "since_id=\(newestID)"))
            #expect(since.map { $0["text"] as? String } == ["two", "one"])
            let upTo = statuses(await server.get("statuses/user_timeline.json", "max_id=\(first.idstr ?? "")&count=2"))
            #expect(upTo.first?["idstr"] as? String == first.idstr)
            #expect(upTo.last?["idstr"] as? String == newestID)
            let page2 = statuses(await server.get("statuses/user_timeline.json", "count=1&page=2"))
            #expect(page2.first?["idstr"] as? String == first.idstr)
            #expect(second.idstr != first.idstr)
            #expect(await server.get("statuses/user_timeline.json", "count=101").errorCode == 10017)
            #expect(await server.get("statuses/user_timeline.json", "uid=42").errorCode == 20003)
            #expect(await server.get("statuses/user_timeline.json", "since_id=abc").errorCode == 10008)
        }
    }

    @Test("destroy deletes the author's status: it answers with it, then show is 20101 and the timeline loses it")
    func destroy_deletesOwnStatus() async throws {
        try await withSandbox { server in
            let before = await server.get("statuses/public_timeline.json")
            let posted = try await post(server, "short-lived")
            let id = try #require(posted.idstr)

            let result = await server.post("statuses/destroy.json", form: "id=\(id)")
            #expect(result.status == 200)
            #expect((try? ModelDecoding.decode(Status.self, from: result.data))?.text == "short-lived")
            #expect(await server.get("statuses/show.json", "id=\(id)").errorCode == 20101)
            #expect(await server.get("statuses/public_timeline.json").data == before.data)
            #expect(!statuses(await server.get("statuses/user_timeline.json")).contains { $0["idstr"] as? String == id })
            #expect(server.stats.deletions == 1)
            // Again: gone.
            let again = await server.post("statuses/destroy.json", form: "id=\(id)")
            #expect(again.status == 404)
            #expect(again.errorCode == 20101)
            // A later post gets a new id, never the deleted one's.
            let next = try await post(server, "next")
            #expect(Int64(next.idstr ?? "") ?? 0 > Int64(id) ?? 0)
        }
    }

    @Test("deleting a generated status of the poster removes it from every page; the positions close up")
    func destroy_generatedStatus_closesTheGap() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200)) { server in
            let own = statuses(await server.get("statuses/user_timeline.json", "count=100"))
            let victim = try #require(own.dropFirst().first?["idstr"] as? String)
            let before = await server.timeline(count: 200).compactMap { $0["idstr"] as? String }

            #expect(await server.post("statuses/destroy.json", form: "id=\(victim)").status == 200)

            let after = await server.timeline(count: 200).compactMap { $0["idstr"] as? String }
            #expect(after == before.filter { $0 != victim })
            let paged = await server.timeline(count: 50, page: 2).compactMap { $0["idstr"] as? String }
            #expect(paged == Array(after[50..<100]))
            #expect(await server.get("statuses/public_timeline.json").json?["total_number"] as? Int == 199)
        }
    }

    @Test("destroy of someone else's status is 403 with 20102; a missing or bad id is 10008; an unknown id 20101; GET is 405")
    func destroy_errors() async throws {
        try await withSandbox { server in
            let others = await server.timeline(count: 50).filter {
                ($0["user"] as? [String: Any])?["idstr"] as? String != Self.posterUID
            }
            let theirs = try #require(others.first?["idstr"] as? String)
            let refused = await server.post("statuses/destroy.json", form: "id=\(theirs)")
            #expect(refused.status == 403)
            #expect(refused.errorCode == 20102)
            #expect(refused.json?["request"] as? String == "/2/statuses/destroy.json")
            #expect(await server.get("statuses/show.json", "id=\(theirs)").status == 200)

            #expect(await server.post("statuses/destroy.json", form: "").errorCode == 10008)
            #expect(await server.post("statuses/destroy.json", form: "id=abc").errorCode == 10008)
            #expect(await server.post("statuses/destroy.json", form: "id=4000000000999999").errorCode == 20101)
            #expect(await server.get("statuses/destroy.json", "id=\(theirs)").status == 405)
            let anonymous = await TestHTTPConnection(port: server.port).send(
                "POST", "/2/statuses/destroy.json", body: "id=\(theirs)")
            #expect(anonymous.errorCode == 21301)
            #expect(server.stats.deletions == 0)
        }
    }

    @Test("/admin/reset brings deleted statuses back and removes posts")
    func reset_restoresDeleted() async throws {
        try await withSandbox { server in
            let before = await server.get("statuses/user_timeline.json", "count=5")
            let victim = try #require(statuses(before).first?["idstr"] as? String)
            #expect(await server.post("statuses/destroy.json", form: "id=\(victim)").status == 200)
            #expect(await server.admin("POST", "reset").status == 200)
            #expect(await server.get("statuses/user_timeline.json", "count=5").data == before.data)
        }
    }

    @Test("drop_after on statuses/update.json makes the post, then closes without an answer; other paths are served")
    func dropAfter_onOnePath_losesTheAnswer() async throws {
        try await withSandbox { server in
            let result = await server.admin("POST", "faults", body: #"{"drop_after": true, "path": "statuses/update.json"}"#)
            #expect(result.status == 200)
            #expect(result.json?["path"] as? String == "statuses/update.json")
            #expect(result.json?["drop_after"] as? Bool == true)

            let lost = await server.post("statuses/update.json", form: "status=landed")
            #expect(lost.failure == .closedWithoutResponse)
            #expect(server.stats.posts == 1)
            let mine = statuses(await server.get("statuses/user_timeline.json", "count=1"))
            #expect(mine.first?["text"] as? String == "landed")
            #expect(await server.get("statuses/show.json", "id=4000000000000500").status == 200)
        }
    }

    @Test("faults limited to a path leave other paths alone and do not count them for the rate limit")
    func pathScopedFaults() async throws {
        try await withSandbox { server in
            server.setFaults(SandboxFaults(rateLimit: 1, path: "/2/statuses/show.json"))
            for _ in 0..<3 { #expect(await server.get("statuses/public_timeline.json", "count=1").status == 200) }
            #expect(await server.get("statuses/show.json", "id=4000000000000500").status == 200)
            #expect(await server.get("statuses/show.json", "id=4000000000000500").errorCode == 10023)
            let bad = await server.admin("POST", "faults", body: #"{"path": ""}"#)
            #expect(bad.errorCode == 10008)
        }
    }
}
