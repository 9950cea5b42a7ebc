import Foundation
import Testing
import WshSandbox

@Suite("Mastodon edits (PUT statuses/:id, history, source) and scheduled statuses")
struct MastodonEditsTests {
    @Test("an edit changes the status in place, sets edited_at, keeps every version (the original first) and the source")
    func edit_keepsHistory() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20)) { server in
            let posted = await server.mastodon("POST", "statuses", token: server.token,
                                               form: "status=first&spoiler_text=" + formEncoded("careful"))
            let id = try #require(posted.json?["id"] as? String)
            #expect(posted.json?["edited_at"] is NSNull)

            let edited = await server.mastodon("PUT", "statuses/\(id)", token: server.token,
                                               form: "status=" + formEncoded("second <b>") + "&spoiler_text=" + formEncoded("careful"))
            #expect(edited.status == 200)
            #expect(edited.json?["id"] as? String == id)
            #expect(edited.json?["content"] as? String == "<p>second &lt;b&gt;</p>")
            #expect(edited.json?["spoiler_text"] as? String == "careful")
            #expect(edited.json?["edited_at"] is String)
            #expect(await server.mastodon("statuses/\(id)", token: server.token).json?["content"] as? String == "<p>second &lt;b&gt;</p>")

            // Not sent again is dropped, as on Mastodon.
            _ = await server.mastodon("PUT", "statuses/\(id)", token: server.token, form: "status=third")
            let history = await server.mastodon("statuses/\(id)/history", token: server.token).array
            #expect(history.map { $0["content"] as? String } == ["<p>first</p>", "<p>second &lt;b&gt;</p>", "<p>third</p>"])
            #expect(history.map { $0["spoiler_text"] as? String } == ["careful", "careful", ""])
            #expect(history.allSatisfy { $0["created_at"] is String && $0["account"] is [String: Any] })

            let source = try #require(await server.mastodon("statuses/\(id)/source", token: server.token).json)
            #expect(source["id"] as? String == id)
            #expect(source["text"] as? String == "third")
            #expect(source["spoiler_text"] as? String == "")
        }
    }

    @Test("only the author may edit or read the source; a status never edited has one version")
    func edit_refusals() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20)) { server in
            let id = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=mine").json?["id"] as? String)
            let other = await server.mastodon("PUT", "statuses/\(id)", token: server.second.token, form: "status=theirs")
            #expect(other.status == 403)
            #expect(await server.mastodon("statuses/\(id)/source", token: server.second.token).status == 404)
            #expect(await server.mastodon("PUT", "statuses/\(id)", token: server.token, form: "status=%20").status == 422)
            #expect(await server.mastodon("PUT", "statuses/\(id)", form: "status=x").status == 401)
            #expect(await server.mastodon("PUT", "statuses/4000000000999999", token: server.token, form: "status=x").status == 404)
            let history = await server.mastodon("statuses/\(id)/history", token: server.token).array
            #expect(history.map { $0["content"] as? String } == ["<p>mine</p>"])
            let boost = try #require(await server.mastodon("POST", "statuses/4000000000000010/reblog", token: server.token).json?["id"] as? String)
            #expect(await server.mastodon("PUT", "statuses/\(boost)", token: server.token, form: "status=x").status == 422)
        }
    }

    @Test("scheduled_at at least 5 minutes ahead answers a ScheduledStatus; the list, show, move and cancel it")
    func schedule_lifecycle() async throws {
        let clock = SandboxClock.manual()   // 2024-11-11 13:30:00 UTC
        try await withSandbox(SandboxConfiguration(statuses: 20, clock: clock)) { server in
            let soon = await server.mastodon("POST", "statuses", token: server.token,
                                             form: "status=soon&scheduled_at=" + formEncoded("2024-11-11T13:34:00Z"))
            #expect(soon.status == 422)
            #expect(soon.mastodonError?.contains("must be in the future") == true)

            var ids: [String] = []
            for (text, at) in [("one", "2024-11-11T14:00:00Z"), ("two", "2024-11-11T22:00:00+08:00"), ("three", "2024-11-12T13:30:00.000Z")] {
                let made = await server.mastodon("POST", "statuses", token: server.token,
                                                 form: "status=\(text)&visibility=unlisted&scheduled_at=" + formEncoded(at))
                #expect(made.status == 200)
                let json = try #require(made.json)
                #expect((json["params"] as? [String: Any])?["text"] as? String == text)
                #expect((json["params"] as? [String: Any])?["visibility"] as? String == "unlisted")
                #expect(json["media_attachments"] as? [Any] != nil)
                ids.append(try #require(json["id"] as? String))
            }
            #expect(await server.mastodon("POST", "statuses", token: server.token,
                                          form: "status=x&scheduled_at=2024-11-11T14:00:00Z").json?["scheduled_at"] as? String
                    == "2024-11-11T14:00:00.000Z")

            let page = await server.mastodon("scheduled_statuses?limit=2", token: server.token)
            #expect(page.stringIDs.count == 2)
            let rest = await server.follow(try #require(page.links["next"]), token: server.token)
            #expect(Set(rest.stringIDs).isDisjoint(with: page.stringIDs))
            #expect(Set(page.stringIDs + rest.stringIDs).isSuperset(of: ids))
            #expect(await server.mastodon("scheduled_statuses", token: server.second.token).array.isEmpty)

            #expect(await server.mastodon("scheduled_statuses/\(ids[0])", token: server.token).json?["scheduled_at"] as? String
                    == "2024-11-11T14:00:00.000Z")
            let moved = await server.mastodon("PUT", "scheduled_statuses/\(ids[0])", token: server.token,
                                              form: "scheduled_at=" + formEncoded("2024-11-13T00:00:00Z"))
            #expect(moved.json?["scheduled_at"] as? String == "2024-11-13T00:00:00.000Z")
            let cancelled = await server.mastodon("DELETE", "scheduled_statuses/\(ids[1])", token: server.token)
            #expect(cancelled.status == 200)
            #expect(cancelled.json?.isEmpty == true)
            #expect(await server.mastodon("scheduled_statuses/\(ids[1])", token: server.token).status == 404)
            #expect(await server.mastodon("DELETE", "scheduled_statuses/\(ids[1])", token: server.token).status == 404)
        }
    }

    @Test("a scheduled status is published when the clock reaches its time, and the reset forgets edits and schedules")
    func schedule_publishesWhenDue() async throws {
        let clock = SandboxClock.manual()
        try await withSandbox(SandboxConfiguration(statuses: 20, clock: clock)) { server in
            let me = try #require(await server.mastodon("accounts/verify_credentials", token: server.token).json?["id"] as? String)
            _ = await server.mastodon("POST", "statuses", token: server.token,
                                      form: "status=" + formEncoded("from the future") + "&scheduled_at=2024-11-11T13:40:00Z")
            func newest() async -> String? {
                await server.mastodon("accounts/\(me)/statuses?limit=1", token: server.token).array.first?["content"] as? String
            }
            #expect(await newest() != "<p>from the future</p>")
            clock.advance(by: 599)
            #expect(await newest() != "<p>from the future</p>")
            clock.advance(by: 1)
            #expect(await newest() == "<p>from the future</p>")
            #expect(await server.mastodon("scheduled_statuses", token: server.token).array.isEmpty)

            _ = await server.mastodon("POST", "statuses", token: server.token, form: "status=later&scheduled_at=2024-11-12T00:00:00Z")
            let id = try #require(await server.mastodon("POST", "statuses", token: server.token, form: "status=a").json?["id"] as? String)
            _ = await server.mastodon("PUT", "statuses/\(id)", token: server.token, form: "status=b")
            #expect(await server.admin("POST", "reset").status == 200)
            #expect(await server.mastodon("scheduled_statuses", token: server.token).array.isEmpty)
            #expect(await server.mastodon("statuses/\(id)", token: server.token).status == 404)
        }
    }
}
