import Foundation
import Glibc
import Synchronization
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshShell
@testable import WshWeb

/// Issue 46 item 3, "Replay from here": the teacher's page asks for step N,
/// and the shell, between commands, starts a fresh session on a fresh sandbox
/// that runs the commands up to step N; the page's log says so with a
/// `branch` and the replayed lines, and a student's stream follows.
@Suite("Replay from here", .serialized)
struct ReplayFromPageTests {
    let http = CurlHTTPClient()

    /// The sandboxes a shell started, each fresh (the launcher `wsh` gives it starts one each time).
    final class Sandboxes: @unchecked Sendable {
        let started = Mutex<[SandboxServer]>([])
        let stopped = Mutex(0)

        func launch() throws -> (baseURL: String, token: String, stop: () -> Void) {
            let server = try SandboxServer.start(SandboxConfiguration())
            started.withLock { $0.append(server) }
            return (server.baseURL, server.token, { [self] in
                server.stop()
                stopped.withLock { $0 += 1 }
            })
        }
    }

    /// Lines written to a pipe the shell reads as its stdin, kept open between them.
    final class PipeInput: @unchecked Sendable {
        let source: StreamLineSource
        private let writeEnd: Int32
        private let closed = Mutex(false)

        init() {
            var fds: [Int32] = [0, 0]
            _ = pipe(&fds)
            // Not inherited by the processes other tests start, which would keep the input open.
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            source = StreamLineSource(name: "<stdin>", stream: fdopen(fds[0], "r"))
            writeEnd = fds[1]
        }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        }

        /// Ends the input (once).
        func close() {
            guard !closed.withLock({ (closed: inout Bool) -> Bool in defer { closed = true }; return closed }) else { return }
            Glibc.close(writeEnd)
        }
    }

    func post(_ url: String, _ body: String) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: .post, url: url, body: Data(body.utf8)))
    }

    /// The log's events as objects.
    static func objects(_ log: ClassroomLog) -> [[String: Any]] {
        log.events.compactMap { try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any] }
    }

    /// The number of `done` events of line `line` after the `branch` numbered `branch` (1: before any).
    static func done(_ log: ClassroomLog, line: Int, branch: Int = 1) -> Bool {
        var current = 1
        for object in objects(log) {
            if object["type"] as? String == "branch" { current = object["branch"] as? Int ?? 0 }
            if current == branch, object["type"] as? String == "done", object["line"] as? Int == line { return true }
        }
        return false
    }

    /// Whether an event stream's text holds a `branch`, then the line `favorite 1`, then a `done` after it.
    static func followedBranch(_ text: String) -> Bool {
        guard let branch = text.range(of: "\"type\":\"branch\""),
              let line = text[branch.upperBound...].range(of: "\"text\":\"favorite 1\"") else { return false }
        return text[line.upperBound...].contains("\"type\":\"done\"")
    }

    @Test("replay 2: a fresh sandbox runs the lines before web on and steps 1–2; its state is the original's after step 2, and the pages follow")
    func replayToStepTwo() async throws {
        let sandboxes = Sandboxes()
        let harness = ShellHarness(configuration: Shell.Configuration(
            target: .sandbox, launchSandbox: { try sandboxes.launch() }))
        defer {
            let servers = sandboxes.started.withLock { $0 }
            Thread.detachNewThread { for server in servers { server.stop() } }
        }
        // A line before the page is served: the replay runs it too, before step 1.
        #expect(await harness.run("fetch 5").status == 0)
        let shell = Unchecked(harness.shell)
        try await onOwnThread { Result { try shell.value.startWeb(port: 0) } }.get()
        let web = try #require(harness.shell.web)
        let log = web.server.log
        let page = String(decoding: try await http.send(HTTPRequest(url: web.server.teacherURL)).body, as: UTF8.self)
        #expect(page.contains("\"replay\":null") && page.contains("\"presenting\":false"))
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        let control = web.server.teacherURL + "control?key=\(key)"

        // The shell waits at a prompt fed by a pipe that stays open.
        let input = PipeInput()
        // Whatever fails below, the input ends and the loop with it.
        defer { input.close() }
        let run = Task { await harness.run(source: input.source) }
        for line in ["detail 1", "favorite 1", "set before \"$(state --json)\"", "back", "more", "set final \"$(state --json)\""] {
            input.send(line)
        }
        #expect(await waitUntil(timeout: .seconds(30)) { Self.done(log, line: 6) })
        let final = harness.shell.interpreter.variable("final")?.description
        #expect(try await post(web.server.teacherURL + "control", "replay 2").status == 403)
        #expect(try await post(control, "replay 0").status == 400)
        #expect(try await post(control, "replay x").status == 400)
        #expect(try await post(control, "next").status == 409)
        #expect(try await post(control, "replay 7").status == 409)

        // A student follows from here on, until the new branch's third line is done.
        let student = Task {
            let text = Mutex("")
            // A client of its own: one client sends one request at a time, and this one stays open.
            _ = try? await CurlHTTPClient().stream(HTTPRequest(url: web.server.studentURL + "events")) { chunk in
                let now = text.withLock { $0 += String(decoding: chunk, as: UTF8.self); return $0 }
                return !Self.followedBranch(now)
            }
            return text.withLock { $0 }
        }
        #expect(try await post(control, "replay 2").status == 202)
        #expect(await waitUntil(timeout: .seconds(30)) { Self.done(log, line: 3, branch: 2) })
        // The state the fresh session holds, then the end of the input.
        input.send("set after \"$(state --json)\"")
        input.close()
        let transcript = await run.value
        // Stopping the page ends the student's stream if it still waits.
        await onOwnThread { shell.value.stopWeb() }
        let studentSaw = await student.value

        // The log: a branch (a keyframe, line 0) with the commands, the fresh state, then the replayed lines 1–3.
        let objects = Self.objects(log)
        let branchAt = try #require(objects.firstIndex { $0["type"] as? String == "branch" })
        let branch = objects[branchAt]
        #expect(branch["branch"] as? Int == 2 && branch["from"] as? Int == 2 && branch["line"] as? Int == 0)
        #expect(branch["commands"] as? [String] == ["fetch 5", "detail 1", "favorite 1"])
        let after = objects[(branchAt + 1)...]
        let fresh = try #require(after.first { $0["type"] as? String == "state" })
        #expect(fresh["line"] as? Int == 0 && fresh["state"] != nil)
        let lines = after.filter { $0["type"] as? String == "line" }.map { "\($0["line"]!) \($0["text"]!)" }
        #expect(lines.prefix(3) == ["1 fetch 5", "2 detail 1", "3 favorite 1"])
        // Each line's done came, and succeeded.
        #expect(after.filter { $0["type"] as? String == "done" }.prefix(3).allSatisfy { $0["status"] as? Int == 0 })

        // The state the fresh session holds is the original's after step 2.
        #expect(transcript.stderr.contains("replay: a fresh session runs steps 1–2 from the page"))
        let before = try #require(harness.shell.interpreter.variable("before")?.description)
        let replayed = try #require(harness.shell.interpreter.variable("after")?.description)
        #expect(replayed == before)
        #expect(final != nil && replayed != final)
        #expect(before.contains("\"rows\""))
        // A fresh sandbox answered the replay; the one before it was stopped.
        #expect(sandboxes.started.withLock { $0.count } == 2 && sandboxes.stopped.withLock { $0 } == 1)

        #expect(Self.followedBranch(studentSaw))
    }

    @Test("a session on a live API is refused replay (409), and its teacher's page says why")
    func liveAPIRefused() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/", token: nil)
        let shell = Unchecked(harness.shell)
        try await onOwnThread { Result { try shell.value.startWeb(port: 0) } }.get()
        let web = try #require(harness.shell.web)
        let page = String(decoding: try await http.send(HTTPRequest(url: web.server.teacherURL)).body, as: UTF8.self)
        #expect(page.contains("\"replay\":\"replay needs the embedded sandbox or --replay FILE.har: this session talks to http://127.0.0.1:9/\""))
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        let answer = try await post(web.server.teacherURL + "control?key=\(key)", "replay 1")
        #expect(answer.status == 409)
        #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("replay needs the embedded sandbox or --replay FILE.har"))
        #expect(!harness.shell.web!.replay.isPending)
        await onOwnThread { shell.value.stopWeb() }
    }
}
