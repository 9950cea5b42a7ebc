import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell

/// The archive as one more source behind the DataControllers: `--offline`,
/// a server that cannot be reached, `archive on`, and what `trace` says.
@Suite("Timelines answered from the archive", .serialized)
struct ArchiveOfflineTests {
    /// A shell on the sandbox's API at its URL (not the embedded target), so a
    /// later shell on the same URL finds the same rows once the sandbox is gone.
    private func shell(on sandbox: SandboxServer, file: String, dialect: Connection.DialectChoice, offline: Bool = false,
                       maximumPages: Int? = nil) -> ShellHarness {
        let base = dialect == .mastodon ? sandbox.mastodonBaseURL : sandbox.baseURL
        var configuration = Shell.Configuration(target: .url(base), tokenSource: .value(Secret(sandbox.token)))
        configuration.dialect = dialect
        configuration.archivePath = file
        configuration.offline = offline
        configuration.archiveMaximumPages = maximumPages
        return ShellHarness(configuration: configuration)
    }

    @Test("--offline: fetch and more answer from the archive, say so in one line, and trace shows it",
          arguments: [Connection.DialectChoice.weibo, .mastodon])
    func offlineFetch(_ dialect: Connection.DialectChoice) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = ArchiveTranscriptTests.freshFile()
        let online = shell(on: sandbox, file: file, dialect: dialect)
        let synced = await online.run("archive sync home --limit 60")
        #expect(synced.status == 0, "\(synced.stderr)")
        let live = await online.run("fetch home 5\nlist")

        let offline = shell(on: sandbox, file: file, dialect: dialect, offline: true)
        let run = await offline.run("trace on\nfetch home 5\nlist\nmore\nlist")
        #expect(run.status == 0, "\(run.stderr)")
        // The trace lists every request a call sent: offline, none.
        #expect(!run.stderr.contains("GET "), "offline sent a request: \(run.stderr)")
        // The same five rows the server showed, then five more.
        let rows = run.stdout.split(separator: "\n").filter { $0.drop { $0 == " " }.first?.isNumber == true }
        let liveRows = live.stdout.split(separator: "\n").filter { $0.drop { $0 == " " }.first?.isNumber == true }
        #expect(Array(rows.prefix(5)) == liveRows, "\(run.stdout)")
        #expect(rows.count == 15)
        #expect(run.stderr.contains("offline: answered from the archive (5 statuses from \(file))"), "\(run.stderr)")
        #expect(run.stderr.contains("answered from the archive: no request (5 items)"), "\(run.stderr)")
        await sandbox.stop()
    }

    @Test("a server that cannot be reached: fetch home answers from the archive, and says why")
    func unreachableServer() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = ArchiveTranscriptTests.freshFile()
        let online = shell(on: sandbox, file: file, dialect: .mastodon)
        #expect(await online.run("archive sync home --limit 40").status == 0)
        await sandbox.stop()
        let run = await online.run("fetch home 10\nlist")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the server could not be reached: answered from the archive (10 statuses"), "\(run.stderr)")
        // A timeline the archive never kept still fails as it did.
        let missing = await online.run("fetch local 5")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("refused") || missing.stderr.contains("connect"), "\(missing.stderr)")
    }

    @Test("a server that cannot be reached, its API not named: the archive says which it spoke, and answers")
    func unreachableServerNotNamed() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = ArchiveTranscriptTests.freshFile()
        #expect(await shell(on: sandbox, file: file, dialect: .mastodon).run("archive sync home --limit 40").status == 0)
        await sandbox.stop()
        // A new wsh on the same URL, finding out its API as `wsh --api URL` does: it cannot ask the server.
        let later = ShellHarness(configuration: {
            var configuration = Shell.Configuration(target: .url(sandbox.mastodonBaseURL), tokenSource: .value(Secret(sandbox.token)))
            configuration.archivePath = file
            return configuration
        }())
        let run = await later.run("fetch home 10\nlist")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the server could not be reached: answered from the archive (10 statuses"), "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count >= 10, "\(run.stdout)")
        // A server the archive never kept fails as it did, naming what could not be reached.
        let elsewhere = ShellHarness(configuration: {
            var configuration = Shell.Configuration(target: .url("http://127.0.0.1:9/"), tokenSource: .value(Secret(sandbox.token)))
            configuration.archivePath = file
            return configuration
        }())
        let failed = await elsewhere.run("fetch home 3")
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("127.0.0.1"), "\(failed.stderr)")
    }

    @Test("archive on keeps each page read from the server; archive off stops")
    func archiveOnKeepsLive() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = ArchiveTranscriptTests.freshFile()
        let harness = shell(on: sandbox, file: file, dialect: .mastodon)
        let run = await harness.run("archive on\nfetch local 7\nmore\narchive off\nfetch public 3")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'local'") == "14")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM source_statuses WHERE source = 'public'") == "0")
        await sandbox.stop()
    }
}

extension ArchiveOfflineTests {
    /// A full disk, made with SQLite's `max_page_count` (the file may not grow by a page):
    /// root, as the tests may run, writes a read-only file all the same.
    @Test("archive on with a full disk: one line, once; the rows fetched are shown; keeping pauses")
    func archiveOnFullDisk() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let file = ArchiveTranscriptTests.freshFile()
        let harness = shell(on: sandbox, file: file, dialect: .mastodon, maximumPages: 1)
        // Forty statuses' JSON does not fit in the pages the new file has.
        let run = await harness.run("archive on\nfetch local 40\nlist\nmore\nfetch public 3")
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").filter { $0.drop { $0 == " " }.first?.isNumber == true }
        #expect(rows.count == 40, "\(run.stdout)")
        let said = run.stderr.components(separatedBy: "archive on: the disk holding \(file) is full").count - 1
        #expect(said == 1, "\(run.stderr)")
        #expect(run.stderr.contains("keeping timelines is paused (archive on starts it again)"), "\(run.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "0")
        await sandbox.stop()
    }
}

/// `archive sync notifications`: the statuses notifications carry.
@Suite("Syncing notifications into the archive")
struct ArchiveNotificationsTests {
    @Test("the statuses of the account's notifications are kept, and a second sync adds none twice")
    func syncNotifications() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let shown = await harness.run("notifications 80 --all --limit 200")
        #expect(shown.status == 0, "\(shown.stderr)")
        let first = await harness.run("archive sync notifications --archive \(file)")
        #expect(first.status == 0, "\(first.stderr)")
        let kept = Int(try ArchiveTranscriptTests.sqlite3(
            file, "SELECT count(*) FROM source_statuses WHERE source = 'notifications'")) ?? 0
        #expect(kept > 0)
        let second = await harness.run("archive sync notifications --archive \(file)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains(", 0 new"), "\(second.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) - count(DISTINCT id) FROM statuses") == "0")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT back_done FROM cursors WHERE source = 'notifications'") == "1")
    }
}
