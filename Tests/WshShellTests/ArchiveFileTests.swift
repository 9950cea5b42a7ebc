import Foundation
import Testing
import WshSandbox
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

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("every documented query runs in sqlite3 and in Python, and finds rows where it should")
    func documentedQueriesRun() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let synced = await harness.run("""
            post "an edited post about the concert"
            archive sync public home --limit 200 --archive \(file)
            fetch home 3
            edit 1 an edited post about the concert, edited
            archive sync home --limit 40 --archive \(file)
            """)
        #expect(synced.status == 0, "\(synced.stderr)")
        let queries = try Self.documentedQueries()
        #expect(queries.count >= 9)
        for query in queries {
            let cli = try Self.run("/usr/bin/sqlite3", ["-bail", file, query])
            #expect(cli.status == 0, "sqlite3: \(query)\n\(cli.output)")
            let python = try Self.run("/usr/bin/python3", ["-c", """
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
