import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// `api get|post|put|patch|delete PATH [k=v…] [--json BODY]` through the built wsh.
@Suite("api with every verb, end to end")
struct ApiVerbsTests {
    @Test("api delete removes a status on the Mastodon side; a get of it then fails as not found")
    func deleteStatus() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let api = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon"]
        let env = ["WSH_ACCESS_TOKEN": sandbox.token]
        let posted = try await WshProcess.run(api + ["-c", "post hello verbs; list --json"], environment: env)
        #expect(posted.status == 0, "\(posted.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(posted.stdout[posted.stdout.firstIndex(of: "[")!...].utf8)) as? [[String: Any]])
        let id = try #require(rows.first?["id"] as? String)
        let deleted = try await WshProcess.run(api + ["-c", "api delete api/v1/statuses/\(id)"], environment: env)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("\"id\": \"\(id)\""), "\(deleted.stdout)")
        let gone = try await WshProcess.run(api + ["-c", "try { api get api/v1/statuses/\(id) } catch { echo $errkind }"], environment: env)
        #expect(gone.stdout.hasSuffix("not_found\n"), "\(gone.stdout) \(gone.stderr)")
    }

    @Test("put and patch send their method with a form or a JSON body; the recording shows what went")
    func putAndPatchBodies() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let har = WshProcess.temporaryDirectory() + "/verbs.har"
        let run = try await WshProcess.run(["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon", "--keep-going", "--record", har, "-c", """
            api patch api/v1/accounts/update_credentials --json '{"note": "hi"}'
            api put api/v1/lists/1 title=ours
            """], environment: ["WSH_ACCESS_TOKEN": sandbox.token])
        _ = run
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: har))) as? [String: Any])
        let entries = try #require((root["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let requests = entries.compactMap { $0["request"] as? [String: Any] }
        let patch = try #require(requests.first { $0["method"] as? String == "PATCH" })
        let patchBody = try #require(patch["postData"] as? [String: Any])
        #expect((patchBody["mimeType"] as? String)?.hasPrefix("application/json") == true)
        #expect(patchBody["text"] as? String == #"{"note": "hi"}"#)
        let put = try #require(requests.first { $0["method"] as? String == "PUT" })
        #expect((put["postData"] as? [String: Any])?["text"] as? String == "title=ours")
        #expect((put["url"] as? String)?.hasSuffix("api/v1/lists/1") == true)
    }

    @Test("a method, a body or JSON it does not take is a usage error before any request")
    func usageErrors() async throws {
        for (command, message) in [("api fetch x", "METHOD is get, post, put, patch or delete, not 'fetch'"),
                                   ("api get x --json '{}'", "a GET sends no body"),
                                   ("api post x --json '{bad'", "the body is not valid JSON")] {
            let run = try await WshProcess.run(["--api", "http://127.0.0.1:9/", "-c", command])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(command): \(run.stderr)")
        }
    }
}
