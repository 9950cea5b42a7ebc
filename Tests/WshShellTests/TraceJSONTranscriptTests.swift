import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// `trace on --json`: one JSON object per layer event on stderr.
@Suite("trace on --json: the trace as data")
struct TraceJSONTranscriptTests {
    /// One event line of stderr.
    struct Event: Decodable, Equatable {
        var command: String
        var layer: String
        var event: String
        var detail: String
        var ms: Double?
    }

    /// The events `command` produced, from the JSON lines of `stderr` (other lines are notes).
    func events(_ stderr: String, of command: String) throws -> [Event] {
        try stderr.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            try JSONDecoder().decode(Event.self, from: Data(line.utf8))
        }.filter { $0.command == command }
    }

    @Test("fetch: a Request event with method, URL and status, the Model's decoded count, the View rendered")
    func fetchEvents() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("trace on --json\nfetch 3", interactive: true)
        #expect(run.status == 0)
        let events = try events(run.stderr, of: "fetch 3")
        #expect(events.first == Event(command: "fetch 3", layer: "Shell", event: "command", detail: "fetch 3"))
        #expect(events.last?.layer == "Shell" && events.last?.event == "done")
        let request = try #require(events.first { $0.layer == "Request" })
        #expect(request.event == "request")
        #expect(request.detail.hasPrefix("GET \(harness.sandbox.baseURL)statuses/public_timeline.json?count=3"), "\(request.detail)")
        #expect(request.detail.contains(" → 200 · "))
        #expect(request.ms != nil)
        #expect(events.contains { $0.layer == "Model" && $0.event == "decoded" && $0.detail == "3 items" })
        #expect(events.contains { $0.layer == "View" && $0.event == "rendered" && $0.detail.hasPrefix("TimelineListView (3 rows") })
        #expect(events.map(\.layer).allSatisfy { ["Shell", "ViewModel", "DataController", "Request", "Model", "View"].contains($0) })
        #expect(!run.stderr.contains(SandboxConfiguration.defaultToken))
        #expect(!run.stderr.contains("┌─ trace"))
    }

    @Test("detail 3 after a fetch: a DataController cache event and no Request event")
    func cacheHit() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("fetch 5\ntrace on --json\ndetail 3")
        #expect(run.status == 0)
        let events = try events(run.stderr, of: "detail 3")
        #expect(events.contains { $0.layer == "DataController" && $0.event == "cache" && $0.detail.contains("cache") })
        #expect(!events.contains { $0.layer == "Request" })
        #expect(events.contains { $0.layer == "View" && $0.detail == "StatusDetailView" })
    }

    @Test("undo of a read: a ViewModel change and no Request; undo of a post: the Request that deletes it")
    func undoEvents() async throws {
        let harness = try await ShellHarness()
        let read = await harness.run("fetch 2\ndetail 1\ntrace on --json\nundo")
        let undoRead = try events(read.stderr, of: "undo")
        #expect(undoRead.contains { $0.layer == "ViewModel" && $0.event == "change" && $0.detail.contains("screen") })
        #expect(!undoRead.contains { $0.layer == "Request" })
        let write = await harness.run("post 'traced and taken back'\nundo")
        #expect(write.status == 0, "\(write.stderr)")
        let undoWrite = try events(write.stderr, of: "undo")
        #expect(undoWrite.contains { $0.layer == "Request" && $0.detail.hasPrefix("POST ") && $0.detail.contains("destroy") },
                "\(undoWrite)")
    }

    @Test("api: the Request layer only, no ViewModel, DataController or Model event")
    func apiEvents() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("trace on --json\napi get statuses/public_timeline.json count=1")
        #expect(run.status == 0)
        let events = try events(run.stderr, of: "api get statuses/public_timeline.json count=1")
        #expect(events.filter { !["Shell", "View"].contains($0.layer) }.map(\.layer) == ["Request"])
        #expect(events.first { $0.layer == "Request" }?.detail.contains("→ 200") == true)
    }

    @Test("trace off stops it; trace on alone draws the trace as today; trace says which")
    func onAndOff() async throws {
        let harness = try await ShellHarness()
        let json = await harness.run("trace on --json\ntrace\ntrace off\nfetch 1")
        #expect(json.stdout == "on --json\n")
        #expect(!json.stderr.contains("{\""))
        let drawn = await harness.run("trace on\nfetch 1")
        #expect(drawn.stderr.contains("┌─ trace: fetch 1"))
        #expect(!drawn.stderr.contains("{\"command\""))
        #expect(await harness.run("trace off --json").status == 2)
    }
}
