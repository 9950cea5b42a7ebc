import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `archive media` against the sandbox, which serves the pictures its
/// statuses show: what is kept is checked without wsh (`sha256sum`, the
/// file's bytes), and each fault a media host can have is one line.
@Suite("The archive's media", .serialized)
struct ArchiveMediaTranscriptTests {
    /// The folder beside `file`.
    static func folder(_ file: String) -> String {
        String(file.dropLast(".sqlite".count)) + "-media"
    }

    /// `sha256sum FILE`'s digest: the hash computed by another program than wsh.
    static func sha256sum(_ path: String) -> String {
        String(ToolOutput.of("/usr/bin/sha256sum", [path]).prefix(64))
    }

    /// The path of an author's avatar the kept statuses show, as the dialect writes it.
    static func avatarPath(_ file: String, _ dialect: Connection.DialectChoice) throws -> (url: String, path: String) {
        let field = dialect == .mastodon ? "$.account.avatar" : "$.user.profile_image_url"
        let url = try ArchiveTranscriptTests.sqlite3(file, "SELECT json_extract(json, '\(field)') FROM statuses LIMIT 1")
        return (url, try #require(URL(string: url)).path)
    }

    /// A fresh archive holding `limit` statuses of the public timeline, and the shell that synced it.
    static func synced(_ dialect: Connection.DialectChoice, limit: Int) async throws -> (file: String, harness: ShellHarness) {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: dialect)
        let synced = await harness.run("archive sync public --limit \(limit) --archive \(file)")
        #expect(synced.status == 0, "\(dialect): \(synced.stderr)")
        return (file, harness)
    }

    /// Makes `folder` unwritable: `chattr +i` for root (whom modes do not stop), else mode 0500.
    static func lock(_ folder: String, _ on: Bool) throws {
        if getuid() == 0 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [on ? "+i" : "-i", folder]
            try process.run()
            process.waitUntilExit()
        } else {
            try FileManager.default.setAttributes([.posixPermissions: on ? 0o500 : 0o700], ofItemAtPath: folder)
        }
    }

    @Test("attachments, avatars and emojis kept under their hash, checked by sha256sum; a second run fetches nothing",
          arguments: [Connection.DialectChoice.mastodon, .weibo])
    func keptByHash(_ dialect: Connection.DialectChoice) async throws {
        let (file, harness) = try await Self.synced(dialect, limit: 40)
        // What a run killed in the middle of a file left: a temporary name, removed by the next run.
        let folder = Self.folder(file)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let left = folder + "/.part-999999999-killed"
        #expect(FileManager.default.createFile(atPath: left, contents: Data("half a picture".utf8)))

        let first = await harness.run("archive media --archive \(file)")
        #expect(first.status == 0, "\(dialect): \(first.stderr)")
        let kept = try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM media_files WHERE sha256 IS NOT NULL")
        #expect(Int(kept) ?? 0 > 10, "\(dialect): \(first.stderr)")
        #expect(first.stderr.contains("kept \(kept) files ("), "\(first.stderr)")
        #expect(first.stderr.contains(", 0 still missing"), "\(first.stderr)")
        #expect(!first.stderr.contains("failed"), "\(first.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM media_files WHERE sha256 IS NULL") == "0")
        // Attachments (when the page had any), avatars, and for Mastodon the custom emojis its texts or accounts show.
        let kinds = try ArchiveTranscriptTests.sqlite3(file, "SELECT DISTINCT kind FROM media_files ORDER BY kind")
        #expect(kinds.contains("avatar"), "\(kinds)")
        let attachments = try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM media")
        if attachments != "0" { #expect(kinds.contains("attachment"), "\(kinds)") }
        #expect(!FileManager.default.fileExists(atPath: left))

        // Each file is where ArchiveMediaFolder says, named by the SHA-256 of its bytes, a PNG of the size noted.
        let rows = try ArchiveTranscriptTests.sqlite3(file, "SELECT sha256, bytes, type FROM media_files")
            .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        for row in rows {
            let path = folder + "/" + row[0].prefix(2) + "/" + row[0] + ".png"
            #expect(row[2] == "image/png")
            #expect(Self.sha256sum(path) == row[0], "\(path)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.count == Int(row[1]))
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
        let temporary = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".part-") }
        #expect(temporary.isEmpty, "\(temporary)")

        // Nothing missing: nothing fetched.
        let second = await harness.run("archive media --archive \(file)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("kept 0 files (0 KB), 0 still missing"), "\(second.stderr)")

        // archive alone says how much is kept.
        let summary = await harness.run("archive --archive \(file)")
        #expect(summary.stdout.contains("media: \(kept) files kept ("), "\(summary.stdout)")
        #expect(summary.stdout.contains(" · 0 missing"), "\(summary.stdout)")
    }

    @Test("files on another host than the API's go several at once, all kept")
    func otherHost() async throws {
        let (file, harness) = try await Self.synced(.mastodon, limit: 40)
        // Another sandbox is the API now: the first one, which serves the files, is another host to it.
        let other = try await ShellHarness(dialect: .mastodon)
        let kept = await other.run("archive media --archive \(file)")
        #expect(kept.status == 0, "\(kept.stderr)")
        let count = try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM media_files WHERE sha256 IS NOT NULL")
        #expect(Int(count) ?? 0 > 10)
        #expect(kept.stderr.contains("kept \(count) files ("), "\(kept.stderr)")
        #expect(kept.stderr.contains(", 0 still missing"), "\(kept.stderr)")
        withExtendedLifetime(harness) {}
    }

    @Test("a media URL that answers an HTML page with 200 is refused in one line, nothing kept; kept once it answers the picture",
          arguments: [Connection.DialectChoice.mastodon, .weibo])
    func htmlRefused(_ dialect: Connection.DialectChoice) async throws {
        let (file, harness) = try await Self.synced(dialect, limit: 20)
        let avatar = try Self.avatarPath(file, dialect)
        harness.sandbox.setFaults(SandboxFaults(failStatus: 200, failRate: 1, path: avatar.path))
        let refused = await harness.run("archive media --archive \(file)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains(", 1 failed (\(avatar.url): the server says it is text/html (it starts with <!DOCTYPE html>…)), 1 still missing"),
                "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let row = try ArchiveTranscriptTests.sqlite3(file, "SELECT sha256 IS NULL, tries, failure LIKE '%text/html%' FROM media_files WHERE url = '\(avatar.url)'")
        #expect(row == "1|1|1", "\(row)")
        let summary = await harness.run("archive --archive \(file)")
        #expect(summary.stdout.contains(" · 1 missing (archive media fetches them)"), "\(summary.stdout)")

        let again = await harness.run("archive media --archive \(file)")
        #expect(again.stderr.contains("kept 1 file ("), "\(again.stderr)")
        #expect(again.stderr.contains(", 0 still missing"), "\(again.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT failure IS NULL AND sha256 IS NOT NULL FROM media_files WHERE url = '\(avatar.url)'") == "1")
    }

    @Test("a media URL that never ends is cut after --timeout in one line; a file past --max-size is not kept")
    func endlessAndLarge() async throws {
        let (file, harness) = try await Self.synced(.mastodon, limit: 20)
        let avatar = try Self.avatarPath(file, .mastodon)
        // 16 bytes, then nothing for a minute.
        harness.sandbox.setFaults(SandboxFaults(dripMilliseconds: 60_000, dripChunkBytes: 16, path: avatar.path))
        let started = ContinuousClock.now
        let cut = await harness.run("archive media --timeout 1 --archive \(file)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(cut.stderr.contains("1 failed (\(avatar.url): no byte came for 1 s: cut, nothing kept), 1 still missing"), "\(cut.stderr)")
        let temporary = try FileManager.default.contentsOfDirectory(atPath: Self.folder(file)).filter { $0.hasPrefix(".part-") }
        #expect(temporary.isEmpty, "\(temporary)")

        let large = await harness.run("archive media --max-size 100 --archive \(file)")
        #expect(large.stderr.contains(": larger than the limit of 100 bytes (--max-size): cut, nothing kept"), "\(large.stderr)")
        #expect(large.stderr.contains("kept 0 files"), "\(large.stderr)")
    }

    @Test("a read-only media folder stops the run in one line, no try counted", arguments: [Connection.DialectChoice.mastodon, .weibo])
    func readOnlyFolder(_ dialect: Connection.DialectChoice) async throws {
        let (file, harness) = try await Self.synced(dialect, limit: 20)
        let folder = Self.folder(file)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.lock(folder, true)
        defer { try? Self.lock(folder, false) }
        let refused = await harness.run("archive media --archive \(file)")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("cannot write in \(folder) ("), "\(refused.stderr)")
        #expect(refused.stderr.contains("is the folder read-only?; kept 0 files (0 KB), "), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT sum(tries) FROM media_files") == "0")
        try Self.lock(folder, false)
        let kept = await harness.run("archive media --archive \(file)")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains(", 0 still missing"), "\(kept.stderr)")
    }
}
