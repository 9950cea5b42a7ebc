import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
import WshText
import WshViewModel

/// `edit`, `edits`, `post --at`, `scheduled`, `unschedule` at the ViewModel
/// layer, against the sandbox's Mastodon side (and its Weibo side for the refusals).
@Suite("Editing and scheduling against the sandbox", .serialized)
struct EditSessionTests {
    /// A Mastodon session on `server`, its DataController calls traced into `traces`.
    func mastodonSession(_ server: SandboxServer, traces: RecordingObserver<TraceEvent> = RecordingObserver()) -> SessionViewModel {
        var configuration = APIConfiguration(baseURL: server.mastodonBaseURL, token: .value(Secret(server.token)))
        configuration.authScheme = MastodonDialect().authScheme
        let client = APIClient(configuration: configuration, http: CurlHTTPClient(secrets: [server.token]))
        return SessionViewModel(dataController: TimelineDataController(client: client, dialect: MastodonDialect(),
                                                                       trace: { traces.record($0) }))
    }

    /// GET `/api/v1/<path>` as account 1, as JSON.
    func read(_ server: SandboxServer, _ path: String) async throws -> Any {
        let request = HTTPRequest(url: server.mastodonBaseURL + "api/v1/" + path,
                                  headers: [HTTPHeader("Authorization", "Bearer " + server.token)])
        let response = try await CurlHTTPClient(secrets: [server.token]).send(request)
        return try JSONSerialization.jsonObject(with: response.body)
    }

    /// The status's source text on the server.
    func sourceText(_ server: SandboxServer, _ id: String) async throws -> String? {
        (try await read(server, "statuses/\(id)/source") as? [String: Any])?["text"] as? String
    }

    @Test("edit N updates the row in place; undo restores the source text (not its HTML), redo edits again")
    func edit_undoRedo() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            try await session.post("draft <one> & #two")
            let id = session.rows[0].id
            try await session.edit(index: 1, text: "final text")
            #expect(session.rows[0].text == "final text")
            #expect(session.rows.count == 1)
            #expect(session.operations.last == "edit 1 \"final text\"")
            #expect(try await sourceText(server, id) == "final text")

            try await session.undo()
            #expect(try await sourceText(server, id) == "draft <one> & #two")
            #expect(session.rows[0].text == "draft <one> & #two")
            #expect(session.notes.contains { $0.contains("again on the server") })
            try await session.redo()
            #expect(try await sourceText(server, id) == "final text")
            #expect(session.rows[0].text == "final text")
        }
    }

    @Test("an edit sends the content warning again, so only the text changes")
    func edit_keepsContentWarning() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            try await session.post("placeholder")
            let id = session.rows[0].id
            // Give it a content warning by the API, then edit through wsh.
            let put = HTTPRequest(method: .put, url: server.mastodonBaseURL + "api/v1/statuses/\(id)",
                                  headers: [HTTPHeader("Authorization", "Bearer " + server.token),
                                            HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Data("status=warned&spoiler_text=spoilers".utf8))
            _ = try await CurlHTTPClient(secrets: [server.token]).send(put)
            try await session.edit(index: 1, text: "edited behind the warning")
            let source = try #require(try await read(server, "statuses/\(id)/source") as? [String: Any])
            #expect(source["text"] as? String == "edited behind the warning")
            #expect(source["spoiler_text"] as? String == "spoilers")
        }
    }

    @Test("edits N opens the history, the original first, with --json versions; back closes it")
    func edits_screen() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            try await session.post("version one")
            try await session.edit(index: 1, text: "version two")
            try await session.edits(index: 1)
            let history = try #require(session.editHistory)
            #expect(history.rows.map(\.text) == ["version one", "version two"])
            #expect(history.rows.map(\.index) == [1, 2])
            #expect(history.countText == "2 versions (1 edit)")
            #expect(history.document.versions.map(\.text) == ["version one", "version two"])
            #expect(history.document.versions.allSatisfy { $0.createdAt?.hasSuffix("Z") == true })
            try session.back()
            #expect(session.screen == .list)
        }
    }

    @Test("a lost edit answer is resolved by reading the source: unchanged means not applied, and nothing is recorded")
    func edit_lostAnswer() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            try await session.post("stays")
            let id = session.rows[0].id
            let before = session.operationCount
            // Every request to the status is cut: the read before the PUT is lost, so the edit never goes out.
            server.setFaults(SandboxFaults(drop: true, path: "api/v1/statuses/\(id)"))
            await #expect(throws: ViewModelError.self) { try await session.edit(index: 1, text: "changed") }
            server.setFaults(SandboxFaults())
            #expect(session.errorMessage?.contains("the server shows the status is unchanged") == true, "\(session.errorMessage ?? "")")
            #expect(session.operationCount == before)
            #expect(try await sourceText(server, id) == "stays")
        }
    }

    @Test("Weibo cannot edit or schedule: one line, before any request")
    func weibo_refusesBeforeAnyRequest() async throws {
        try await withSandboxClient { _, client in
            let traces = RecordingObserver<TraceEvent>()
            let session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect(), trace: { traces.record($0) }))
            try await session.fetch(count: 2)
            let fetched = traces.values.count
            await #expect(throws: ViewModelError.notOffered("this API (weibo) cannot edit a status")) {
                try await session.edit(index: 1, text: "x")
            }
            await #expect(throws: ViewModelError.notOffered("this API (weibo) cannot edit a status")) { try await session.edits(index: 1) }
            await #expect(throws: ViewModelError.notOffered("this API (weibo) cannot schedule a status")) {
                try await session.schedule("x", at: Timestamp(date: Date().addingTimeInterval(3600), utcOffset: 0))
            }
            await #expect(throws: ViewModelError.notOffered("this API (weibo) cannot schedule a status")) { try await session.scheduled() }
            #expect(traces.values.count == fetched)
        }
    }

    @Test("post --at schedules; scheduled lists it; unschedule cancels; undo schedules it again under a new id; undo of the scheduling cancels that one")
    func schedule_undoRedo() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            let at = try ScheduleTime.parse("+1h", now: Date())
            let made = try await session.schedule("see you later", at: at)
            #expect(made.text == "see you later")
            #expect(session.rows.isEmpty)                     // a scheduled status is not a row
            try await session.scheduled()
            let screen = try #require(session.scheduledStatuses)
            #expect(screen.rows.map(\.id) == [made.id])
            #expect(screen.document.first?.text == "see you later")
            #expect(screen.document.first?.scheduledAt == at.iso8601Text)

            try await session.unschedule(index: 1)
            #expect(session.scheduledStatuses?.rows.isEmpty == true)
            #expect((try await read(server, "scheduled_statuses") as? [Any])?.isEmpty == true)

            try await session.undo()                              // schedules it again
            let again = try #require(try await read(server, "scheduled_statuses") as? [[String: Any]])
            #expect(again.count == 1)
            let newID = try #require(again.first?["id"] as? String)
            #expect(newID != made.id)
            #expect(session.notes.contains { $0.contains("new scheduled status (\(newID); it was \(made.id))") }, "\(session.notes)")
            #expect(session.scheduledStatuses?.rows.map(\.id) == [newID])
            try await session.redo()                              // unschedule again: cancels the new one
            #expect((try await read(server, "scheduled_statuses") as? [Any])?.isEmpty == true)
            try await session.undo()                              // and schedules it once more
            #expect((try await read(server, "scheduled_statuses") as? [Any])?.count == 1)

            try await session.undo()                              // the scheduled screen
            try await session.undo()                              // the scheduling: cancels the new one
            #expect((try await read(server, "scheduled_statuses") as? [Any])?.isEmpty == true)
            try await session.redo()                              // schedules it once more
            #expect((try await read(server, "scheduled_statuses") as? [Any])?.count == 1)
            #expect(session.errorMessage == nil)
        }
    }

    @Test("unschedule N of a number scheduled does not list is a clear error and sends no write")
    func unschedule_noSuchRow() async throws {
        try await withSandboxClient { server, _ in
            let session = mastodonSession(server)
            await #expect(throws: ViewModelError.noScheduled(index: 1, count: 0)) { try await session.unschedule(index: 1) }
            #expect(session.errorMessage == "no scheduled status 1: none is scheduled")
        }
    }
}

@Suite("post --at TIME")
struct ScheduleTimeTests {
    let now = Date(timeIntervalSince1970: 1_731_331_800)      // 2024-11-11 13:30:00 UTC
    let utc = ClockZone.utc

    @Test("relative, clock and ISO 8601 times; HH:MM already past today is tomorrow")
    func parses() throws {
        #expect(try ScheduleTime.parse("+30m", now: now).date == now.addingTimeInterval(1800))
        #expect(try ScheduleTime.parse("+1h", now: now).date == now.addingTimeInterval(3600))
        #expect(try ScheduleTime.parse("+2d", now: now).date == now.addingTimeInterval(172_800))
        #expect(try ScheduleTime.parse("14:00", now: now, timeZone: utc).iso8601Text == "2024-11-11T14:00:00.000Z")
        #expect(try ScheduleTime.parse("09:15", now: now, timeZone: utc).iso8601Text == "2024-11-12T09:15:00.000Z")
        #expect(try ScheduleTime.parse("2024-11-11T22:30:00+08:00", now: now).date == now.addingTimeInterval(3600))
    }

    @Test("under 5 minutes ahead, in the past, or unreadable: one line saying what is allowed")
    func refuses() {
        #expect(throws: ViewModelError.badScheduleTime("--at +4m is in 4 minutes: a status must be scheduled at least 5 minutes ahead")) {
            try ScheduleTime.parse("+4m", now: now)
        }
        #expect(throws: ViewModelError.badScheduleTime("--at 2024-11-11T13:00:00Z is 30 minutes ago: a status must be scheduled at least 5 minutes ahead")) {
            try ScheduleTime.parse("2024-11-11T13:00:00Z", now: now)
        }
        #expect(throws: ViewModelError.self) { try ScheduleTime.parse("tomorrow", now: now) }
        #expect(throws: ViewModelError.self) { try ScheduleTime.parse("25:00", now: now) }
    }
}

@Suite("Edit and scheduled screens show no server byte as a control sequence")
struct EditScreensSanitizingTests {
    @Test("escape sequences in a version's text and warning, and in a scheduled text, reach neither rows nor --json")
    func sanitizes() {
        let hostile = "red \u{1B}[31mtext\u{7} \u{1B}]0;title\u{7}"
        let history = EditHistoryViewModel(status: Status(idstr: "1\u{1B}[2J"),
                                           versions: [StatusEdit(text: hostile, contentWarning: hostile)])
        let scheduled = ScheduledStatusesViewModel([ScheduledStatus(id: "9\u{1B}[1m", scheduledAt: nil, text: hostile)])
        let shown = history.rows.flatMap { [$0.text, $0.contentWarning] } + [history.statusID, history.title]
            + history.document.versions.flatMap { [$0.text, $0.spoilerText] } + scheduled.rows.flatMap { [$0.id, $0.text] }
            + scheduled.document.flatMap { [$0.id, $0.text] }
        #expect(shown.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\u{7}") }, "\(shown)")
        #expect(history.rows.first?.text.contains("text") == true)
    }
}
