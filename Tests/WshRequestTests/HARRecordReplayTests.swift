import Foundation
import Synchronization
import Testing
import WshHAR
import WshRequest
import WshTestSupport

/// `RecordingHTTPClient` and `ReplayHTTPClient` on a fake server: what the
/// HAR file holds (and never holds), and which recorded answer a request gets.
@Suite("HAR record and replay")
struct HARRecordReplayTests {
    private static func temporaryFile() -> String {
        WshProcess.temporaryDirectory() + "/session.har"
    }

    private static func log(_ path: String) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return try #require(root["log"] as? [String: Any])
    }

    @Test("an OAuth exchange is recorded as HAR 1.2 with every credential masked, the token response keeping its shape, mode 0600")
    func recordingMasksCredentials() async throws {
        let path = Self.temporaryFile()
        let server = FakeHTTPClient { request in
            if request.method == .post {
                return .json(#"{"access_token":"tok-NEW-0123456789","token_type":"Bearer","scope":"read write","created_at":1}"#)
            }
            return .json(#"{"id":"1","note":"my key is known-secret-42"}"#)
        }
        let recorder = try HARRecorder(path: path, creator: "wsh", version: "test")
        let client = RecordingHTTPClient(wrapping: server, recorder: recorder, secrets: { ["known-secret-42"] })
        let form = "grant_type=authorization_code&client_id=app&client_secret=APP-SECRET-xyz&code=CODE-987&code_verifier=VERIFIER-555"
        _ = try await client.send(HTTPRequest(method: .post, url: "https://m.example/oauth/token",
                                              headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                                              body: Data(form.utf8)))
        _ = try await client.send(HTTPRequest(url: "https://m.example/api/v1/accounts/verify_credentials?access_token=tok-OLD-55555&limit=1",
                                              headers: [HTTPHeader("Authorization", "Bearer tok-NEW-0123456789"),
                                                        HTTPHeader("Cookie", "session=c00kie-val")]))

        let raw = try String(contentsOfFile: path, encoding: .utf8)
        for secret in ["tok-NEW-0123456789", "APP-SECRET-xyz", "CODE-987", "VERIFIER-555", "tok-OLD-55555", "c00kie-val", "known-secret-42"] {
            #expect(!raw.contains(secret), "\(secret) reached the recording")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let log = try Self.log(path)
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "wsh")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        let post = try #require(entries[0]["request"] as? [String: Any])
        let postData = try #require(post["postData"] as? [String: Any])
        let params = try #require(postData["params"] as? [[String: String]])
        #expect(params.map { $0["name"] ?? "" } == ["grant_type", "client_id", "client_secret", "code", "code_verifier"])
        #expect(params.map { $0["value"] ?? "" } == ["authorization_code", "app", "***", "***", "***"])
        let content = try #require((entries[0]["response"] as? [String: Any])?["content"] as? [String: Any])
        let token = try #require(try JSONSerialization.jsonObject(with: Data((content["text"] as? String ?? "").utf8)) as? [String: Any])
        #expect(token["access_token"] as? String == "***")
        #expect(token["token_type"] as? String == "Bearer")
        #expect(token["scope"] as? String == "read write")

        let get = try #require(entries[1]["request"] as? [String: Any])
        #expect(get["url"] as? String == "https://m.example/api/v1/accounts/verify_credentials?access_token=***&limit=1")
        let headers = try #require(get["headers"] as? [[String: String]])
        #expect(headers.map { $0["value"] ?? "" } == ["***", "***"])
        let note = try #require(((entries[1]["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String)
        #expect(note == #"{"id":"1","note":"my key is ***"}"#)
        for key in ["startedDateTime", "time", "cache", "timings"] { #expect(entries[0][key] != nil, "no \(key)") }
    }

    @Test("an upload is recorded with its fields as params: the file by name and type (its bytes left out), the alt text as sent")
    func recordingUpload() async throws {
        let path = Self.temporaryFile()
        let server = FakeHTTPClient { _ in .json(#"{"id":"7","url":null}"#) }
        let recorder = try HARRecorder(path: path, creator: "wsh", version: "test")
        let client = RecordingHTTPClient(wrapping: server, recorder: recorder, secrets: { [] })
        _ = try await client.send(HTTPRequest(method: .post, url: "https://m.example/api/v2/media", multipart: [
            MultipartPart("file", .file(path: "/tmp/not-read.png", filename: "cat.png", contentType: "image/png")),
            MultipartPart("description", .text("a cat asleep")),
        ]))
        let entries = try #require(try Self.log(path)["entries"] as? [[String: Any]])
        let postData = try #require((entries.first?["request"] as? [String: Any])?["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "multipart/form-data")
        let params = try #require(postData["params"] as? [[String: String]])
        #expect(params == [["name": "file", "fileName": "cat.png", "contentType": "image/png"],
                           ["name": "description", "value": "a cat asleep"]])
    }

    @Test("replay answers a repeated request with the recorded answers in order, then the last again; query order and masked values do not matter")
    func replayOrder() async throws {
        let path = Self.temporaryFile()
        let counter = Counter()
        let server = FakeHTTPClient { _ in .json(#"{"n":\#(counter.next())}"#) }
        let recorder = try HARRecorder(path: path, creator: "wsh", version: "test")
        let client = RecordingHTTPClient(wrapping: server, recorder: recorder, secrets: { [] })
        for _ in 0..<2 {
            _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:1/api/v1/timelines/home?limit=2&max_id=9"))
        }
        _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:1/api/v1/search?q=x&access_token=tok-1234567890"))

        let replay = ReplayHTTPClient(recording: try HARRecording.load(path: path))
        var answers: [String] = []
        for _ in 0..<3 {
            // Another host, the query in another order: the same request.
            let response = try await replay.send(HTTPRequest(url: "https://elsewhere.example/api/v1/timelines/home?max_id=9&limit=2"))
            answers.append(String(decoding: response.body, as: UTF8.self))
        }
        #expect(answers == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":2}"#])
        let search = try await replay.send(HTTPRequest(url: "https://elsewhere.example/api/v1/search?access_token=another-token&q=x"))
        #expect(String(decoding: search.body, as: UTF8.self) == #"{"n":3}"#)

        await #expect(throws: RequestError.configuration("not in the recording: GET /api/v1/timelines/home?limit=20")) {
            _ = try await replay.send(HTTPRequest(url: "https://elsewhere.example/api/v1/timelines/home?limit=20"))
        }
        await #expect(throws: RequestError.configuration("not in the recording: POST /api/v1/timelines/home?limit=2&max_id=9")) {
            _ = try await replay.send(HTTPRequest(method: .post, url: "https://elsewhere.example/api/v1/timelines/home?limit=2&max_id=9"))
        }
    }

    @Test("a link planted at the recording's temporary name is not written through")
    func plantedLink() throws {
        let path = Self.temporaryFile()
        let victim = (path as NSString).deletingLastPathComponent + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp\(ProcessInfo.processInfo.processIdentifier)",
                                                   withDestinationPath: victim)
        _ = try HARRecorder(path: path, creator: "wsh", version: "test")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try Self.log(path)["entries"] as? [Any] != nil)
    }

    @Test("a file that is not a HAR is refused in one line saying why")
    func notAHAR() throws {
        #expect(throws: HARError.self) { try HARRecording.parse(Data("[]".utf8), name: "a.har") }
        do {
            _ = try HARRecording.parse(Data(#"{"log":{"version":"1.2"}}"#.utf8), name: "a.har")
            Issue.record("parsed")
        } catch {
            #expect(error.description == "'a.har' is not a HAR file: no log.entries")
        }
        do {
            _ = try HARRecording.load(path: "/nonexistent/x.har")
            Issue.record("loaded")
        } catch {
            #expect(error.description == "cannot read '/nonexistent/x.har': no such file")
        }
    }
}

/// Counts the answers the fake gives.
private final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
