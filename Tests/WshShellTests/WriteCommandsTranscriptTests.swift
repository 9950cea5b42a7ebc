import Foundation
import Testing
import WshSandbox

/// The writes through the real loop, libcurl and the sandbox: each is one
/// operation marked ⇅, and undo takes it back on the server.
///
/// These need the sandbox's write endpoints (comments, reposts, favourites,
/// friendships, rate_limit_status: branch sandbox7): until that is merged
/// they are skipped (`needsSandboxWrites`). `deleteUndo` and
/// `limitsRateLimitFault` run on any sandbox.
@Suite("Writes through the shell and the sandbox")
struct WriteCommandsTranscriptTests {
    /// Runs a test only on a sandbox that serves the write endpoints and
    /// `account/rate_limit_status.json` (branch sandbox7).
    static let needsSandboxWrites = ConditionTrait.enabled("needs the sandbox's write endpoints (branch sandbox7)") {
        let harness = try await ShellHarness()
        return await harness.run("api get account/rate_limit_status.json").status == 0
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func status(_ harness: ShellHarness, _ id: String) async throws -> [String: Any] {
        let read = await harness.run("api get statuses/show.json id=\(id)")
        return try json(read.stdout) as? [String: Any] ?? [:]
    }

    func commentTexts(_ harness: ShellHarness, _ id: String) async throws -> [String] {
        let read = await harness.run("api get comments/show.json id=\(id) count=200")
        let page = try json(read.stdout) as? [String: Any]
        return (page?["comments"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test("comment 2 TEXT lands on the server, is marked ⇅, and undo deletes it there", Self.needsSandboxWrites)
    func commentUndo() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 3\ncomment 2 hello from wsh\nhistory")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout.hasSuffix("2  ⇅ comment 2 \"hello from wsh\"\n"))
        #expect(transcript.stderr.contains("commented on status"))
        let id = try #require(try await harness.rows()[1]["idstr"] as? String)
        #expect(try await commentTexts(harness, id).contains("hello from wsh"))

        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("deleted comment"))
        #expect(undone.stderr.contains("undone: comment 2 \"hello from wsh\""))
        #expect(!(try await commentTexts(harness, id).contains("hello from wsh")))

        let redone = await harness.run("redo")
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(try await commentTexts(harness, id).filter { $0 == "hello from wsh" }.count == 1)
    }

    @Test("reply N M TEXT answers comment M as comments N numbers them; undo deletes the reply", Self.needsSandboxWrites)
    func replyUndo() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 3\ncomment 1 first").status == 0)
        let transcript = await harness.run("comments 1\nreply 1 1 second")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        let id = try #require(try await harness.rows()[0]["idstr"] as? String)
        let texts = try await commentTexts(harness, id)
        #expect(texts.first?.hasPrefix("回复@") == true && texts.first?.hasSuffix(":second") == true)
        #expect(await harness.run("undo").status == 0)
        #expect(!(try await commentTexts(harness, id).contains { $0.hasSuffix(":second") }))
    }

    @Test("repost 2 TEXT becomes row 1 and undo deletes the repost on the server", Self.needsSandboxWrites)
    func repostUndo() async throws {
        let harness = try await ShellHarness()
        let transcript = await harness.run("fetch 3\nrepost 2 look at this")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        let rows = try await harness.rows()
        let repost = try #require(rows.first?["idstr"] as? String)
        #expect((rows.first?["text"] as? String)?.hasPrefix("look at this") == true)
        #expect((rows.first?["retweeted_status"] as? [String: Any])?["idstr"] as? String == rows[2]["idstr"] as? String)

        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("took back repost \(repost) (of status "), "\(undone.stderr)")
        #expect(await harness.run("api get statuses/show.json id=\(repost)").status == 1)
        #expect(try await harness.rows().count == 3)
    }

    @Test("favorite N and unfavorite N change favorited on the server; undo does the other", Self.needsSandboxWrites)
    func favoriteUndo() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 3\nfavorite 1").status == 0)
        let id = try #require(try await harness.rows()[0]["idstr"] as? String)
        #expect(try await status(harness, id)["favorited"] as? Bool == true)
        #expect(await harness.run("undo").status == 0)
        #expect(try await status(harness, id)["favorited"] as? Bool == false)

        let twice = await harness.run("favorite 1\nfavorite 1", name: "job.wsh")
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("job.wsh:2: favorite:"))
        #expect(twice.stderr.contains("20704"))
        let off = await harness.run("unfavorite 1\nundo")
        #expect(off.status == 0, "\(off.stderr)")
        #expect(try await status(harness, id)["favorited"] as? Bool == true)
    }

    @Test("follow USER and unfollow USER change following on the server; undo does the other", Self.needsSandboxWrites)
    func followUndo() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("post who am i").status == 0)
        let me = try #require(((try await harness.rows()).first?["user"] as? [String: Any])?["screen_name"] as? String)
        let rows = try await harness.rows(after: "fetch 20")
        let other = try #require(rows.compactMap { ($0["user"] as? [String: Any])?["screen_name"] as? String }.first { $0 != me })
        func following() async throws -> Bool? {
            let read = await harness.run("api get users/show.json screen_name=\(other)")
            return (try json(read.stdout) as? [String: Any])?["following"] as? Bool
        }
        let before = try await following()
        let verb = before == true ? "unfollow" : "follow"

        let transcript = await harness.run("\(verb) @\(other)\nhistory")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout.contains("⇅ \(verb) @\(other)"))
        #expect(try await following() == (before != true))
        #expect(await harness.run("undo").status == 0)
        #expect(try await following() == before)
    }

    @Test("delete 1 removes one's own status; undo posts its text again as a new status and says so")
    func deleteUndo() async throws {
        let harness = try await ShellHarness()
        #expect(await harness.run("fetch 2\npost mistake").status == 0)
        let id = try #require(try await harness.rows().first?["idstr"] as? String)

        let deleted = await harness.run("delete 1\nhistory")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("⇅ delete 1 \"mistake\" (undo posts the text again)"))
        #expect(await harness.run("api get statuses/show.json id=\(id)").status == 1)
        #expect(try await harness.rows().count == 2)

        let undone = await harness.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(undone.stderr.contains("the server cannot restore a deleted status; posted its text again as a new status"))
        let again = try await harness.rows()
        #expect(again.first?["text"] as? String == "mistake")
        #expect(again.first?["idstr"] as? String != id)

        let others = await harness.run("delete 2", name: "job.wsh")
        #expect(others.status == 1)
        #expect(others.stderr.contains("20102"))
    }

    @Test("limits and limits --json show the token's rate-limit status with stable field names", Self.needsSandboxWrites)
    func limits() async throws {
        let harness = try await ShellHarness()
        let text = await harness.run("limits")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("user hits left"))
        let document = await harness.run("limits --json\nhistory")
        let object = try #require(try json(String(document.stdout.prefix { $0 != "}" }) + "}") as? [String: Any])
        #expect(Set(object.keys) == ["remaining_user_hits", "remaining_ip_hits", "user_limit", "ip_limit", "reset_time",
                                     "reset_time_in_seconds", "limit_time_unit"])
        #expect(object["user_limit"] as? Int == 150)
        #expect(!document.stdout.contains("limits"))   // not an operation: history is empty
    }

    @Test("a rate-limited command fails with $errcode 10023 and says when to try again")
    func limitsRateLimitFault() async throws {
        let harness = try await ShellHarness(faults: SandboxFaults(rateLimit: 0))
        let transcript = await harness.run("try { fetch 3 } catch { echo $errcode; echo $error }")
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout.hasPrefix("10023\n"))
        #expect(transcript.stdout.contains("rate limit"))
    }
}
