import Foundation
import Testing
import WshSandbox

@Suite("Mastodon extras: quotes in every state, profile fields and account emojis")
struct MastodonExtrasTests {
    @Test("generated quotes come in several states; only an accepted one carries its quoted status")
    func quoteStates() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 400)) { server in
            var all = (await server.mastodon("timelines/public?limit=40")).array
            for _ in 0..<9 {
                guard let next = (all.last?["id"] as? String) else { break }
                all += await server.mastodon("timelines/public?limit=40&max_id=\(next)").array
            }
            let quotes = all.compactMap { $0["quote"] as? [String: Any] }
            let states = Set(quotes.compactMap { $0["state"] as? String })
            #expect(states.isSuperset(of: ["accepted", "pending", "revoked", "deleted"]), "\(states)")
            for quote in quotes {
                if quote["state"] as? String == "accepted" {
                    #expect((quote["quoted_status"] as? [String: Any])?["id"] is String)
                    // A quoted status does not quote in turn.
                    #expect((quote["quoted_status"] as? [String: Any])?["quote"] == nil)
                } else {
                    #expect(quote["quoted_status"] is NSNull)
                }
            }
            // The same status answers the same way twice (a function of the seed).
            let first = try #require(all.first { $0["quote"] is [String: Any] })
            let again = try #require(await server.mastodon("statuses/\(first["id"] as? String ?? "")").json)
            #expect((again["quote"] as? [String: Any])?["state"] as? String == (first["quote"] as? [String: Any])?["state"] as? String)
        }
    }

    @Test("some accounts have a verified website field and a field with the :wsh: emoji, listed in emojis")
    func profileExtras() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 50)) { server in
            let plain = try #require(await server.mastodon("accounts/\(server.accounts[0].uid)").json)
            #expect((plain["emojis"] as? [Any])?.isEmpty == true)
            let rich = try #require(await server.mastodon("accounts/\(server.accounts[2].uid)").json)
            let fields = try #require(rich["fields"] as? [[String: Any]])
            let website = try #require(fields.first { $0["name"] as? String == "Website" })
            #expect((website["value"] as? String)?.contains("rel=\"nofollow noopener me\"") == true)
            #expect((website["verified_at"] as? String)?.hasSuffix("Z") == true)
            #expect(fields.first { $0["name"] as? String == "Mood" }?["value"] as? String == ":wsh:")
            let emojis = try #require(rich["emojis"] as? [[String: Any]])
            #expect(emojis.map { $0["shortcode"] as? String } == ["wsh"])
            #expect(emojis.first?["static_url"] is String)
        }
    }
}
