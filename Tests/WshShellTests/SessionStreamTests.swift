import Foundation
import Synchronization
import Testing
import WshSandbox
@testable import WshShell
@testable import WshWeb

/// A View that writes down every event the session publishes.
final class RecordingSubscriber: SessionSubscriber {
    let events = Mutex<[SessionEvent]>([])

    func receive(_ event: SessionEvent) {
        events.withLock { $0.append(event) }
    }

    /// Each event as one short word, in order: what a test compares.
    var words: [String] {
        events.withLock { events in
            events.map { event in
                switch event {
                case .line(let line): "line \(line.text)"
                case .inputStarted(let command, _, _): "input \(command)"
                case .dataController(let call): call.source == .cache ? "cache" : "request"
                case .changed(let change, _): "change \(TraceView.describe(change))"
                case .inputEnded(let end): end.failure.map { "failed \($0)" } ?? "ended"
                case .rendered(let view, _, let onTerminal): "rendered \(view)\(onTerminal ? "" : " (page)")"
                case .output(_, let isError): isError ? "stderr" : "stdout"
                case .state: "state"
                case .history: "history"
                case .lineEnded(let status, _): "done \(status)"
                case .lesson: "lesson"
                case .branch: "branch"
                }
            }
        }
    }
}

/// The one stream of what happened: every View hears the same events in the
/// same order, the terminal Views render from it (not from the tracer), and
/// the classroom page's copy holds the trace's vocabulary with no secret in it.
@Suite("the session's stream", .serialized)
struct SessionStreamTests {
    @Test("an interactive fetch and detail reach a subscriber in order: the line, the input, the request or cache, the change, the View, the end")
    func order() async throws {
        let harness = try await ShellHarness()
        let recorder = RecordingSubscriber()
        harness.shell.stream.subscribe(recorder)
        let transcript = await harness.run("fetch 2\ndetail 1", interactive: true)
        #expect(transcript.status == 0)
        #expect(recorder.words == [
            "line fetch 2", "input fetch 2", "change [loading]", "request", "change [loading, rows, history]",
            "rendered TimelineListView (2 rows)", "ended", "done 0",
            "line detail 1", "input detail 1", "change [loading]", "cache", "change [loading, screen, history]",
            "rendered StatusDetailView", "ended", "done 0",
        ])
        // The terminal printed what the stream says it rendered.
        #expect(transcript.stdout.contains("@") && transcript.stdout.contains("likes"))
    }

    @Test("a script shows no rows, so only a close watcher (the page) is sent the screen, rendered for it alone")
    func scriptScreens() async throws {
        let harness = try await ShellHarness()
        let recorder = RecordingSubscriber()
        harness.shell.stream.subscribe(recorder)
        _ = await harness.run("fetch 2")
        #expect(!recorder.words.contains { $0.hasPrefix("rendered") })
        harness.shell.stream.watchClosely(true)
        let transcript = await harness.run("fetch 2")
        #expect(transcript.stdout.isEmpty)
        #expect(recorder.words.contains("rendered TimelineListView (2 rows) (page)"))
        #expect(recorder.words.suffix(3) == ["state", "history", "done 0"])
    }

    @Test("a failed input renders nothing and says why; the trace heard the same failure")
    func failure() async throws {
        let harness = try await ShellHarness()
        let recorder = RecordingSubscriber()
        harness.shell.stream.subscribe(recorder)
        let transcript = await harness.run("fetch 2\ndetail 9", interactive: true)
        #expect(transcript.stderr.contains("no row 9"))
        let words = recorder.words
        let failed = try #require(words.firstIndex { $0.hasPrefix("failed") })
        #expect(words[failed].contains("no row 9"))
        #expect(!words[failed...].contains { $0.hasPrefix("rendered") })
        #expect(words.last == "done 1")
    }

    @Test("the page's events: the trace's lanes (with the sandbox route), the rows added, the history after undo, and no token")
    func webVocabulary() async throws {
        let harness = try await ShellHarness()
        let log = ClassroomLog()
        let view = WebView(log: log)
        view.secrets = [harness.sandbox.token]
        harness.shell.stream.subscribe(view)
        harness.shell.stream.watchClosely(true)
        harness.shell.console.tee = { [stream = harness.shell.stream] text, isError in
            stream.publish(.output(text: text, isError: isError))
        }
        let transcript = await harness.run("fetch 3\ndetail 1\nfavorite 1\nundo\necho \(harness.sandbox.token)", interactive: true)
        #expect(transcript.status == 0)
        let objects = log.events.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any]
        }
        func of(_ type: String, line: Int) -> [[String: Any]] {
            objects.filter { $0["type"] as? String == type && $0["line"] as? Int == line }
        }
        let lanes = of("layer", line: 1).map { "\($0["layer"]!) \($0["event"]!)" }
        #expect(lanes == ["ViewModel input", "ViewModel change", "DataController call", "Request request", "Server route",
                          "Model decoded", "ViewModel change", "View rendered", "Shell done"])
        let request = try #require(of("layer", line: 1).first { $0["layer"] as? String == "Request" })
        #expect((request["detail"] as? String)?.contains("statuses/public_timeline.json?count=3") == true)
        let route = try #require(of("layer", line: 1).first { $0["layer"] as? String == "Server" })
        #expect(route["detail"] as? String == "WeiboAPI GET /2/statuses/public_timeline.json")
        let state = try #require(of("state", line: 1).first)
        #expect(((state["diff"] as? [String: Any])?["rows_added"] as? [String])?.count == 3)
        // The history as the page rebuilds it (after the first, each is sent as what changed: WebDocuments).
        let history = try #require(PageReplay(log.events).historyAfter[4])
        #expect(history.position == 2 && history.operations.count == 3)
        #expect(history.operations[2].contains("undo unfavourites"))
        #expect(of("history", line: 4).first?["add"] as? [Any] != nil)
        // The token the shell echoed reaches the page masked, like the terminal's copy.
        #expect(!log.events.contains { $0.json.contains(harness.sandbox.token) })
        #expect(of("output", line: 5).contains { ($0["text"] as? String) == "***\n" })
    }

    @Test("each DataController event names its place in wsh's source, and a request its exchange, masked")
    func webSourcePlaces() async throws {
        let harness = try await ShellHarness()
        let log = ClassroomLog()
        let view = WebView(log: log)
        view.secrets = [harness.sandbox.token]
        harness.shell.stream.subscribe(view)
        let transcript = await harness.run("fetch 3\ndetail 1", interactive: true)
        #expect(transcript.status == 0)
        let layers = log.events.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "layer" }
        let call = try #require(layers.first { $0["layer"] as? String == "DataController" && $0["event"] as? String == "call" })
        let source = try #require(call["source"] as? [String: Any])
        let file = try #require(source["file"] as? String), line = try #require(source["line"] as? Int)
        #expect(file == "Sources/WshDataController/ModelRelated/StatusDataController.swift")
        #expect((source["function"] as? String)?.lowercased().contains("timeline") == true)
        // The line is the call of the traced funnel, in the file as it is in the repository.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[line - 1].contains("api.run("))
        // The request and the Model's values came from the same call; the detail's cache hit names its own place.
        for layer in layers where ["Request", "Model"].contains(layer["layer"] as? String) && (layer["line"] as? Int) == 1 {
            #expect((layer["source"] as? [String: Any])?["line"] as? Int == line)
        }
        // The sandbox's route is the Server's, not the DataController's code.
        #expect(layers.contains { $0["layer"] as? String == "Server" && $0["source"] == nil })
        let request = try #require(layers.first { $0["layer"] as? String == "Request" })
        let exchange = try #require(request["exchange"] as? [String: Any])
        #expect(exchange["method"] as? String == "GET")
        #expect(exchange["status"] as? Int == 200)
        #expect((exchange["url"] as? String)?.contains("public_timeline.json?count=3") == true)
        let headers = try #require(exchange["headers"] as? [[String]])
        #expect(headers.contains { $0.first == "content-type" })
        #expect((exchange["body"] as? String)?.isEmpty == false)
        #expect(!log.events.contains { $0.json.contains(harness.sandbox.token) })
    }
}
