import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshSandbox
import WshTestSupport
@testable import WshViewModel

/// `post` with options, media and polls, and `vote`, against the embedded
/// sandbox's Mastodon side through libcurl (the upload is multipart, streamed).
@Suite("Posting with options, media and polls; voting")
struct PostingSessionTests {
    /// A session on the sandbox's Mastodon API whose calls are traced into `traces`.
    func withMastodonSession(_ traces: RecordingObserver<TraceEvent>,
                             _ body: (SandboxServer, SessionViewModel) async throws -> Void) async throws {
        try await withSandboxClient(SandboxConfiguration(statuses: 100), mastodon: true) { server, client in
            let controller = TimelineDataController(client: client, dialect: MastodonDialect(), trace: { traces.record($0) })
            try await body(server, SessionViewModel(dataController: controller))
        }
    }

    /// A small PNG file (the signature is what the server reads), removed after `body`.
    func withPNG(_ body: (String) async throws -> Void) async throws {
        let path = NSTemporaryDirectory() + "wsh-post-\(UUID().uuidString).png"
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x2A, count: 300)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    @Test("post --media --alt --cw --visibility --language uploads first, waits for processing, and detail shows it all; undo deletes, redo re-uses the media")
    func mediaPostUndoRedo() async throws {
        let traces = RecordingObserver<TraceEvent>()
        try await withMastodonSession(traces) { _, session in
            try await withPNG { path in
                try await session.fetch(count: 3)
                let draft = StatusDraft(text: "my cat", visibility: .unlisted, spoiler: "cute animals", language: "en",
                                        media: [MediaFile(path: path, description: "a cat asleep")])
                try await session.post(draft)
                let calls = traces.values.dropFirst().map { "\($0.method ?? "") \($0.url ?? "")" }
                #expect(calls.count == 4, "\(calls)")     // newest own status (lost-answer baseline), upload, processing check, post
                #expect(calls.contains { $0.hasPrefix("POST") && $0.hasSuffix("/api/v2/media") })
                #expect(calls.contains { $0.hasPrefix("GET") && $0.contains("/api/v1/media/") })
                #expect(calls.last?.hasSuffix("/api/v1/statuses") == true && calls.last?.hasPrefix("POST") == true)
                guard let first = session.operationRecords.last?.remote as? PostedStatusEffect else {
                    Issue.record("post recorded no postedStatus")
                    return
                }
                let (firstID, sent) = (first.id, first.draft)
                let mediaID = try #require(sent?.mediaIDs.first)
                #expect(sent?.media.isEmpty == true)

                try await session.detail(index: 1)
                let detail = try #require(session.detail)
                #expect(detail.visibility == "unlisted")
                #expect(detail.contentWarning == "cute animals")
                #expect(detail.pictureDescriptions == ["a cat asleep"])
                #expect(detail.pictureURLs.first?.contains(mediaID) == true)

                try await session.undo()
                try await session.undo()
                #expect(session.rows.first?.id != firstID)
                let beforeRedo = traces.values.count
                try await session.redo()
                try await session.redo()
                let redone = traces.values.dropFirst(beforeRedo).compactMap(\.url)
                #expect(!redone.contains { $0.contains("/media") }, "redo uploaded again: \(redone)")
                guard let redone = session.operationRecords.compactMap(\.remote).last as? PostedStatusEffect else {
                    Issue.record("redo lost the postedStatus")
                    return
                }
                let (newID, again) = (redone.id, redone.draft)
                #expect(newID != firstID && again?.mediaIDs == [mediaID])
                try await session.detail(index: 1)
                #expect(session.detail?.pictureDescriptions == ["a cat asleep"])
            }
        }
    }

    @Test("post --poll then vote: detail numbers the options and marks the vote; undo says Mastodon cannot take it back; bad votes are refused before any request")
    func pollAndVote() async throws {
        let traces = RecordingObserver<TraceEvent>()
        try await withMastodonSession(traces) { _, session in
            try await session.post(StatusDraft(text: "tea or coffee?", poll: PollDraft(options: ["tea", "coffee"], expiresIn: 3600)))
            try await session.detail(index: 1)
            #expect(session.detail?.pollLines.prefix(2) == ["1. tea · 0 votes", "2. coffee · 0 votes"])
            try session.back()

            let before = traces.values.count
            await #expect(throws: ViewModelError.self) { try await session.vote(index: 1, choices: [3]) }
            #expect(session.errorMessage == "choice 3 is not in the poll of row 1 (choices 1-2)")
            await #expect(throws: ViewModelError.self) { try await session.vote(index: 1, choices: [1, 2]) }
            #expect(session.errorMessage == "the poll of row 1 takes one choice, not 2")
            #expect(traces.values.count == before)

            try await session.vote(index: 1, choices: [2])
            #expect(traces.values.last?.url?.hasSuffix("/votes") == true)
            try await session.detail(index: 1)
            #expect(session.detail?.pollLines.contains("2. coffee · 1 vote ✓") == true, "\(session.detail?.pollLines ?? [])")
            #expect(session.detail?.pollLines.last?.contains("you voted") == true)
            try session.back()

            await #expect(throws: ViewModelError.self) { try await session.vote(index: 1, choices: [1]) }
            #expect(session.errorMessage == "you already voted in the poll of row 1")
            // Undo of the vote (back first undoes the back): Mastodon has no call to take it back.
            try await session.undo()
            try await session.undo()
            await #expect(throws: ViewModelError.self) { try await session.undo() }
            #expect(session.errorMessage?.contains("Mastodon cannot take a vote back") == true, "\(session.errorMessage ?? "")")
        }
    }

    @Test("a missing file, a bad language and Weibo's lacking options are refused with one line before any request")
    func refusals() async throws {
        let traces = RecordingObserver<TraceEvent>()
        try await withMastodonSession(traces) { _, session in
            await #expect(throws: ViewModelError.self) {
                try await session.post(StatusDraft(text: "x", media: [MediaFile(path: "/nonexistent/cat.png")]))
            }
            #expect(session.errorMessage?.contains("--media /nonexistent/cat.png: no such file") == true, "\(session.errorMessage ?? "")")
            #expect(traces.values.isEmpty)
        }
        try await withSandboxClient { _, client in
            let weiboTraces = RecordingObserver<TraceEvent>()
            let session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect(), trace: { weiboTraces.record($0) }))
            await #expect(throws: ViewModelError.self) { try await session.post(StatusDraft(text: "x", spoiler: "y")) }
            #expect(session.errorMessage == "--cw: weibo has no content warnings")
            await #expect(throws: ViewModelError.self) {
                try await session.post(StatusDraft(text: "x", poll: PollDraft(options: ["a", "b"])))
            }
            #expect(session.errorMessage == "--poll: weibo has no polls")
            #expect(weiboTraces.values.isEmpty)
        }
    }
}
