import Foundation
import Testing
import WshText
import WshViewModel
@testable import WshShell
@testable import WshWeb

/// wsh's JSON value (this module has a JSONValue of its own, for shapes).
typealias WebJSON = WshText.JSONValue

/// The page's rule for `snapshot`, `state` and `history` events (classroom.js:
/// applySnapshot, applyState, applyHistory), in Swift: each line's state and
/// history rebuilt from the events a page holds, oldest first.
struct PageReplay {
    struct History: Equatable {
        var operations: [String]
        var position: Int
    }

    private var state: [String: WebJSON]?
    private var history: History?
    /// Per line: the state and history it left, where it changed them.
    private(set) var stateAfter: [Int: [String: WebJSON]] = [:]
    private(set) var historyAfter: [Int: History] = [:]
    /// The state and history after the last event.
    var current: (state: [String: WebJSON]?, history: History?) { (state, history) }

    init(_ events: [ClassroomLog.Event] = []) {
        for event in events { apply(event) }
    }

    /// Applies one more event, newer than those before.
    mutating func apply(_ event: ClassroomLog.Event) {
        guard let object = WebJSON.parse(Data(event.json.utf8))?.object, let line = object["line"]?.int else { return }
        switch object["type"]?.string {
        case "snapshot":
            state = object["state"]?.object
            history = object["history"]?.object.map(Self.whole)
        case "state":
            if let whole = object["state"]?.object {
                state = whole
            } else if let patch = object["patch"]?.object, let base = state {
                state = base.merging(patch) { $1 }
            } else {
                state = nil
            }
            stateAfter[line] = state
        case "history":
            if let operations = object["operations"] {
                history = Self.whole(["operations": operations, "position": object["position"] ?? .null])
            } else if let base = history, let drop = object["drop"]?.int, let keep = object["keep"]?.int {
                let added = (object["add"]?.array ?? []).map(Self.describe)
                history = History(operations: Array(base.operations[drop..<drop + keep]) + added,
                                  position: object["position"]?.int ?? -1)
            } else {
                history = nil
            }
            historyAfter[line] = history
        default:
            return
        }
    }

    static func whole(_ object: [String: WebJSON]) -> History {
        History(operations: (object["operations"]?.array ?? []).map(describe), position: object["position"]?.int ?? -1)
    }

    /// An operation as the page lists it: its text and what undo sends (applied follows from the position).
    static func describe(_ operation: WebJSON) -> String {
        (operation["text"]?.string ?? "?") + (operation["remote"]?.string.map { " ⇅ " + $0 } ?? "")
    }

    static func expected(_ history: HistoryDocument) -> History {
        History(operations: history.operations.map { $0.text + ($0.remote.map { " ⇅ " + $0 } ?? "") },
                position: history.position)
    }
}

@Suite("the page's state and history, sent as changes")
struct WebDocumentsTests {
    private static func operation(_ n: Int, applied: Bool = true) -> HistoryDocument.Operation {
        .init(text: "fetch \(n % 3) → \(n % 3) statuses", remote: n % 5 == 0 ? "undo unfavourites \(n)" : nil, applied: applied)
    }

    @Test("a history that grows, is undone and redone, branches and drops its oldest at the cap: each change rebuilt exactly, in few operations")
    func historyChanges() {
        var documents = WebDocuments()
        var made: [ClassroomLog.Event] = []
        var replay = PageReplay()
        var applied: [Int] = []
        var undone: [Int] = []
        var next = 0
        var sizes: [Int] = []
        func send() {
            let history = HistoryDocument(operations: applied.map { Self.operation($0) } + undone.map { Self.operation($0, applied: false) },
                                          position: applied.count)
            var members = documents.history(history)
            sizes.append((members["add"]?.array ?? members["operations"]?.array ?? []).count)
            members["type"] = "history"
            members["line"] = .integer(Int64(made.count + 1))
            made.append(.init(id: made.count + 1, json: String(decoding: WebJSON.object(members).encoded(), as: UTF8.self)))
            replay.apply(made[made.count - 1])
            #expect(replay.current.history == PageReplay.expected(history), "after step \(made.count)")
        }
        let cap = 40
        for step in 0..<300 {
            switch step % 10 {
            case 3, 4: if let last = applied.popLast() { undone.insert(last, at: 0) }       // undo
            case 5: if !undone.isEmpty { applied.append(undone.removeFirst()) }              // redo
            default:                                                                         // a new operation
                undone = []
                applied.append(next)
                next += 1
                if applied.count > cap { applied.removeFirst() }                             // the cap drops the oldest
            }
            send()
        }
        // Whole once, then a change carries one operation at most (the one redo cut for a new one, or the new one).
        #expect(sizes[0] == 1)
        #expect(sizes.dropFirst().allSatisfy { $0 <= 1 })
    }

    @Test("a session through WebView into a small window: it begins at a snapshot, and every line's state and history rebuilt from it are the shell's")
    func replayedFromTheWindow() async throws {
        let harness = try await ShellHarness()
        let log = ClassroomLog(limit: 600)
        let view = WebView(log: log)
        let recorder = RecordingSubscriber()
        harness.shell.stream.subscribe(view)
        harness.shell.stream.subscribe(recorder)
        harness.shell.stream.watchClosely(true)
        harness.shell.publishStateIfWatched(after: "web on")
        let cycle = ["fetch 3", "detail 1", "back", "favorite 1", "undo", "redo", "more", "echo hi"]
        let lines = (0..<(WebDocuments.snapshotEvery * 3 + 30)).map { cycle[$0 % cycle.count] }
        _ = await harness.run(lines.joined(separator: "\n"), interactive: true)

        // What the shell published, by line.
        var line = 0
        var states: [Int: [String: WebJSON]] = [:]
        var histories: [Int: PageReplay.History] = [:]
        for event in recorder.events.withLock({ $0 }) {
            switch event {
            case .line: line += 1
            case .state(let document, _): states[line] = WebView.value(document).object
            case .history(let history): histories[line] = PageReplay.expected(history)
            default: break
            }
        }
        let events = log.events
        // The window trimmed, and begins at a snapshot.
        #expect(events.first?.id ?? 0 > 1)
        #expect(events.first?.json.contains("\"type\":\"snapshot\"") == true)
        let replay = PageReplay(events)
        let first = try #require(WebJSON.parse(Data(events[0].json.utf8))?["line"]?.int)
        var compared = 0
        for (number, state) in states where number >= first {
            #expect(replay.stateAfter[number] == state, "line \(number)")
            compared += 1
        }
        for (number, history) in histories where number >= first {
            #expect(replay.historyAfter[number] == history, "line \(number)")
            compared += 1
        }
        #expect(compared > 10)
        // Changes after the first whole ones: a state event is a patch, a history event carries no list.
        #expect(events.contains { $0.json.contains("\"type\":\"state\"") && $0.json.contains("\"patch\"") })
        #expect(!events.contains { $0.json.contains("\"type\":\"history\"") && $0.json.contains("\"operations\"") })

        // A fresh page is sent from a snapshot too, and so is a page scrolling back.
        let reader = log.listen(after: nil)
        guard case .events(let sent) = await reader.next(upTo: 1 << 24) else { Issue.record("nothing sent"); return }
        reader.cancel()
        #expect(sent.first?.json.contains("\"type\":\"snapshot\"") == true)
        let older = log.events(before: events[events.count - 5].id, count: 3)
        #expect(older.first?.json.contains("\"type\":\"snapshot\"") == true)
    }
}
