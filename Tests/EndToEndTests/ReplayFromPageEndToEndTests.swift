import Foundation
import Testing
import WshRequest
import WshTestSupport

/// "Replay from here" in the built `wsh --web`: the teacher's page's request
/// wakes wsh where it waits on a pipe, and a fresh embedded sandbox answers
/// the replayed commands.
@Suite("Replay from here, end to end", .serialized)
struct ReplayFromPageEndToEndTests {
    /// The teacher's page of a `wsh` that announced it on stderr, and its control URL.
    static func control(of wsh: RunningWsh, _ http: CurlHTTPClient) async throws -> (page: String, control: String) {
        let announced = try #require(await wsh.line(containing: "web: http://", onStderr: true))
        let teacher = String(try #require(announced.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//)?.0))
        let page = String(decoding: try await http.send(HTTPRequest(url: teacher)).body, as: UTF8.self)
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        return (page, teacher + "control?key=\(key)")
    }

    /// Sends `lines` (one of them `set before "$(state --json)"` right after step `step`), asks the
    /// page for `replay step`, then checks that the fresh session's state is `$before`.
    static func replays(_ wsh: RunningWsh, lines: [String], step: Int) async throws {
        let http = CurlHTTPClient()
        let (page, control) = try await control(of: wsh, http)
        #expect(page.contains("\"replay\":null"))
        for line in lines + ["echo ran-all"] { wsh.send(line) }
        #expect(await wsh.line(containing: "ran-all") != nil)
        let answer = try await http.send(HTTPRequest(method: .post, url: control, body: Data("replay \(step)".utf8)))
        #expect(answer.status == 202)
        #expect(await wsh.line(containing: "replay: a fresh session runs steps 1–\(step) from the page", onStderr: true) != nil)
        // The replay ran before the next line wsh reads.
        wsh.send("assert \"$(state --json)\" == \"$before\"; echo same")
        wsh.closeInput()
        let run = await wsh.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("same\n"))
        #expect(!run.stderr.contains("replay: stopped"))
    }

    @Test("wsh --web reading a pipe: replay 3 runs steps 1–3 on a fresh sandbox, and its state is the original's after step 3")
    func replayAtPipePrompt() async throws {
        let wsh = try RunningWsh(["--web", "0"], pipedInput: true)
        try await Self.replays(wsh, lines: ["fetch 5", "detail 1", "favorite 1", "set before \"$(state --json)\"", "back"], step: 3)
    }

    @Test("wsh --replay FILE.har --web: replay 2 answers from the same recording, from its start (the POST again)")
    func replayFromRecording() async throws {
        let har = WshProcess.temporaryDirectory() + "/lesson.har"
        let config = WshProcess.temporaryDirectory()
        let live = try await WshProcess.run(["--dialect", "mastodon", "--record", har, "-c",
                                             "fetch 2; post hello one; post hello two; undo"],
                                            environment: ["XDG_CONFIG_HOME": config])
        #expect(live.status == 0, "\(live.stderr)")
        let wsh = try RunningWsh(["--replay", har, "--web", "0"], environment: ["XDG_CONFIG_HOME": config], pipedInput: true)
        try await Self.replays(wsh, lines: ["fetch 2", "post hello one", "set before \"$(state --json)\"", "post hello two", "undo"],
                               step: 2)
    }

    @Test("wsh --present LESSON --web: after replay 2 the presenter goes on from the lesson's third stop, in the fresh session")
    func replayWhilePresenting() async throws {
        let lesson = WshProcess.temporaryDirectory() + "/lesson.wsh"
        try "# Three rows.\nfetch 3\nmore\necho three\nmore\nstatus\n".write(toFile: lesson, atomically: true, encoding: .utf8)
        let wsh = try RunningWsh(["--present", lesson, "--web", "0"], pipedInput: true)
        let http = CurlHTTPClient()
        let (page, control) = try await Self.control(of: wsh, http)
        #expect(page.contains("\"presenting\":true") && page.contains("\"replay\":null"))
        func post(_ body: String) async throws -> Int {
            try await http.send(HTTPRequest(method: .post, url: control, body: Data(body.utf8))).status
        }
        for _ in 1...3 { #expect(try await post("next") == 204) }
        #expect(await wsh.line(containing: "three") != nil)
        #expect(try await post("replay 2") == 202)
        // The fresh session ran fetch 3 and more; the lesson stands at its third stop, echo three, again.
        for _ in 1...3 { #expect(try await post("next") == 204) }
        let rows = await wsh.line(containing: "rows  ")
        #expect(rows?.hasSuffix(" 9") == true, "\(String(describing: rows))")
        #expect(try await post("next") == 204)
        let run = await wsh.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "three\n").count == 3, "\(run.stdout)")
        #expect(run.stderr.contains("replay: a fresh session runs steps 1–2 from the page"))
    }

    @Test("wsh --api URL --web: the page says why it cannot replay, and replay is refused (409)")
    func liveAPIRefused() async throws {
        let wsh = try RunningWsh(["--api", "http://127.0.0.1:9/", "--web", "0"], pipedInput: true)
        let http = CurlHTTPClient()
        let (page, control) = try await Self.control(of: wsh, http)
        #expect(page.contains("\"replay\":\"replay needs the embedded sandbox or --replay FILE.har: this session talks to http://127.0.0.1:9/\""))
        let answer = try await http.send(HTTPRequest(method: .post, url: control, body: Data("replay 1".utf8)))
        #expect(answer.status == 409)
        wsh.closeInput()
        #expect(await wsh.finish().status == 0)
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
