import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// The archive read without wsh: every query docs/ARCHIVE.md offers to copy,
/// run by the `sqlite3` command and by Python's `sqlite3` module.
@Suite("The archive file, read by other tools", .serialized)
struct ArchiveFileTests {
    /// The ```sql blocks of docs/ARCHIVE.md.
    static func documentedQueries() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHIVE.md"), encoding: .utf8)
        return text.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test("every documented query runs in sqlite3 and in Python, and finds rows where it should")
    func documentedQueriesRun() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        // A follower who leaves between two syncs of followers.
        let (me, fan) = (harness.sandbox.accounts[0], harness.sandbox.accounts[1])
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/follow", as: fan)
        #expect(await harness.run("archive sync followers --archive \(file)").status == 0)
        try await harness.mastodonPost("api/v1/accounts/\(me.uid)/unfollow", as: fan)
        let synced = await harness.run("""
            post "an edited post about the concert"
            archive sync public home followers --limit 200 --archive \(file)
            fetch home 3
            edit 1 an edited post about the concert, edited
            archive sync home --limit 40 --archive \(file)
            expire --older-than 30d --keep-if-favourites 1000 --confirmed --archive \(file)
            """)
        #expect(synced.status == 0, "\(synced.stderr)")
        let queries = try Self.documentedQueries()
        #expect(queries.count >= 9)
        for query in queries {
            let cli = try runTool("/usr/bin/sqlite3", ["-bail", file, query])
            #expect(cli.status == 0, "sqlite3: \(query)\n\(cli.output)")
            let python = try runTool("/usr/bin/python3", ["-c", """
                import sqlite3, sys
                connection = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
                rows = connection.execute(sys.argv[2]).fetchall()
                print(len(rows))
                """, file, query])
            #expect(python.status == 0, "python: \(query)\n\(python.output)")
            // Only the deletions query may come back empty here (nothing was deleted).
            if !query.contains("deleted_at IS NOT NULL") {
                #expect(Int(python.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "no rows: \(query)")
            }
        }
    }
}

/// `archive import`: Mastodon's own export, searched like a sync.
@Suite("Importing Mastodon's outbox.json")
struct ArchiveImportTests {
    static let outbox = """
        {"@context": "https://www.w3.org/ns/activitystreams", "id": "outbox.json", "type": "OrderedCollection",
         "totalItems": 3, "orderedItems": [
          {"id": "https://example.social/users/ada/statuses/110000000000000001/activity", "type": "Create",
           "actor": "https://example.social/users/ada", "published": "2021-03-04T05:06:07Z",
           "to": ["https://www.w3.org/ns/activitystreams#Public"], "cc": ["https://example.social/users/ada/followers"],
           "object": {"id": "https://example.social/users/ada/statuses/110000000000000001", "type": "Note",
             "attributedTo": "https://example.social/users/ada", "published": "2021-03-04T05:06:07Z",
             "summary": null, "content": "<p>Compiling the <a href=\\"https://example.social/tags/swift\\">#swift</a> toolchain overnight</p>",
             "to": ["https://www.w3.org/ns/activitystreams#Public"], "cc": [],
             "attachment": [{"type": "Document", "mediaType": "image/png", "url": "https://example.social/m/1.png",
                             "name": "a terminal full of linker warnings"}],
             "tag": [{"type": "Hashtag", "name": "#swift"}]}},
          {"id": "https://example.social/users/ada/statuses/110000000000000002/activity", "type": "Create",
           "actor": "https://example.social/users/ada", "published": "2022-01-02T03:04:05Z",
           "object": {"id": "https://example.social/users/ada/statuses/110000000000000002", "type": "Note",
             "attributedTo": "https://example.social/users/ada", "published": "2022-01-02T03:04:05Z",
             "summary": "旅行", "content": "<p>在杭州西湖边散步，风景如画</p>",
             "to": ["https://example.social/users/ada/followers"], "cc": []}},
          {"id": "https://example.social/users/ada/statuses/3/activity", "type": "Announce",
           "actor": "https://example.social/users/ada", "object": "https://other.example/@bob/1"}
        ]}
        """

    @Test("the notes are kept, searchable in English (alt text too) and Chinese; boosts are left out")
    func importOutbox() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let outbox = (file as NSString).deletingLastPathComponent + "/outbox.json"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.outbox.write(toFile: outbox, atomically: true, encoding: .utf8)
        let harness = try await ShellHarness(dialect: .mastodon)
        let run = await harness.run("""
            archive import \(outbox) --archive \(file)
            archive search toolchain --archive \(file)
            archive search 西湖边 --archive \(file)
            archive search linker --archive \(file)
            archive import \(outbox) --archive \(file)
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("imported 2 posts of @ada on https://example.social/: 2 new"), "\(run.stderr)")
        #expect(run.stderr.contains("imported 2 posts of @ada on https://example.social/: 0 new"), "\(run.stderr)")
        #expect(run.stdout.contains("Compiling the #swift «toolchain» overnight"), "\(run.stdout)")
        #expect(run.stdout.contains("在杭州«西湖边»散步"), "\(run.stdout)")
        #expect(run.stdout.contains("@ada · 2021-03-04"), "\(run.stdout)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT visibility FROM statuses ORDER BY id") == "public\nprivate")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT alt FROM media") == "a terminal full of linker warnings")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT tag FROM tags") == "swift")
    }

    @Test("a file that is not an outbox gets one line")
    func notAnOutbox() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let file = ArchiveTranscriptTests.freshFile()
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"type\": \"Person\"}".write(toFile: folder + "/actor.json", atomically: true, encoding: .utf8)
        let run = await harness.run("archive import \(folder)/actor.json --archive \(file)")
        #expect(run.status != 0)
        #expect(run.stderr.contains("is not a Mastodon outbox.json"), "\(run.stderr)")
    }
}
