import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// wsh at a prompt in tmux, talking to `sandbox`'s Weibo side, once the prompt shows.
private func prompt(at sandbox: SandboxServer) async throws -> Tmux {
    let tmux = try Tmux(command: "\(WshProcess.binary) --api \(sandbox.baseURL)",
                        environment: ["HOME": WshProcess.temporaryDirectory(), "WSH_ACCESS_TOKEN": sandbox.token,
                                      "TERM": "xterm-256color"])
    _ = try await tmux.waitFor { $0.contains("[0]>") }
    return tmux
}

/// Long timeline commands at a real prompt: progress, and Ctrl-C keeping what arrived.
@Suite("Walking timelines at the prompt", .serialized)
struct TimelinePromptTests {
    @Test("fetch --all shows progress on the terminal, and Ctrl-C stops it keeping the pages that arrived")
    func fetchAllInterrupted() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration(statuses: 1000))
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await prompt(at: sandbox)
        defer { tmux.kill() }
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

/// `fetch --all` as the rate limit runs low: it says why it slows down, whether
/// or not stderr is a terminal, before it waits.
@Suite("Walking timelines within the rate limit", .serialized)
struct TimelinePacingTests {
    /// A sandbox whose rate-limit window (Weibo's clock hour) resets in 30 minutes,
    /// with 13 calls to it: the fourth page of a walk leaves 10, a page every 3 minutes.
    private func limitedSandbox() async throws -> SandboxServer {
        try await SandboxServer.start(SandboxConfiguration(statuses: 1000, rateLimit: 13, clock: .manual()))
    }

    @Test("at the prompt, fetch --all says how it paces itself once the rate limit runs low, and Ctrl-C in the wait keeps what arrived")
    func pacingAtThePrompt() async throws {
        let sandbox = try await limitedSandbox()
        defer { Thread.detachNewThread { sandbox.stop() } }
        let tmux = try await prompt(at: sandbox)
        defer { tmux.kill() }
        try tmux.type("fetch public 100 --all")
        try tmux.send("Enter")
        let slowing = try await tmux.waitFor(timeout: 20) { $0.contains("keeps what arrived)") }
        #expect(slowing.contains("fetch: 10 requests left in the rate limit, reset in 30 min: a page every 3 min from now"
                                 + " (Ctrl-C keeps what arrived)"), "\(slowing)")
        try tmux.send("C-c")
        let screen = try await tmux.waitFor(timeout: 10) { $0.contains("[400]>") }
        #expect(screen.contains("interrupted: kept the 400 statuses that arrived"), "\(screen)")
    }

    @Test("in a script whose stderr is a pipe, fetch --all says the same before its first long wait")
    func pacingInAScript() async throws {
        let sandbox = try await limitedSandbox()
        defer { Thread.detachNewThread { sandbox.stop() } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WshProcess.binary)
        process.arguments = ["--api", sandbox.baseURL, "-c", "fetch public 100 --all"]
        process.environment = ["HOME": WshProcess.temporaryDirectory(), "WSH_ACCESS_TOKEN": sandbox.token]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Without the note the walk would go on for minutes: it is stopped after 20 s.
        let deadline = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: deadline)
        defer { deadline.cancel() }
        // Read stderr until the note's line has come whole; the walk then waits three minutes.
        var text = ""
        while !text.contains("(Ctrl-C keeps what arrived)\n") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        process.interrupt()
        process.waitUntilExit()
        #expect(text.hasPrefix("fetch: 10 requests left in the rate limit, reset in 30 min: a page every 3 min from now"
                               + " (Ctrl-C keeps what arrived)\n"), "\(text)")
        // No progress line on a pipe: the note is the first thing on stderr.
        #expect(!text.contains("\r"))
        #expect(sandbox.stats.requests <= 6)
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
