import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// `archive sync`, `archive search`, `archive` and `sql` against the
/// sandbox, on both of its APIs: what a user sees, and what the file holds
/// when read without wsh (the `sqlite3` command).
@Suite("The archive", .serialized)
struct ArchiveTranscriptTests {
    /// A fresh archive file in a folder of its own.
    static func freshFile() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-archive-\(UUID().uuidString)").path
        return folder + "/archive.sqlite"
    }

    /// `sqlite3 FILE QUERY`'s output: the file read by SQLite's own shell, not by wsh.
    static func sqlite3(_ file: String, _ query: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [file, query]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("sync, new posts, an edit and a delete on the server, and searches in English and Chinese",
          arguments: [Connection.DialectChoice.weibo, .mastodon])
    func syncSearchEditDelete(_ dialect: Connection.DialectChoice) async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: dialect)
        let first = await harness.run("archive sync home --limit 50 --archive \(file)")
        #expect(first.status == 0, "\(dialect): \(first.stderr)")
        #expect(first.stderr.contains("synced home:"))
        let kept = Int(try Self.sqlite3(file, "SELECT count(*) FROM statuses")) ?? 0
        #expect(kept >= 50)
        // Private: 0600 in a 0700 folder.
        let fileMode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: (file as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)

        // New posts on the server: the second sync brings exactly them, no duplicate.
        let posted = await harness.run("""
            post "Testing the archive: a hippopotamus sentence"
            post "今天北京的天气特别好，我们去公园散步吧"
            """)
        #expect(posted.status == 0, "\(dialect): \(posted.stderr)")
        let second = await harness.run("archive sync home --limit 1 --archive \(file)")
        #expect(second.status == 0, "\(dialect): \(second.stderr)")
        #expect(second.stderr.contains("2 new"), "\(second.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(*) - count(DISTINCT id) FROM statuses") == "0")
        #expect(Int(try Self.sqlite3(file, "SELECT count(*) FROM statuses")) == kept + 2)

        // English inside a word, Chinese inside a sentence.
        let english = await harness.run("archive search popotam --archive \(file)")
        #expect(english.status == 0, "\(english.stderr)")
        #expect(english.stdout.contains("hip«popotam»us"), "\(english.stdout)")
        // The matches are rows: detail opens one, from the archive (no request), and list shows them.
        let opened = await harness.run("archive search hippopotamus --archive \(file)\ntrace on\ndetail 1\ntrace off\nlist")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.contains("1. @"), "\(opened.stdout)")
        #expect(opened.stdout.contains("Testing the archive: a «hippopotamus» sentence"), "\(opened.stdout)")
        // Once in the detail, once in the list.
        #expect(opened.stdout.components(separatedBy: "Testing the archive: a hippopotamus sentence").count == 3, "\(opened.stdout)")
        #expect(opened.stderr.contains("ArchiveStore.status(id:"), "\(opened.stderr)")
        #expect(opened.stderr.contains("answered from the archive: no request"), "\(opened.stderr)")
        #expect(!opened.stderr.contains("could not be reached"), "\(opened.stderr)")
        let chinese = await harness.run("archive search 天气特别 --archive \(file)")
        #expect(chinese.stdout.contains("今天北京的«天气特别»好"), "\(chinese.stdout)")
        // Two characters, below a trigram: found all the same.
        let short = await harness.run("archive search 公园 --archive \(file)")
        #expect(short.stdout.contains("«公园»"), "\(short.stdout)")

        // Delete the older post on the server: the next sync marks it, and keeps it.
        let deleted = await harness.run("fetch home 5\ndelete 2")
        #expect(deleted.status == 0, "\(dialect): \(deleted.stderr)")
        if dialect == .mastodon {
            let edited = await harness.run("edit 1 今天上海的天气特别好 (edited)")
            #expect(edited.status == 0, "\(edited.stderr)")
        }
        let third = await harness.run("archive sync home --limit 1 --archive \(file)")
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("1 deleted on the server"), "\(third.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE text LIKE '%hippopotamus%' AND deleted_at IS NOT NULL") == "1")
        let found = await harness.run("archive search hippopotamus --archive \(file)")
        #expect(found.stdout.contains("(deleted on the server)"), "\(found.stdout)")
        if dialect == .mastodon {
            #expect(third.stderr.contains("1 edited"), "\(third.stderr)")
            #expect(try Self.sqlite3(file, "SELECT e.text FROM edits e JOIN statuses s ON s.rowid = e.status WHERE s.text LIKE '%上海%'")
                    == "今天北京的天气特别好，我们去公园散步吧")
        }

        // The newest status deleted: nothing newer is on the page to put it between, and it is found all the same.
        let newest = await harness.run("fetch home 5\ndelete 1")
        #expect(newest.status == 0, "\(dialect): \(newest.stderr)")
        let fourth = await harness.run("archive sync home --limit 1 --archive \(file)")
        #expect(fourth.stderr.contains("1 deleted on the server"), "\(fourth.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE (text LIKE '%公园%' OR text LIKE '%上海%') AND deleted_at IS NOT NULL")
                == "1")

        // archive alone: the file and each source.
        let summary = await harness.run("archive --archive \(file)")
        #expect(summary.stdout.contains("\(file) · \(kept + 2) statuses"), "\(summary.stdout)")
        #expect(summary.stdout.contains(" home: \(kept + 2) · last sync 20"), "\(summary.stdout)")
    }

    @Test("one server read through both APIs into one file: a status read again through the other keeps that API's JSON")
    func bothFacesOneFile() async throws {
        let file = Self.freshFile()
        // The embedded sandbox is one server with two faces: the same statuses, the same ids.
        let weibo = try await ShellHarness(dialect: .weibo)
        _ = await weibo.run("archive sync home --limit 40 --archive \(file)")
        #expect(try Self.sqlite3(file, "SELECT DISTINCT api FROM statuses") == "weibo")
        let count = try Self.sqlite3(file, "SELECT count(*) FROM statuses")
        let mastodon = try await ShellHarness(dialect: .mastodon)
        let synced = await mastodon.run("archive sync home --limit 40 --archive \(file)")
        #expect(synced.status == 0, "\(synced.stderr)")
        // Read again through Mastodon's face, each row holds Mastodon's JSON and says so: it reads back whole.
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses") == count)
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE api = 'weibo' AND json LIKE '{\"id\":\"%'") == "0")
        let texts = try Self.sqlite3(file, "SELECT text FROM statuses WHERE api = 'mastodon' ORDER BY id_number DESC")
        let word = String(try #require(texts.split(whereSeparator: { $0 == " " || $0 == "\n" })
            .first { $0.count >= 5 && $0.allSatisfy { $0.isASCII && $0.isLetter } }))
        let script = "archive search \(word) 1 --archive \(file)\ndetail 1"
        let found = await weibo.run(script)
        #expect(found.status == 0, "\(script): \(found.stderr)")
        #expect(!found.stdout.contains("@?"), "\(found.stdout)")
        #expect(found.stdout.contains(word), "\(found.stdout)")
    }

    @Test("sql reads, and a write is refused by the read-only connection, the file unchanged")
    func sqlIsReadOnly() async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        _ = await harness.run("archive sync public --limit 20 --archive \(file)")
        let count = try Self.sqlite3(file, "SELECT count(*) FROM statuses")
        let read = await harness.run("sql \"SELECT count(*) AS n FROM statuses\" --json --archive \(file)")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("\"n\" : \(count)") || read.stdout.contains("\"n\": \(count)"), "\(read.stdout)")
        for write in ["DELETE FROM statuses", "DROP TABLE statuses", "PRAGMA user_version = 9",
                      "ATTACH '/tmp/x.sqlite' AS x"] {
            let refused = await harness.run("sql \"\(write)\" --archive \(file)")
            #expect(refused.status != 0, "\(write) was not refused")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses") == count)
        #expect(try Self.sqlite3(file, "PRAGMA user_version") == "4")
    }

    @Test("a file that is not SQLite, or damaged, gets one line and is left as it was")
    func badFiles() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let folder = (Self.freshFile() as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = folder + "/notes.txt"
        let words = String(repeating: "not a database at all\n", count: 300)
        try words.write(toFile: text, atomically: true, encoding: .utf8)
        for command in ["archive sync home --limit 1", "archive", "archive search word", "sql \"SELECT 1\""] {
            let run = await harness.run("\(command) --archive \(text)")
            #expect(run.status != 0)
            #expect(run.stderr.contains("is not an SQLite file"), "\(command): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == words)

        // A real archive with its pages overwritten in the middle.
        let damaged = folder + "/damaged.sqlite"
        _ = await harness.run("archive sync public --limit 40 --archive \(damaged)")
        _ = try Self.sqlite3(damaged, "PRAGMA wal_checkpoint(TRUNCATE)")
        let handle = try #require(FileHandle(forUpdatingAtPath: damaged))
        try handle.seek(toOffset: 4096 * 3)
        handle.write(Data(repeating: 0x5A, count: 4096 * 4))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: damaged))
        let run = await harness.run("archive search concert --archive \(damaged)\narchive sync public --limit 5 --archive \(damaged)")
        #expect(run.status != 0)
        #expect(run.stderr.contains("damaged") || run.stderr.contains("malformed"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == before)

        // A read-only folder: one line, nothing made.
        let locked = folder + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o500])
        if getuid() != 0 {
            let refused = await harness.run("archive sync home --limit 1 --archive \(locked)/archive.sqlite")
            #expect(refused.stderr.contains("cannot make"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: locked + "/archive.sqlite"))
        }
    }

    @Test("a file written by a newer wsh is read but not written")
    func newerSchemaIsReadOnly() async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        _ = await harness.run("archive sync public --limit 20 --archive \(file)")
        _ = try Self.sqlite3(file, "PRAGMA user_version = 99")
        let count = try Self.sqlite3(file, "SELECT count(*) FROM statuses")
        let search = await harness.run("archive search concert --archive \(file)")
        #expect(search.status == 0, "\(search.stderr)")
        let sync = await harness.run("archive sync public --limit 20 --archive \(file)")
        #expect(sync.status != 0)
        #expect(sync.stderr.contains("newer wsh"), "\(sync.stderr)")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses") == count)
    }

    @Test("a file of an older schema (2, before 3 and 4) is migrated when a sync opens it, and keeps every row")
    func olderSchemaIsMigrated() async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        _ = await harness.run("archive sync public --limit 40 --archive \(file)")
        // What a wsh of schema 2 wrote: an index on the author, none of 4's tables, no deleted_by_me.
        _ = try Self.sqlite3(file, """
            DROP TABLE relations; DROP TABLE relation_syncs; DROP TABLE servers; DROP TABLE lists; DROP TABLE list_members;
            DROP TABLE notifications; DROP TABLE media_files; DROP TABLE expire_items; DROP TABLE expire_runs;
            ALTER TABLE statuses DROP COLUMN deleted_by_me; ALTER TABLE statuses DROP COLUMN history_edited_at;
            CREATE INDEX statuses_author ON statuses (author);
            ALTER TABLE search_words RENAME TO search_words_4;
            CREATE VIRTUAL TABLE search_words USING fts5 (words, tokenize = 'unicode61');
            INSERT INTO search_words (rowid, words) SELECT rowid, words FROM search_words_4;
            DROP TABLE search_words_4;
            PRAGMA user_version = 2
            """)
        let counts = "SELECT (SELECT count(*) FROM statuses) || ' ' || (SELECT count(*) FROM media) || ' ' || "
            + "(SELECT count(*) FROM tags) || ' ' || (SELECT count(*) FROM source_statuses) || ' ' || "
            + "(SELECT count(*) FROM search_words) || ' ' || (SELECT count(*) FROM search) || ' ' || "
            + "(SELECT group_concat(rowid || id, ',') FROM statuses)"
        let before = try Self.sqlite3(file, counts)
        let sync = await harness.run("archive search concert --archive \(file)\narchive sync following --archive \(file)\n"
                                     + "archive search 天 --archive \(file)")
        #expect(sync.stdout.contains("«天»"), "a one-character word is found through the new table: \(sync.stdout)")
        #expect(try Self.sqlite3(file, "SELECT sql LIKE '%prefix = ''1 2''%' FROM sqlite_schema WHERE name = 'search_words'") == "1")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try Self.sqlite3(file, "PRAGMA user_version") == "4")
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM sqlite_schema WHERE name = 'statuses_author'") == "0")
        #expect(try Self.sqlite3(file, counts) == before)
        #expect(try Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE deleted_by_me IS NOT NULL") == "0")
        #expect(try Self.sqlite3(file, "SELECT count(*) > 0 FROM relations WHERE kind = 'following'") == "1")
    }

    @Test("a sync keeps each status's media with alt text, hashtags and mentions, as the server's JSON lists them")
    func partsOfStatuses() async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let sync = await harness.run("archive sync public --limit 400 --archive \(file)")
        #expect(sync.status == 0, "\(sync.stderr)")
        for (table, fromJSON) in [
            ("media", "SELECT count(*) FROM statuses s, json_each(s.json, '$.media_attachments')"),
            ("tags", "SELECT count(DISTINCT s.rowid || ' ' || lower(json_extract(t.value, '$.name'))) FROM statuses s, json_each(s.json, '$.tags') t"),
            ("mentions", "SELECT count(*) FROM statuses s, json_each(s.json, '$.mentions')"),
        ] {
            let kept = try Self.sqlite3(file, "SELECT count(*) FROM \(table)")
            #expect(kept == (try Self.sqlite3(file, fromJSON)), "\(table)")
            #expect(Int(kept) ?? 0 > 0, "the sandbox's public timeline has \(table)")
        }
        let alt = try Self.sqlite3(file, """
            SELECT count(*) FROM media m JOIN statuses s ON s.rowid = m.status
            WHERE m.alt IS json_extract(s.json, '$.media_attachments[' || m.position || '].description')
              AND m.url = json_extract(s.json, '$.media_attachments[' || m.position || '].url')
            """)
        #expect(alt == (try Self.sqlite3(file, "SELECT count(*) FROM media")))
    }

    @Test("two syncs at once: the second waits for the first, and the file holds both without duplicates")
    func concurrentSyncs() async throws {
        let file = Self.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let other = try await ShellHarness(dialect: .mastodon)
        async let one = harness.run("archive sync public --limit 200 --archive \(file)")
        async let two = other.run("archive sync public --limit 200 --archive \(file)")
        let (a, b) = await (one, two)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try Self.sqlite3(file, "PRAGMA integrity_check") == "ok")
        #expect(try Self.sqlite3(file, "SELECT count(*) - count(DISTINCT server || account || id) FROM statuses") == "0")
    }
}
