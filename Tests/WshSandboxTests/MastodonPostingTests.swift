import Foundation
import Testing
import WshSandbox

/// Media uploads, statuses with options, polls and votes on the Mastodon side.
@Suite("Mastodon posting: media uploads, visibility, content warnings, polls and votes")
struct MastodonPostingTests {
    static let boundary = "wshBoundary7"

    /// A multipart upload of `content` as `name`, with `description` when given.
    func upload(_ server: SandboxServer, _ content: String, name: String = "cat.gif", description: String? = nil,
                version: String = "v2/media") async -> HTTPResult {
        var body = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\(content)\r\n"
        if let description {
            body += "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\n\(description)\r\n"
        }
        body += "--\(Self.boundary)--\r\n"
        return await server.mastodon("POST", version, token: server.token, form: body,
                                     headers: ["Content-Type": "multipart/form-data; boundary=\(Self.boundary)"])
    }

    @Test("an upload answers 202 with url null, is processed on its first GET, keeps its alt text, and attaches to one status at a time")
    func uploadAndAttach() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 100)) { server in
            let uploaded = await upload(server, "GIF89a pretend pixels", description: "a cat asleep")
            #expect(uploaded.status == 202)
            let id = try #require(uploaded.json?["id"] as? String)
            #expect(uploaded.json?["url"] is NSNull)
            #expect(uploaded.json?["type"] as? String == "gifv")
            #expect(uploaded.json?["description"] as? String == "a cat asleep")
            let shown = await server.mastodon("GET", "media/\(id)", token: server.token)
            #expect(shown.status == 200)
            #expect((shown.json?["url"] as? String)?.hasSuffix(".gif") == true)

            let posted = await server.mastodon("POST", "statuses", token: server.token,
                                               form: "status=look&media_ids%5B%5D=\(id)&visibility=unlisted&spoiler_text=cats&language=fr")
            #expect(posted.status == 200)
            let status = try #require(posted.json)
            let media = try #require((status["media_attachments"] as? [[String: Any]])?.first)
            #expect(media["id"] as? String == id && media["description"] as? String == "a cat asleep")
            #expect(status["visibility"] as? String == "unlisted" && status["spoiler_text"] as? String == "cats")
            #expect(status["language"] as? String == "fr" && status["sensitive"] as? Bool == true)

            let again = await server.mastodon("POST", "statuses", token: server.token, form: "status=twice&media_ids%5B%5D=\(id)")
            #expect(again.status == 422)
            #expect(again.mastodonError?.contains("already attached") == true)
            // Deleting the status frees its media for a redraft.
            let statusID = try #require(status["id"] as? String)
            #expect(await server.mastodon("DELETE", "statuses/\(statusID)", token: server.token).status == 200)
            let redraft = await server.mastodon("POST", "statuses", token: server.token, form: "status=again&media_ids%5B%5D=\(id)")
            #expect(redraft.status == 200)
            #expect((redraft.json?["media_attachments"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("an upload's id is written in the server's id style, as long as a status id, and reads back", arguments: [MastodonIDStyle.snowflake, .ulid, .flake])
    func mediaIDStyle(_ style: MastodonIDStyle) async throws {
        try await withSandbox(SandboxConfiguration(statuses: 20, idStyle: style)) { server in
            let id = try #require(await upload(server, "GIF89a x").json?["id"] as? String)
            let statusID = try #require(await server.mastodon("timelines/public?limit=1").array.first?["id"] as? String)
            #expect(id.count == statusID.count, "\(id) beside \(statusID)")
            #expect(await server.mastodon("GET", "media/\(id)", token: server.token).status == 200)
        }
    }

    @Test("a file whose content is no image, video or audio is refused with 422; another account cannot attach an upload; v1 answers processed")
    func refusals() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let text = await upload(server, "just some words", name: "notes.png")
            #expect(text.status == 422)
            #expect(text.mastodonError == "Validation failed: File content type is invalid, File is invalid")
            let synchronous = await upload(server, "GIF87a x", version: "media")
            #expect(synchronous.status == 200)
            #expect(synchronous.json?["url"] is String)
            let id = try #require(synchronous.json?["id"] as? String)
            let described = await server.mastodon("PUT", "media/\(id)", token: server.token, form: "description=new%20words")
            #expect(described.json?["description"] as? String == "new words")
            let other = server.second.token
            let foreign = await server.mastodon("POST", "statuses", token: other, form: "status=mine&media_ids%5B%5D=\(id)")
            #expect(foreign.status == 422)
            #expect(await server.mastodon("GET", "media/\(id)", token: other).status == 404)
        }
    }

    @Test("a posted poll renders open with its options; votes count, own_votes show, and each bad vote is a 422")
    func pollAndVotes() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let posted = await server.mastodon("POST", "statuses", token: server.token,
                form: "status=tea%3F&poll%5Boptions%5D%5B%5D=tea&poll%5Boptions%5D%5B%5D=coffee&poll%5Bexpires_in%5D=3600")
            let poll = try #require(posted.json?["poll"] as? [String: Any])
            let pollID = try #require(poll["id"] as? String)
            #expect(poll["expired"] as? Bool == false && poll["multiple"] as? Bool == false)
            #expect((poll["options"] as? [[String: Any]])?.map { $0["title"] as? String } == ["tea", "coffee"])
            #expect(poll["voted"] as? Bool == false)

            let two = await server.mastodon("POST", "polls/\(pollID)/votes", token: server.token,
                                            form: "choices%5B%5D=0&choices%5B%5D=1")
            #expect(two.status == 422)
            let outside = await server.mastodon("POST", "polls/\(pollID)/votes", token: server.token, form: "choices%5B%5D=2")
            #expect(outside.status == 422)
            let voted = await server.mastodon("POST", "polls/\(pollID)/votes", token: server.token, form: "choices%5B%5D=1")
            #expect(voted.status == 200)
            #expect(voted.json?["voted"] as? Bool == true)
            #expect(voted.json?["own_votes"] as? [Int] == [1])
            #expect(voted.json?["votes_count"] as? Int == 1 && voted.json?["voters_count"] as? Int == 1)
            let second = await server.mastodon("POST", "polls/\(pollID)/votes", token: server.token, form: "choices%5B%5D=0")
            #expect(second.mastodonError == "Validation failed: You have already voted on this poll")
            // Another account sees the count, not the vote as its own.
            let other = server.second.token
            let seen = await server.mastodon("GET", "polls/\(pollID)", token: other)
            #expect(seen.json?["votes_count"] as? Int == 1 && seen.json?["voted"] as? Bool == false)
        }
    }

    @Test("a poll sent as JSON (as Mastodon.py and toot send it) is read; a closed generated poll refuses votes")
    func jsonPollAndClosedPoll() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 300)) { server in
            let json = #"{"status":"pick","poll":{"options":["a","b","c"],"expires_in":86400,"multiple":true}}"#
            let posted = await server.mastodon("POST", "statuses", token: server.token, form: json,
                                               headers: ["Content-Type": "application/json"])
            let poll = try #require(posted.json?["poll"] as? [String: Any])
            #expect((poll["options"] as? [Any])?.count == 3 && poll["multiple"] as? Bool == true)

            var closed: [String: Any]?
            var maxID: String?
            for _ in 0..<8 where closed == nil {
                let page = await server.mastodon("timelines/public?limit=40" + (maxID.map { "&max_id=\($0)" } ?? "")).array
                closed = page.compactMap { $0["poll"] as? [String: Any] }.first { $0["expired"] as? Bool == true }
                maxID = page.last?["id"] as? String
            }
            let closedID = try #require(closed?["id"] as? String)
            let refused = await server.mastodon("POST", "polls/\(closedID)/votes", token: server.token, form: "choices%5B%5D=0")
            #expect(refused.mastodonError == "Validation failed: The poll has already ended")
        }
    }
}
