import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("statuses/update.json")
struct UpdateTests {
    @Test("a post returns the new status, which then leads page 1 of the timeline")
    func post_becomesNewestOnPage1() async throws {
        try await withSandbox { server in
            let before = await server.timeline(count: 20)
            let text = "Hello 世界 😀 a+b & c=d 👩‍💻"
            let result = await server.post("statuses/update.json", form: "status=" + formEncoded(text))
            #expect(result.status == 200)
            let posted = try ModelDecoding.decode(Status.self, from: result.data)
            #expect(posted.text == text)
            #expect(posted.user?.screenName != nil)
            let after = await server.timeline(count: 20)
            #expect(after.first?["idstr"] as? String == posted.idstr)
            #expect(after.first?["text"] as? String == text)
            #expect(after.dropFirst().first?["idstr"] as? String == before.first?["idstr"] as? String)
            let total = await server.get("statuses/public_timeline.json").json?["total_number"] as? Int
            #expect(total == 1001)
            let shown = await server.get("statuses/show.json", "id=\(posted.idstr ?? "")")
            #expect(shown.data == result.data)
            let poster = await server.get("users/show.json", "uid=\(posted.user?.idstr ?? "")")
            #expect((poster.json?["status"] as? [String: Any])?["text"] as? String == text)
            #expect(server.stats.posts == 1)
        }
    }

    @Test("an empty or blank status is 400 with error 10008, and changes nothing")
    func emptyPost_is10008() async throws {
        try await withSandbox { server in
            let before = await server.get("statuses/public_timeline.json")
            for form in ["status=", "status=+++", "other=1"] {
                let result = await server.post("statuses/update.json", form: form)
                #expect(result.status == 400)
                #expect(result.errorCode == 10008)
            }
            #expect(await server.get("statuses/public_timeline.json").data == before.data)
        }
    }

    @Test("a status over 140 characters is 400 with error 20012; 140 CJK characters fit")
    func longPost_is20012() async throws {
        try await withSandbox { server in
            let tooLong = await server.post("statuses/update.json", form: "status=" + formEncoded(String(repeating: "字", count: 141)))
            #expect(tooLong.errorCode == 20012)
            let fits = await server.post("statuses/update.json", form: "status=" + formEncoded(String(repeating: "字", count: 140)))
            #expect(fits.status == 200)
            let ascii = await server.post("statuses/update.json", form: "status=" + String(repeating: "a", count: 280))
            #expect(ascii.status == 200)
        }
    }

    @Test("update needs POST and a token; the token may come in the form body")
    func update_methodAndAuth() async throws {
        try await withSandbox { server in
            #expect(await server.get("statuses/update.json", "status=hi").status == 405)
            let anonymous = await TestHTTPConnection(port: server.port).send(
                "POST", "/2/statuses/update.json", body: "status=hi")
            #expect(anonymous.errorCode == 21301)
            let inBody = await TestHTTPConnection(port: server.port).send(
                "POST", "/2/statuses/update.json", body: "status=hi&access_token=\(server.token)")
            #expect(inBody.status == 200)
        }
    }

    @Test("a POST with Expect: 100-continue (as libcurl sends) gets the go-ahead at once")
    func expectContinue_isAnsweredPromptly() async throws {
        try await withSandbox { server in
            // The client sends the body only after `100 Continue`; without it, it times out.
            let result = await TestHTTPConnection(port: server.port, timeout: 3).send(
                "POST", "/2/statuses/update.json",
                headers: ["Authorization": "OAuth2 \(server.token)", "Expect": "100-continue"],
                body: "status=" + formEncoded(String(repeating: "长", count: 140)))
            #expect(result.failure == nil)
            #expect(result.status == 200)
        }
    }

    @Test("/admin/reset removes posted statuses")
    func reset_removesPosts() async throws {
        try await withSandbox { server in
            let before = await server.get("statuses/public_timeline.json")
            _ = await server.post("statuses/update.json", form: "status=temporary")
            #expect(await server.get("statuses/public_timeline.json").data != before.data)
            #expect(await server.admin("POST", "reset").status == 200)
            #expect(await server.get("statuses/public_timeline.json").data == before.data)
        }
    }
}
