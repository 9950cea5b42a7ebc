import Foundation
import Testing
import WshModel
@testable import WshViewModel

/// The `--json` documents that name every key write `null` for what the
/// server did not say, so a script can rely on the key being there.
@Suite("--json keys present with null when the server did not say")
struct DocumentNullTests {
    private func object(_ document: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any])
    }

    @Test("followers --json: following is null for a user the server said nothing about, a boolean otherwise")
    func followers_followingNullWhenUnknown() throws {
        let page = UserPage(users: [User(idstr: "1", screenName: "alice"), User(idstr: "2", screenName: "bob")],
                            following: ["2": true])
        let users = try #require(try object(AccountsDocument(list: .followers, owner: "@carol", page: page))["users"] as? [[String: Any]])
        #expect(users.count == 2)
        #expect(users[0]["following"] is NSNull)
        #expect(users[1]["following"] as? Bool == true)
        #expect(users.map { Set($0.keys) } == [["index", "user", "following"], ["index", "user", "following"]])
    }

    @Test("search --json: a hashtag's uses is null when the server gave no history")
    func search_usesNullWhenAbsent() throws {
        let tags = try JSONDecoder().decode([Hashtag].self, from: Data(#"[{"name":"swift"},{"name":"wsh","uses":3}]"#.utf8))
        let document = try object(SearchDocument(query: "s", results: SearchResults(hashtags: tags)))
        let hashtags = try #require(document["hashtags"] as? [[String: Any]])
        #expect(hashtags[0]["uses"] is NSNull)
        #expect(hashtags[1]["uses"] as? Int == 3)
        #expect(Set(hashtags[0].keys) == ["index", "name", "uses"])
    }

    @Test("limits --json names all seven keys, null where the server was silent")
    func limits_nullKeys() throws {
        let limits = try object(RateLimitDocument(RateLimitStatus(remainingUserHits: 148, userLimit: 150)))
        #expect(Set(limits.keys) == ["remaining_user_hits", "remaining_ip_hits", "user_limit", "ip_limit",
                                     "reset_time", "reset_time_in_seconds", "limit_time_unit"])
        #expect(limits["remaining_user_hits"] as? Int == 148)
        #expect(limits["ip_limit"] is NSNull)
        #expect(limits["reset_time"] is NSNull)
    }
}

/// `lists --json` passes the server's texts through the one sanitizer, as every document does.
@Suite("lists --json sanitizes the server's texts")
struct ListsDocumentTests {
    @Test("a list's id, title and replies policy reach lists --json without escape sequences or control characters")
    func lists_sanitized() throws {
        let body = #"[{"id":"7\u001b[2J","title":"friends\u001b]0;owned\u0007 \u202etxt","replies_policy":"list\u001b[31m","exclusive":false}]"#
        let lists = try JSONDecoder().decode([UserList].self, from: Data(body.utf8))
        let data = try JSONEncoder().encode(ListsDocument(lists: lists))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require((object["lists"] as? [[String: Any]])?.first)
        for key in ["id", "title", "replies_policy"] {
            let text = try #require(entry[key] as? String, "\(key)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202e}" }, "\(key): \(text.debugDescription)")
        }
        #expect(entry["title"] as? String == "friends txt")
        #expect(entry["exclusive"] as? Bool == false)
    }
}
