import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell

/// `expire` and `redraft` against the sandbox, on both of its APIs: what a
/// user sees, what the server keeps, and what the archive file holds when
/// read without wsh (`sqlite3`). The sandbox's statuses are from 2024, so
/// `--older-than 30d` lists every status of the account.
@Suite("expire", .serialized)
struct ExpireTranscriptTests {
    private static let sqlite3 = ArchiveTranscriptTests.sqlite3
    private static let freshFile = ArchiveTranscriptTests.freshFile

    /// The dry run's document (`expire … --json`): the ids it lists, and the kept ones by id with their reason.
    private static func plan(_ harness: ShellHarness, _ options: String, file: String) async throws
        -> (listed: [String], kept: [String: String]) {
        let run = await harness.run("expire \(options) --json --archive \(file)")
        #expect(run.status == 0, "\(options): \(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let listed = (document["listed"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let kept = (document["keptStatuses"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) { kept, row in
            if let id = row["id"] as? String { kept[id] = row["keptBecause"] as? String }
        }
        return (listed, kept)
    }

    @Test("the dry run lists the old statuses and deletes nothing", arguments: [Connection.DialectChoice.weibo, .mastodon])
    func dryRunDeletesNothing(_ dialect: Connection.DialectChoice) async throws {
        let harness = try await ShellHarness(dialect: dialect)
        let file = Self.freshFile()
        let dry = await harness.run("expire --older-than 30d --archive \(file)")
        #expect(dry.status == 0, "\(dialect): \(dry.stderr)")
        let own = try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE author_id = '1700000000'")
        let rows = dry.stdout.split(separator: "\n").filter { $0.contains(" · 2024-") }
        #expect(Int(own) ?? 0 > 10)
        #expect(rows.count == Int(own), "\(dry.stdout)")
        #expect(dry.stderr.contains("\(own) would be deleted, 0 kept; run again with --confirmed to delete (paced: about "),
                "\(dry.stderr)")
        // Nothing written as a run, nothing marked, and the server still has every one of them.
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM expire_runs") == "0")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE deleted_by_me IS NOT NULL") == "0")
        let again = try await Self.plan(harness, "--older-than 30d", file: Self.freshFile())
        #expect(again.listed.count == Int(own))
        // Usage errors in one line: a zero, a negative, a unit it does not know.
        for age in ["0d", "-3d", "6m", "90"] {
            let wrong = await harness.run("expire --older-than \(age) --archive \(file)")
            #expect(wrong.status == 2, "\(age): \(wrong.stderr)")
            #expect(wrong.stderr.contains("--older-than must be a whole number above 0 of hours, days or weeks"), "\(wrong.stderr)")
        }
    }

    @Test("--confirmed deletes exactly the listed statuses, each marked in the archive with its row and JSON kept; undo says it cannot restore them",
          arguments: [Connection.DialectChoice.weibo, .mastodon])
    func confirmedDeletesTheListed(_ dialect: Connection.DialectChoice) async throws {
        let harness = try await ShellHarness(dialect: dialect)
        let file = Self.freshFile()
        let plan = try await Self.plan(harness, "--older-than 30d --keep-if-favourites 1000", file: file)
        #expect(!plan.listed.isEmpty && !plan.kept.isEmpty)
        let run = await harness.run("expire --older-than 30d --keep-if-favourites 1000 --confirmed --archive \(file)")
        #expect(run.status == 0, "\(dialect): \(run.stderr)")
        let deleted = run.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(deleted == plan.listed, "\(run.stdout)")
        #expect(run.stderr.contains("expire: \(plan.listed.count) statuses deleted, each kept in the archive; run 1 is finished"),
                "\(run.stderr)")
        let marked = try Self.sqlite3(file, "SELECT group_concat(id, ' ') FROM (SELECT id FROM statuses WHERE deleted_by_me IS NOT NULL ORDER BY created_at, id_number)")
        #expect(marked == plan.listed.joined(separator: " "))
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE deleted_by_me IS NOT NULL AND length(json) > 100") == "\(plan.listed.count)")
        #expect(try Self.sqlite3(file, "SELECT count(*), count(deleted_at) FROM expire_items") == "\(plan.listed.count)|\(plan.listed.count)")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM expire_runs WHERE finished_at IS NOT NULL") == "1")
        // Their pictures were kept before they went: every attachment of a deleted status is a file of the archive's.
        let pictures = try Self.sqlite3(file, """
            SELECT count(*) || ' ' || count(f.sha256) FROM media m JOIN statuses s ON s.rowid = m.status
            LEFT JOIN media_files f ON f.url = m.url WHERE s.deleted_by_me IS NOT NULL
            """).split(separator: " ")
        #expect(pictures.count == 2 && pictures[0] != "0" && pictures[0] == pictures[1], "\(pictures)")
        // The server no longer has them, and still has the kept ones.
        let after = try await Self.plan(harness, "--older-than 30d --keep-if-favourites 1000", file: Self.freshFile())
        #expect(after.listed.isEmpty)
        #expect(Set(after.kept.keys) == Set(plan.kept.keys))

        // undo: honest, in one line, pointing to redraft.
        let undo = await harness.run("undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("the server cannot restore deleted statuses: the \(plan.listed.count) statuses expire deleted stay deleted"),
                "\(undo.stderr)")
        #expect(undo.stderr.contains("redraft ID posts one again from the archive's copy as a new status (redraft \(plan.listed[0]))"),
                "\(undo.stderr)")
        // redraft: the archive's text as a new status, and a second --confirmed has nothing left to delete.
        let text = try Self.sqlite3(file, "SELECT text FROM statuses WHERE id = '\(plan.listed[0])' LIMIT 1")
        let redraft = await harness.run("redraft \(plan.listed[0]) --archive \(file)\nfetch user 1700000000 1\nlist --json")
        #expect(redraft.status == 0, "\(redraft.stderr)")
        #expect(redraft.stderr.contains("redraft: posted the archive's copy of \(plan.listed[0]) as a new status"), "\(redraft.stderr)")
        #expect(redraft.stdout.contains(text.prefix(6)), "\(redraft.stdout)")
        #expect(!redraft.stdout.contains("\"\(plan.listed[0])\""), "a new status, a new id: \(redraft.stdout)")
    }

    @Test("a status whose pictures cannot be kept is not deleted, and the run says why", arguments: [Connection.DialectChoice.weibo, .mastodon])
    func mediaNotKeptIsNotDeleted(_ dialect: Connection.DialectChoice) async throws {
        let harness = try await ShellHarness(dialect: dialect)
        let file = Self.freshFile()
        let plan = try await Self.plan(harness, "--older-than 30d", file: file)
        let listed = plan.listed.map { "'\($0)'" }.joined(separator: ",")
        let picture = try Self.sqlite3(file, """
            SELECT s.id || ' ' || m.url FROM media m JOIN statuses s ON s.rowid = m.status WHERE s.id IN (\(listed)) LIMIT 1
            """).split(separator: " ").map(String.init)
        try #require(picture.count == 2)
        // That picture's URL answers an HTML page where the picture was.
        harness.sandbox.setFaults(SandboxFaults(failStatus: 200, failRate: 1, path: try #require(URL(string: picture[1])).path))
        let run = await harness.run("expire --older-than 30d --confirmed --json --archive \(file)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(run.status == 0, "\(run.stderr)")
        let deleted = try Self.sqlite3(file, "SELECT group_concat(id, ' ') FROM statuses WHERE deleted_by_me IS NOT NULL").split(separator: " ")
        #expect(deleted.count == plan.listed.count - 1 && !deleted.contains(Substring(picture[0])), "\(deleted)")
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect("\(kept)".contains("media_not_kept") || run.stderr.contains("its media could not be kept"), "\(run.stdout) \(run.stderr)")
        let after = try await Self.plan(harness, "--older-than 30d", file: Self.freshFile())
        #expect(after.listed == [picture[0]], "only the one whose picture was not kept is still on the server")
    }

    @Test("each rule changes the list as its name says")
    func rulesKeepWhatTheySay() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let setUp = await harness.run("""
            post --visibility direct "a secret for @someone"
            fetch public 3
            repost 1
            api post api/v1/statuses/4000000000000005/pin
            """)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let file = Self.freshFile()
        let all = try await Self.plan(harness, "--older-than 30d", file: file)
        let direct = try Self.sqlite3(file, "SELECT id FROM statuses WHERE visibility = 'direct'")
        let boost = try Self.sqlite3(file, "SELECT id FROM statuses WHERE boost_of_id IS NOT NULL AND author_id = '1700000000'")
        #expect(all.listed.contains(direct) && all.listed.contains(boost) && all.listed.contains("4000000000000005"))
        #expect(all.kept.isEmpty)
        func check(_ options: String, keeps expected: Set<String>, reason: String) async throws {
            let plan = try await Self.plan(harness, "--older-than 30d " + options, file: file)
            #expect(!expected.isEmpty, "\(options)")
            #expect(Set(plan.kept.keys) == expected, "\(options)")
            #expect(Set(plan.kept.values) == [reason], "\(options)")
            #expect(Set(plan.listed) == Set(all.listed).subtracting(expected), "\(options)")
        }
        let popular = Set(try Self.sqlite3(file, "SELECT id FROM statuses WHERE author_id = '1700000000' AND favourites_count >= 1000")
            .split(separator: "\n").map(String.init))
        try await check("--keep-if-favourites 1000", keeps: popular, reason: "favourites")
        let boosted = Set(try Self.sqlite3(file, "SELECT id FROM statuses WHERE author_id = '1700000000' AND reposts_count >= 500")
            .split(separator: "\n").map(String.init))
        try await check("--keep-if-boosts 500", keeps: boosted, reason: "boosts")
        let cats = Set(try Self.sqlite3(file, "SELECT s.id FROM statuses s JOIN tags t ON t.status = s.rowid WHERE s.author_id = '1700000000' AND t.tag = '猫'")
            .split(separator: "\n").map(String.init))
        try await check("--keep-tag 猫", keeps: cats, reason: "tag")
        let mornings = Set(try Self.sqlite3(file, "SELECT s.id FROM statuses s JOIN tags t ON t.status = s.rowid WHERE s.author_id = '1700000000' AND t.tag = '早安'")
            .split(separator: "\n").map(String.init))
        try await check("--keep-tag 猫 --keep-tag 早安", keeps: cats.union(mornings), reason: "tag")
        try await check("--keep-tag 猫,#早安", keeps: cats.union(mornings), reason: "tag")
        try await check("--keep-direct", keeps: [direct], reason: "direct")
        try await check("--keep-pinned", keeps: ["4000000000000005"], reason: "pinned")
        try await check("--boosts-only", keeps: Set(all.listed).subtracting([boost]), reason: "not_a_boost")

        // Weibo has no pins: one line says so, and nothing is kept for it.
        let weibo = try await ShellHarness(dialect: .weibo)
        let unpinned = await weibo.run("expire --older-than 30d --keep-pinned --archive \(Self.freshFile())")
        #expect(unpinned.status == 0, "\(unpinned.stderr)")
        #expect(unpinned.stderr.contains("expire: weibo has no pinned statuses: --keep-pinned keeps nothing"), "\(unpinned.stderr)")
        #expect(unpinned.stderr.contains(" would be deleted, 0 kept;"), "\(unpinned.stderr)")
    }

    @Test("the server's rate limit in the middle: expire waits for its reset, says so, and goes on",
          arguments: [Connection.DialectChoice.weibo, .mastodon])
    func rateLimitWaitsAndGoesOn(_ dialect: Connection.DialectChoice) async throws {
        let harness = try await ShellHarness(dialect: dialect)
        let file = Self.freshFile()
        let plan = try await Self.plan(harness, "--older-than 30d", file: file)
        // Mastodon: the third status's deletion is refused; Weibo: every deletion after the second.
        let path = dialect == .mastodon ? "api/v1/statuses/\(plan.listed[2])" : "statuses/destroy.json"
        harness.sandbox.setFaults(SandboxFaults(rateLimit: dialect == .mastodon ? 0 : 2, path: path, retryAfter: 1))
        let running = Task { await harness.run("expire --older-than 30d --confirmed --archive \(file)") }
        // The event: the refusal noted on the third item, then the limit lifts.
        var refused = ""
        for _ in 0..<600 where refused.isEmpty {
            refused = (try? Self.sqlite3(file, "SELECT failure FROM expire_items WHERE failure IS NOT NULL")) ?? ""
            if refused.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(refused.hasPrefix("rate limited: waited 1 s for the reset"), "\(refused)")
        #expect(try Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items") == "2")
        harness.sandbox.setFaults(SandboxFaults())
        let run = await running.value
        #expect(run.status == 0, "\(dialect): \(run.stderr)")
        #expect(run.stderr.contains("expire: 2 of \(plan.listed.count) deleted; the server's rate limit: waiting until "), "\(run.stderr)")
        #expect(run.stderr.contains("expire: \(plan.listed.count) statuses deleted, each kept in the archive"), "\(run.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items") == "\(plan.listed.count)")
    }

    @Test("an unfinished run: other rules are refused naming expire --abandon; the same rules go on; --abandon drops it")
    func unfinishedRun() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let file = Self.freshFile()
        let plan = try await Self.plan(harness, "--older-than 30d", file: file)
        // The fourth deletion is refused (not a rate limit): the run stops there, unfinished.
        harness.sandbox.setFaults(SandboxFaults(failStatus: 403, failRate: 1, path: "api/v1/statuses/\(plan.listed[3])"))
        let stopped = await harness.run("expire --older-than 30d --confirmed --archive \(file)")
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("expire: 3 statuses deleted, each kept in the archive; the server refused to delete \(plan.listed[3])"),
                "\(stopped.stderr)")
        harness.sandbox.setFaults(SandboxFaults())
        // The account renamed since (its rows and the run under its old name): the run is found by the account's id.
        _ = try Self.sqlite3(file, "UPDATE statuses SET account = '@old_name'; UPDATE expire_runs SET account = '@old_name'")
        let other = await harness.run("expire --older-than 60d --confirmed --archive \(file)")
        #expect(other.status == 1)
        #expect(other.stderr.contains("expire: run 1 is unfinished (--older-than 30d): run expire --confirmed with those options to finish it, or expire --abandon to drop it"),
                "\(other.stderr)")
        let resumed = await harness.run("expire --older-than 30d --confirmed --json --archive \(file)")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(document["resumed"] as? Bool == true && document["deletedBefore"] as? Int == 3 && document["end"] as? String == "done")
        #expect(document["deleted"] as? [String] == Array(plan.listed.dropFirst(3)))
        #expect(resumed.stderr.contains("expire: went on with run 1 (listed \(plan.listed.count) statuses, 3 deleted before)"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("expire: run 1 was listed as @old_name; the account is @"), "\(resumed.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items") == "\(plan.listed.count)")
        // Every listed status marked, whichever name its row is kept under, and nothing else.
        let marked = try Self.sqlite3(file, "SELECT count(DISTINCT id) FROM statuses WHERE deleted_by_me IS NOT NULL")
        #expect(marked == "\(plan.listed.count)")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE deleted_by_me IS NOT NULL AND id NOT IN (SELECT s.id FROM expire_items i JOIN statuses s ON s.rowid = i.status)") == "0")
        let nothing = await harness.run("expire --abandon --archive \(file)")
        #expect(nothing.stderr.contains("expire: no unfinished run to abandon"), "\(nothing.stderr)")
    }

    @Test("a full disk and a file of a newer wsh: one line each, and nothing deleted")
    func faultsDeleteNothing() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = Self.freshFile()
        var configuration = Shell.Configuration(target: .url(sandbox.mastodonBaseURL), tokenSource: .value(Secret(sandbox.token)))
        configuration.dialect = .mastodon
        configuration.archivePath = file
        configuration.archiveMaximumPages = 1
        let full = ShellHarness(configuration: configuration)
        let refused = await full.run("expire --older-than 30d --confirmed")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("expire: the sync of your statuses stopped (the disk holding \(file) is full: nothing of this page was written); nothing was deleted"),
                "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")

        configuration.archiveMaximumPages = nil
        let newer = Self.freshFile()
        configuration.archivePath = newer
        let harness = ShellHarness(configuration: configuration)
        let listed = await harness.run("expire --older-than 30d")
        #expect(listed.status == 0, "\(listed.stderr)")
        _ = try Self.sqlite3(newer, "PRAGMA user_version = 99")
        let readOnly = await harness.run("expire --older-than 30d --confirmed")
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr.contains("\(newer) was written by a newer wsh: it is read but not written, so expire deletes nothing"),
                "\(readOnly.stderr)")
        // The server still has every status the dry run listed.
        _ = try Self.sqlite3(newer, "PRAGMA user_version = 4")
        let again = await harness.run("expire --older-than 30d --archive \(Self.freshFile())")
        #expect(again.stdout == listed.stdout)
        await sandbox.stop()
    }
}
