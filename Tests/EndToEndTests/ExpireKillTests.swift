import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// `expire --confirmed` killed with SIGKILL after its first deletion, run as
/// a user runs it: a second run goes on with the run's remaining statuses,
/// and ends with exactly the statuses the dry run listed deleted on the
/// server, each of them in the archive, marked, its JSON kept.
@Suite("expire survives kill -9, end to end")
struct ExpireKillTests {
    private static let sqlite3 = ArchiveKillTests.sqlite3

    /// The ids a dry run lists and keeps (`expire … --json`), into a file of its own.
    private static func dryRun(_ base: [String], _ command: String, file: String, token: String) async throws
        -> (listed: [String], kept: Set<String>) {
        let run = try await WshProcess.run(["--archive", file] + base + [command + " --json"], environment: ["WSH_ACCESS_TOKEN": token])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let listed = (document["listed"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let kept = (document["keptStatuses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        return (listed, Set(kept))
    }

    @Test("kill -9 after the first deletion, then a second run: exactly the listed statuses deleted, every one in the archive")
    func killAndResume() async throws {
        // Slow answers, so the deletions are still going when it is killed.
        var configuration = SandboxConfiguration()
        configuration.faults.latencyMilliseconds = 120
        let sandbox = try await SandboxServer.start(configuration)
        let folder = WshProcess.temporaryDirectory()
        let file = folder + "/archive.sqlite"
        let base = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon", "-c"]
        let rules = "expire --older-than 30d --keep-if-favourites 1000"
        let before = try await Self.dryRun(base, rules, file: folder + "/before.sqlite", token: sandbox.token)
        #expect(before.listed.count > 5 && !before.kept.isEmpty)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = ["--archive", file] + base + [rules + " --confirmed"]
        process.environment = WshProcess.childEnvironment(["WSH_ACCESS_TOKEN": sandbox.token])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The event: the first deletion marked, read as another tool reads the file.
        while process.isRunning, (Int(Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items")) ?? 0) < 1 {
            usleep(10_000)
        }
        #expect(process.isRunning, "expire ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(Self.sqlite3(file, "PRAGMA integrity_check") == "ok")
        let listed = Self.sqlite3(file, "SELECT group_concat(s.id, ' ') FROM expire_items i JOIN statuses s ON s.rowid = i.status")
        #expect(Set(listed.split(separator: " ").map(String.init)) == Set(before.listed))
        let deletedFirst = Int(Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items")) ?? 0
        #expect(deletedFirst >= 1 && deletedFirst < before.listed.count)

        let second = try await WshProcess.run(["--archive", file] + base + [rules + " --confirmed"],
                                              environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("expire: went on with run 1 (listed \(before.listed.count) statuses, "), "\(second.stderr)")
        // Exactly the listed statuses, each in the archive, marked, with its JSON.
        #expect(Self.sqlite3(file, "SELECT count(*), count(deleted_at) FROM expire_items") == "\(before.listed.count)|\(before.listed.count)")
        let marked = Self.sqlite3(file, "SELECT group_concat(id, ' ') FROM statuses WHERE deleted_by_me IS NOT NULL AND length(json) > 100")
        #expect(Set(marked.split(separator: " ").map(String.init)) == Set(before.listed))
        #expect(Self.sqlite3(file, "SELECT count(*) FROM expire_runs WHERE finished_at IS NOT NULL") == "1")
        // On the server: none of them left, and every kept one still there.
        let after = try await Self.dryRun(base, rules, file: folder + "/after.sqlite", token: sandbox.token)
        await sandbox.stop()
        #expect(after.listed.isEmpty)
        #expect(after.kept == before.kept)
    }

    @Test("Ctrl-C between deletions: one line, exit 130, what was deleted is marked, and a second run finishes the run")
    func interruptAndResume() async throws {
        var configuration = SandboxConfiguration()
        configuration.faults.latencyMilliseconds = 120
        let sandbox = try await SandboxServer.start(configuration)
        let file = WshProcess.temporaryDirectory() + "/archive.sqlite"
        let arguments = ["--archive", file, "--api", sandbox.baseURL, "--dialect", "weibo", "-c", "expire --older-than 30d --confirmed"]
        let wsh = try RunningWsh(arguments, environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, (Int(Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items")) ?? 0) < 1 {
            usleep(10_000)
        }
        wsh.interrupt()
        let stopped = await wsh.finish()
        #expect(stopped.status == 130, "\(stopped.stderr)")
        let lines = stopped.stderr.split(separator: "\n").filter { $0.contains("interrupted") }
        #expect(lines.count == 1, "\(stopped.stderr)")
        #expect(lines.first?.contains("statuses deleted, each kept in the archive; expire --confirmed with the same options goes on") == true
                || lines.first?.contains("status deleted, each kept in the archive; expire --confirmed with the same options goes on") == true,
                "\(stopped.stderr)")
        let listed = Int(Self.sqlite3(file, "SELECT count(*) FROM expire_items")) ?? 0
        let deleted = Int(Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items")) ?? 0
        #expect(deleted >= 1 && deleted < listed)
        #expect(Self.sqlite3(file, "SELECT count(*) FROM statuses WHERE deleted_by_me IS NOT NULL") == "\(deleted)")

        let second = try await WshProcess.run(arguments, environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        await sandbox.stop()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("expire: went on with run 1 (listed \(listed) statuses, \(deleted) deleted before)"), "\(second.stderr)")
        #expect(Self.sqlite3(file, "SELECT count(deleted_at) FROM expire_items") == "\(listed)")
    }
}
