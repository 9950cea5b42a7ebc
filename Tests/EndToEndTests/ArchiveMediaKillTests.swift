import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// `archive media` killed with SIGKILL in the middle of a file, run as a
/// user runs it: no name the folder gives a kept file holds half a file, and
/// the next run removes the temporary one and fetches exactly what is missing.
@Suite("archive media survives kill -9, end to end")
struct ArchiveMediaKillTests {
    private static func temporaryFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".part-") }
    }

    /// A synced archive, and `archive media` started on it, with the
    /// sandbox sending one avatar 16 bytes, then nothing for a minute: returned
    /// once those 16 bytes are in a temporary file, the run waiting for more.
    private static func stuckRun(_ sandbox: SandboxServer) async throws
        -> (process: Process, file: String, media: String, url: String, arguments: [String]) {
        let folder = WshProcess.temporaryDirectory()
        let file = folder + "/archive.sqlite"
        let media = folder + "/archive-media"
        let arguments = ["--archive", file, "--api", sandbox.mastodonBaseURL, "--dialect", "mastodon", "-c"]
        let synced = try await WshProcess.run(arguments + ["archive sync public --limit 40"],
                                              environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        #expect(synced.status == 0, "\(synced.stderr)")
        let url = ToolOutput.of("/usr/bin/sqlite3", [file, "SELECT json_extract(json, '$.account.avatar') FROM statuses LIMIT 1"])
        sandbox.setFaults(SandboxFaults(dripMilliseconds: 60_000, dripChunkBytes: 16, path: try #require(URL(string: url)).path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = arguments + ["archive media"]
        process.environment = WshProcess.childEnvironment(["WSH_ACCESS_TOKEN": sandbox.token])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline, !Self.temporaryFiles(media).contains(where: { name in
            ((try? FileManager.default.attributesOfItem(atPath: media + "/" + name)[.size]) as? Int) == 16
        }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(process.isRunning, "archive media ended before the file under way stalled")
        return (process, file, media, url, arguments)
    }

    @Test("kill -9 mid-file leaves only a temporary name; the next run removes it and fetches only what is missing")
    func killAndResume() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let (process, file, media, url, arguments) = try await Self.stuckRun(sandbox)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        sandbox.setFaults(SandboxFaults())
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(!Self.temporaryFiles(media).isEmpty)
        // Every file under its hash is whole, and its row says so; the one under way is not kept.
        let kept = ToolOutput.of("/usr/bin/sqlite3", [file, "SELECT sha256 FROM media_files WHERE sha256 IS NOT NULL"])
            .split(separator: "\n").map(String.init)
        for sha256 in kept {
            let path = media + "/" + sha256.prefix(2) + "/" + sha256 + ".png"
            #expect(ToolOutput.of("/usr/bin/sha256sum", [path]).hasPrefix(sha256), "\(path)")
        }
        #expect(ToolOutput.of("/usr/bin/sqlite3", [file, "SELECT sha256 IS NULL FROM media_files WHERE url = '\(url)'"]) == "1")
        let missing = Int(ToolOutput.of("/usr/bin/sqlite3", [file, "SELECT count(*) FROM media_files WHERE sha256 IS NULL"])) ?? 0
        #expect(missing > 0)

        let resumed = try await WshProcess.run(arguments + ["archive media"], environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        await sandbox.stop()
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("kept \(missing) file\(missing == 1 ? "" : "s") ("), "\(resumed.stderr)")
        #expect(resumed.stderr.contains(", 0 still missing"), "\(resumed.stderr)")
        #expect(Self.temporaryFiles(media).isEmpty)
    }

    @Test("SIGINT mid-file stops the run with its summary in one line, exit 130; the file under way is removed")
    func interruptStopsCleanly() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        let (process, file, media, _, _) = try await Self.stuckRun(sandbox)
        kill(process.processIdentifier, SIGINT)
        let stderr = try #require(process.standardError as? Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        await sandbox.stop()
        let text = String(decoding: stderr, as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(text)")
        let kept = ToolOutput.of("/usr/bin/sqlite3", [file, "SELECT count(*) FROM media_files WHERE sha256 IS NOT NULL"])
        #expect(text.contains("interrupted: kept \(kept) file"), "\(text)")
        #expect(text.contains(" still missing"), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "\(text)")
        #expect(Self.temporaryFiles(media).isEmpty)
    }
}
