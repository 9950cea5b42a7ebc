import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// Long timeline commands at a real prompt: progress, and Ctrl-C keeping what arrived.
@Suite("Walking timelines at the prompt", .serialized)
struct TimelinePromptTests {
    @Test("fetch --all shows progress on the terminal, and Ctrl-C stops it keeping the pages that arrived")
    func fetchAllInterrupted() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(statuses: 1000))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try Tmux(command: "\(WshProcess.binary) --api \(sandbox.baseURL)",
                            environment: ["HOME": WshProcess.temporaryDirectory(), "WSH_ACCESS_TOKEN": sandbox.token,
                                          "TERM": "xterm-256color"])
        defer { tmux.kill() }
        _ = try await tmux.waitFor { $0.contains("[0]>") }
        // Every page takes a while, so Ctrl-C lands after the second page arrived, during the third.
        sandbox.setFaults(SandboxFaults(latencyMilliseconds: 400))
        try tmux.type("fetch public 100 --all")
        try tmux.send("Enter")
        #expect(await waitUntil { sandbox.stats.requests >= 3 })
        _ = try await tmux.waitFor { $0.contains("fetching public: 200 statuses") }
        try tmux.send("C-c")
        let screen = try await tmux.waitFor(timeout: 10) { $0.contains("[200]>") }
        #expect(screen.contains("interrupted: kept the 200 statuses that arrived"), "\(screen)")
        sandbox.setFaults(SandboxFaults())
        try tmux.type("history")
        try tmux.send("Enter")
        let history = try await tmux.waitFor { $0.contains("(interrupted)") }
        #expect(history.contains("fetch public --all → 200 statuses (interrupted)"))
    }
}

/// `watch --stream` at a real prompt: statuses as they are posted, and Ctrl-C ending it.
@Suite("Streaming at the prompt", .serialized)
struct StreamPromptTests {
    @Test("watch public --stream prints statuses as they are posted, and Ctrl-C ends it as one operation")
    func streamInterrupted() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(statuses: 100))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try Tmux(command: "\(WshProcess.binary) --api \(sandbox.mastodonBaseURL)",
                            environment: ["HOME": WshProcess.temporaryDirectory(), "WSH_ACCESS_TOKEN": sandbox.token,
                                          "TERM": "xterm-256color"])
        defer { tmux.kill() }
        _ = try await tmux.waitFor { $0.contains("[0]>") }
        try tmux.type("watch public --stream")
        try tmux.send("Enter")
        let poster = keepPosting(to: sandbox, as: sandbox.accounts[1])
        _ = try await tmux.waitFor(timeout: 20) { $0.contains("streamed ") }
        poster.cancel()
        try tmux.send("C-c")
        let screen = try await tmux.waitFor(timeout: 10) { $0.contains("watched public:") }
        #expect(!screen.contains("no streaming here"), "\(screen)")
        try tmux.type("history")
        try tmux.send("Enter")
        let history = try await tmux.waitFor { $0.contains("watch public --stream →") }
        #expect(history.contains("new status"))
    }
}
