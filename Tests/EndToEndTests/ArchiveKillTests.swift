import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// `archive sync` killed with SIGKILL part-way, run as a user runs it: what
/// was committed is in the file, intact, and the next sync goes on from the
/// cursors with no duplicate and no gap (it ends with exactly what one
/// uninterrupted sync keeps).
@Suite("The archive survives kill -9, end to end")
struct ArchiveKillTests {
    static func sqlite3(_ file: String, _ query: String) -> String {
        ToolOutput.of("/usr/bin/sqlite3", [file, query])
    }

    @Test("kill -9 mid-sync loses nothing committed; the next sync ends with no duplicate and no gap")
    func killAndResume() async throws {
        // Slow pages, so the sync is still walking back when it is killed.
        var configuration = SandboxConfiguration()
        configuration.faults.latencyMilliseconds = 40
        let sandbox = try await SandboxServer.start(configuration)
        let folder = WshProcess.temporaryDirectory()
        let killed = folder + "/killed.sqlite"
        let clean = folder + "/clean.sqlite"
        let environment = WshProcess.childEnvironment(["WSH_ACCESS_TOKEN": sandbox.token])
        let arguments = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon", "-c", "archive sync public"]

        let process = Process()
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = ["--archive", killed] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The event: three pages committed (each page is one transaction), read as another tool reads the file.
        while process.isRunning, (Int(Self.sqlite3(killed, "SELECT count(*) FROM statuses")) ?? 0) < 120 {}
        #expect(process.isRunning, "the sync ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(Self.sqlite3(killed, "PRAGMA integrity_check") == "ok")
        let committed = Int(Self.sqlite3(killed, "SELECT count(*) FROM statuses")) ?? 0
        #expect(committed >= 120)
        // What was committed is whole: the cursors name the oldest status kept.
        let oldest = Self.sqlite3(killed, "SELECT oldest_id FROM cursors WHERE source = 'public'")
        #expect(Self.sqlite3(killed, "SELECT min(id_number) FROM statuses") == oldest)

        let resumed = try await WshProcess.run(["--archive", killed] + arguments, environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let once = try await WshProcess.run(["--archive", clean] + arguments, environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(once.status == 0, "\(once.stderr)")
        await sandbox.stop()

        let ids = "SELECT group_concat(id, ',') FROM (SELECT id FROM statuses ORDER BY id_number)"
        #expect(Self.sqlite3(killed, "SELECT count(*) - count(DISTINCT id) FROM statuses") == "0")
        #expect(Self.sqlite3(killed, ids) == Self.sqlite3(clean, ids))
        #expect(Self.sqlite3(killed, "SELECT back_done FROM cursors") == "1")
        // The statuses the killed sync kept but had not indexed yet are indexed by the next one.
        #expect(Self.sqlite3(killed, "SELECT count(*) FROM search") == Self.sqlite3(killed, "SELECT count(*) FROM statuses"))
        #expect(Self.sqlite3(killed, "SELECT count(*) FROM search_words") == Self.sqlite3(killed, "SELECT count(*) FROM statuses"))
    }
}
