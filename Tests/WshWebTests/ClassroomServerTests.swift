import Foundation
import Synchronization
import Testing
import WshRequest
@testable import WshWeb

/// The classroom page's server as a browser and a student's laptop meet it:
/// who gets the teacher's page, who gets 403, what a reconnecting page is
/// sent, and what no student's request can do.
@Suite("the classroom page's server", .serialized)
struct ClassroomServerTests {
    let http = CurlHTTPClient()

    func get(_ url: String, headers: [HTTPHeader] = []) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(url: url, headers: headers))
    }

    func post(_ url: String, _ body: String, headers: [HTTPHeader] = []) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: .post, url: url, headers: headers, body: Data(body.utf8)))
    }

    /// The text of an event stream from `url` until `enough` says so.
    func streamed(_ url: String, headers: [HTTPHeader] = [], until enough: @escaping @Sendable (String) -> Bool) async throws -> String {
        let text = Mutex("")
        _ = try await http.stream(HTTPRequest(url: url, headers: headers)) { chunk in
            let now = text.withLock { $0 += String(decoding: chunk, as: UTF8.self); return $0 }
            return !enough(now)
        }
        return text.withLock { $0 }
    }

    @Test("the teacher's page is served to this machine with a policy that runs only its own script; a wrong join key gets 403")
    func accessRules() async throws {
        let log = ClassroomLog()
        let server = try ClassroomServer.start(.init(port: 0), log: log, control: { _ in })
        defer { server.stop() }
        let page = try await get(server.teacherURL)
        #expect(page.status == 200)
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'nonce-"))
        #expect(String(decoding: page.body, as: UTF8.self).contains("\"role\":\"teacher\""))

        let student = try await get(server.studentURL)
        #expect(student.status == 200)
        let studentPage = String(decoding: student.body, as: UTF8.self)
        #expect(studentPage.contains("\"role\":\"student\"") && studentPage.contains("\"controlKey\":null"))

        let base = server.teacherURL.dropLast()
        for path in ["/join/\(String(repeating: "0", count: 32))/", "/join/", "/join", "/join/x/events", "/join/x/older"] {
            #expect(try await get(base + path).status == 403, "\(path)")
        }
    }

    @Test("the teacher's page always holds the control key; not presenting, Next and Back are 409; only the key, from this origin, steps a lesson")
    func controls() async throws {
        let heard = Mutex<[ClassroomServer.Control]>([])
        let quiet = try ClassroomServer.start(.init(port: 0), log: ClassroomLog(), control: { control in heard.withLock { $0.append(control) } })
        #expect(try await post(quiet.teacherURL + "control?key=anything", "next").status == 403)
        let quietPage = String(decoding: try await get(quiet.teacherURL).body, as: UTF8.self)
        let quietKey = try #require(quietPage.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        #expect(quietPage.contains("\"presenting\":false"))
        for action in ["next", "back"] {
            let answer = try await post(quiet.teacherURL + "control?key=\(quietKey)", action)
            #expect(answer.status == 409)
            #expect(String(decoding: answer.body, as: UTF8.self) == "no lesson is presented: nothing to step\n")
        }
        quiet.stop()

        let server = try ClassroomServer.start(.init(port: 0, presenting: true), log: ClassroomLog(),
                                               control: { control in heard.withLock { $0.append(control) } })
        defer { server.stop() }
        let page = String(decoding: try await get(server.teacherURL).body, as: UTF8.self)
        #expect(page.contains("\"presenting\":true"))
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        #expect(try await post(server.teacherURL + "control", "next").status == 403)
        #expect(try await post(server.teacherURL + "control?key=\(String(repeating: "0", count: 32))", "next").status == 403)
        #expect(try await post(server.teacherURL + "control?key=\(key)", "next",
                               headers: [HTTPHeader("Origin", "http://evil.example")]).status == 403)
        // The student's copy of the page holds no key to send.
        let student = String(decoding: try await get(server.studentURL).body, as: UTF8.self)
        #expect(!student.contains(String(key)))
        #expect(student.contains("\"controlKey\":null") && student.contains("\"presenting\":false")
                && student.contains("\"replay\":null"))
        #expect(heard.withLock { $0 }.isEmpty)

        #expect(try await post(server.teacherURL + "control?key=\(key)", "next").status == 204)
        #expect(try await post(server.teacherURL + "control?key=\(key)", "back",
                               headers: [HTTPHeader("Origin", String(server.teacherURL.dropLast()))]).status == 204)
        #expect(try await post(server.teacherURL + "control?key=\(key)", "run rm -rf").status == 400)
        #expect(heard.withLock { $0 } == [.next, .back])
    }

    @Test("replay N: 202 and handed on when the session says it can, 409 with its reason when not, 400 for a bad N, 403 without the key")
    func replayControl() async throws {
        let heard = Mutex<[ClassroomServer.Control]>([])
        let server = try ClassroomServer.start(
            .init(port: 0), log: ClassroomLog(), control: { control in heard.withLock { $0.append(control) } },
            replayRefusal: { step in step.map { $0 > 3 ? "there is no step \($0) yet: this session has 3" : nil } ?? nil })
        defer { server.stop() }
        let page = String(decoding: try await get(server.teacherURL).body, as: UTF8.self)
        #expect(page.contains("\"replay\":null"))
        let key = try #require(page.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        #expect(try await post(server.teacherURL + "control", "replay 2").status == 403)
        #expect(try await post(server.teacherURL + "control?key=\(key)", "replay 2",
                               headers: [HTTPHeader("Origin", "http://evil.example")]).status == 403)
        for bad in ["replay 0", "replay x", "replay -1", "replay", "replay 2 3", "replay ２"] {
            #expect(try await post(server.teacherURL + "control?key=\(key)", bad).status == 400, "\(bad)")
        }
        let refused = try await post(server.teacherURL + "control?key=\(key)", "replay 4")
        #expect(refused.status == 409)
        #expect(String(decoding: refused.body, as: UTF8.self) == "there is no step 4 yet: this session has 3\n")
        #expect(heard.withLock { $0 }.isEmpty)
        #expect(try await post(server.teacherURL + "control?key=\(key)", "replay 2\n").status == 202)
        #expect(heard.withLock { $0 } == [.replay(step: 2)])

        // A session that can never replay says why on the teacher's page, and refuses every step.
        let live = try ClassroomServer.start(.init(port: 0), log: ClassroomLog(), control: { _ in },
                                             replayRefusal: { _ in "replay needs the embedded sandbox" })
        defer { live.stop() }
        let livePage = String(decoding: try await get(live.teacherURL).body, as: UTF8.self)
        #expect(livePage.contains("\"replay\":\"replay needs the embedded sandbox\""))
        let liveKey = try #require(livePage.firstMatch(of: /"controlKey":"([0-9a-f]{32})"/)?.1)
        #expect(try await post(live.teacherURL + "control?key=\(liveKey)", "replay 1").status == 409)
    }

    @Test("a page that reconnects with Last-Event-ID is sent only what followed; a fresh one the newest window")
    func catchUp() async throws {
        let log = ClassroomLog(initialWindow: 2)
        for n in 1...5 { log.append("{\"type\":\"line\",\"line\":\(n)}") }
        let server = try ClassroomServer.start(.init(port: 0), log: log, control: { _ in })
        defer { server.stop() }
        let resumed = try await streamed(server.teacherURL + "events", headers: [HTTPHeader("Last-Event-ID", "3")]) {
            $0.contains(": live")
        }
        #expect(resumed.contains("id: 4\n") && resumed.contains("id: 5\n"))
        #expect(!resumed.contains("id: 3\n") && !resumed.contains("id: 1\n"))
        let fresh = try await streamed(server.studentURL + "events") { $0.contains(": live") }
        #expect(fresh.matches(of: /id: \d+\n/).count == 2)
        #expect(fresh.contains("id: 4\n") && fresh.contains("id: 5\n"))
        // And live: an event appended while the page listens arrives with its id.
        let live = Task { try await streamed(server.teacherURL + "events", headers: [HTTPHeader("Last-Event-ID", "5")]) {
            $0.contains("id: 6\n")
        } }
        while log.listenerCount == 0 { await Task.yield() }
        log.append("{\"type\":\"done\",\"line\":5}")
        let arrived = try await live.value
        #expect(arrived.contains("data: {\"id\":6,\"type\":\"done\",\"line\":5}"))
        // Older events, for a page that scrolls back.
        let older = String(decoding: try await get(server.teacherURL + "older?before=3&count=10").body, as: UTF8.self)
        #expect(older == "[{\"id\":1,\"type\":\"line\",\"line\":1},{\"id\":2,\"type\":\"line\",\"line\":2}]")
    }
}

@Suite("the classroom page's window of events")
struct ClassroomLogTests {
    @Test("ids count up from 1 and the window keeps the newest, by count and by bytes")
    func window() {
        let log = ClassroomLog(limit: 3, byteLimit: 1 << 20)
        for n in 1...10 { #expect(log.append("{\"n\":\(n)}") == n) }
        #expect(log.events.map(\.id) == [8, 9, 10])
        #expect(log.events.last?.json == "{\"id\":10,\"n\":10}")
        #expect(log.oldestID == 8)
        #expect(log.events(before: 10, count: 1).map(\.id) == [9])
        #expect(log.events(before: 8, count: 5).isEmpty)

        let small = ClassroomLog(limit: 1000, byteLimit: 100)
        for _ in 1...50 { small.append("{\"text\":\"\(String(repeating: "x", count: 20))\"}") }
        let bytes = small.events.reduce(0) { $0 + $1.json.utf8.count }
        #expect(bytes <= 100 && small.events.count >= 2)
        #expect(small.events.last?.id == 50)
    }

    @Test("with keyframes, the trimmed window, a fresh page and a page scrolling back each begin at one: no change without its base")
    func keyframes() async {
        // A keyframe every 4th event (1, 5, 9, …), as WebView's snapshots come every so many lines.
        let log = ClassroomLog(limit: 10, byteLimit: 1 << 20, initialWindow: 3)
        for n in 1...30 { log.append("{\"n\":\(n)}", keyframe: n % 4 == 1) }
        let kept = log.events.map(\.id)
        // Each trim goes on to the next keyframe (11 events: 2…11, on to 5…11), so the window begins at one.
        #expect(kept == Array(21...30))
        // A fresh page: the newest 3 (28…30), and back to the keyframe before them.
        let reader = log.listen(after: nil)
        guard case .events(let first) = await reader.next(upTo: 1 << 20) else { Issue.record("no events"); return }
        #expect(first.map(\.id) == Array(25...30))
        reader.cancel()
        // A page that reconnects is sent what followed, keyframe or not.
        let resumed = log.listen(after: 27)
        guard case .events(let after) = await resumed.next(upTo: 1 << 20) else { Issue.record("no events"); return }
        #expect(after.map(\.id) == [28, 29, 30])
        resumed.cancel()
        // Scrolling back: the events asked for, and before them back to a keyframe.
        #expect(log.events(before: 30, count: 2).map(\.id) == Array(25...29))
        // Before the first keyframe the log keeps everything, as it always did.
        let early = ClassroomLog(limit: 100, initialWindow: 2)
        for n in 1...6 { early.append("{\"n\":\(n)}", keyframe: n == 3) }
        #expect(early.events(before: 3, count: 1).map(\.id) == [2])
        #expect(early.events(before: 6, count: 1).map(\.id) == [3, 4, 5])
    }

    @Test("the saved page carries its events inside a script a hostile text cannot close, and loads nothing")
    func savedPage() {
        let log = ClassroomLog()
        log.append("{\"type\":\"output\",\"line\":1,\"text\":\"</script><script>alert(1)</script>\"}")
        let html = ClassroomPage.saved(title: "sandbox", events: log.events)
        #expect(!html.contains("</script><script>alert(1)"))
        #expect(html.contains("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"))
        #expect(html.contains("connect-src &#39;none&#39;"))
        #expect(html.firstMatch(of: /(src|href)\s*=\s*["']?https?:/) == nil)
        // One <script> with the settings, one with the events, one with the source files they name, one with the code.
        #expect(html.components(separatedBy: "<script").count - 1 == 4)
    }
}
