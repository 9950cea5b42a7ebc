import Foundation
import Testing
import WshRequest
import WshTestSupport

/// "Replay from here" in the built `wsh --web`: the teacher's page's request
/// wakes wsh where it waits on a pipe, and a fresh embedded sandbox answers
/// the replayed commands.
@Suite("Replay from here, end to end", .serialized)
struct ReplayFromPageEndToEndTests {
    @Test("wsh --web reading a pipe: replay 3 runs steps 1–3 on a fresh sandbox, and its state is the original's after step 3")
    func replayAtPipePrompt() async throws {
        let wsh = try RunningWsh(["--web", "0"], pipedInput: true)
        let http = CurlHTTPClient()
        let announced = try #require(await wsh.line(containing: "web: http://", onStderr: true))
        let teacher = try #require(announced.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//)?.0)
        let page = String(decoding: try await http.send(HTTPRequest(url: String(teacher))).body, as: UTF8.self)
        #expect(page.contains("\"replay\":null"))
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        for line in ["fetch 5", "detail 1", "favorite 1", "set before \"$(state --json)\"", "back", "echo ran-5"] {
            wsh.send(line)
        }
        #expect(await wsh.line(containing: "ran-5") != nil)
        let answer = try await http.send(HTTPRequest(method: .post, url: teacher + "control?key=\(key)", body: Data("replay 3".utf8)))
        #expect(answer.status == 202)
        #expect(await wsh.line(containing: "replay: a fresh session runs steps 1–3 from the page", onStderr: true) != nil)
        // The replay ran before the next line wsh reads: the state is the original's after step 3 (detail open, favourited).
        wsh.send("assert \"$(state --json)\" == \"$before\"; echo same")
        wsh.closeInput()
        let run = await wsh.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("same\n"))
    }
}

/// The same at the libedit prompt, in a real terminal (tmux).
@Suite("Replay from here at the prompt", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct ReplayAtPromptTests {
    @Test("a replay request wakes the prompt: the half-typed line is dropped (it says so), steps 1–1 run afresh, the prompt comes back")
    func replayWakesPrompt() async throws {
        let tmux = try Tmux(command: "\(WshProcess.binary) --web 0",
                            environment: ["HOME": WshProcess.temporaryDirectory(), "TERM": "xterm-256color"])
        defer { tmux.kill() }
        let start = try await tmux.waitFor { $0.contains("[0]>") }
        let teacher = try #require(start.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//)?.0)
        let http = CurlHTTPClient()
        let page = String(decoding: try await http.send(HTTPRequest(url: String(teacher))).body, as: UTF8.self)
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        try tmux.type("fetch 3")
        try tmux.send("Enter")
        _ = try await tmux.waitFor { $0.contains("[3]>") }
        try tmux.type("more")
        try tmux.send("Enter")
        _ = try await tmux.waitFor { $0.contains("[6]>") }
        try tmux.type("mute some")
        _ = try await tmux.waitFor { $0.contains("[6]> mute some") }
        let answer = try await http.send(HTTPRequest(method: .post, url: teacher + "control?key=\(key)", body: Data("replay 1".utf8)))
        #expect(answer.status == 202)
        let screen = try await tmux.waitFor { screen in
            screen.contains("runs steps 1–1 from the page")
                && screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }?.contains("[3]>") == true
        }
        #expect(screen.contains("(the line being typed is dropped: the page asked for a replay)"))
        #expect(screen.contains("replay: a fresh session runs steps 1–1 from the page"))
        // The prompt works on in the fresh session.
        try tmux.type("more")
        try tmux.send("Enter")
        #expect(try await tmux.waitFor { $0.contains("[6]>") }.contains("[6]>"))
    }
}
