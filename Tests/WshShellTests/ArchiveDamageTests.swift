import Foundation
import Testing
@testable import WshShell

/// An archive whose bytes were changed in the middle (a bad disk, a copy cut
/// and patched): SQLite's own check finds a broken page. Every command that
/// opens it says so in one line, names how to recover, and leaves it as it was.
@Suite("A damaged archive", .serialized)
struct ArchiveDamageTests {
    /// A synced archive with one page in the middle overwritten, so that `PRAGMA integrity_check` fails.
    static func damagedArchive(_ harness: ShellHarness) async throws -> String {
        let file = ArchiveTranscriptTests.freshFile()
        let made = await harness.run("archive sync public --limit 200 --archive \(file)")
        try #require(made.status == 0, "\(made.stderr)")
        _ = try ArchiveTranscriptTests.sqlite3(file, "PRAGMA wal_checkpoint(TRUNCATE)")
        // Read once whole: the check passes and its stamp is kept, which must not hide what comes next.
        let read = await harness.run("archive search the --archive \(file)")
        try #require(read.status == 0, "\(read.stderr)")
        try #require(FileManager.default.fileExists(atPath: file + "-checked"))
        let pageSize = Int(try ArchiveTranscriptTests.sqlite3(file, "PRAGMA page_size")) ?? 16384
        let pages = Int(try ArchiveTranscriptTests.sqlite3(file, "PRAGMA page_count")) ?? 0
        try #require(pages > 8)
        // The first page from the middle on whose header, overwritten, SQLite's check reports.
        for page in (pages / 2)..<pages {
            let original = try Data(contentsOf: URL(fileURLWithPath: file))
            let handle = try #require(FileHandle(forUpdatingAtPath: file))
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            handle.write(Data([0x0D, 0xFF, 0xFF, 0x00, 0x07, 0xFF, 0xFF, 0x10]))
            try handle.close()
            if try ArchiveTranscriptTests.sqlite3(file, "PRAGMA quick_check") != "ok" { return file }
            try original.write(to: URL(fileURLWithPath: file))
        }
        Issue.record("no page of \(file) broke the check")
        return file
    }

    @Test("archive search, sql, archive and archive sync refuse it in one line; the file is untouched")
    func refusedUntouched() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        let file = try await Self.damagedArchive(harness)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        for command in ["archive search the", "sql \"SELECT count(*) FROM statuses\"", "archive",
                        "archive sync public --limit 20"] {
            let run = await harness.run(command + " --archive \(file)")
            #expect(run.stderr.contains("\(file) is damaged"), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("sqlite3 \(file) .recover"), "\(command): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(command): \(run.stderr)")
            #expect(run.status != 0, "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: file + "-wal"))) ?? Data()
        #expect(wal.isEmpty, "a sync wrote \(wal.count) bytes into the damaged file's log")
    }
}
