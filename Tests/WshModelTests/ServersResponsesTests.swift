import Foundation
import Testing
@testable import WshModel
import WshText

/// Real bodies of servers other than Mastodon (Fixtures/servers, sources in
/// Fixtures/mastodon/SOURCES.md): what the Model makes of Pleroma's
/// reactions and quotes, GoToSocial's and Mastodon's moved accounts,
/// unknown attachment types, Friendica's and Fedibird's statuses, and
/// Pleroma's own notification types — by both decoders.
@Suite("Real bodies of other servers speaking Mastodon's API")
struct ServersResponsesTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/servers"),
                               "missing fixture \(name).json")
        return try Data(contentsOf: url)
    }

    /// `name` decoded by the Model (the fast path), checked equal to JSONDecoder's own reading.
    func decode<T: Decodable & Equatable>(_ type: T.Type, _ name: String) throws -> T {
        let data = try Self.fixture(name)
        let value = try ModelDecoding.decode(T.self, from: data)
        #expect(try JSONDecoder().decode(T.self, from: data) == value, "\(name): the fast path differs from JSONDecoder")
        return value
    }

    @Test("a moved account says where it moved (Mastodon's and GoToSocial's `moved`, a whole account)")
    func movedAccounts() throws {
        let mastodon = try decode(MastodonAccount.self, "mastodon_account_moved").user
        // As mastodon.social served it: the account and the one it moved to share an acct on different servers.
        #expect(mastodon.screenName == "noiob@awoo.space" && mastodon.movedTo == "noiob@awoo.space")
        let gotosocial = try decode(MastodonAccount.self, "gotosocial_account_moved").user
        #expect(gotosocial.screenName == "the_mighty_zork" && gotosocial.movedTo == "1happyturtle")
        let pixelfed = try decode(MastodonAccount.self, "pixelfed_account").user
        #expect(pixelfed.movedTo == nil)
    }

    @Test("Pleroma's emoji reactions on a status with a card, a poll and a quote")
    func pleromaReactions() throws {
        let card = try decode(MastodonStatus.self, "pleroma_status_card").status
        #expect(card.reactions == [EmojiReaction(name: "❤️", count: 5, me: false), EmojiReaction(name: "👍", count: 1, me: false)])
        #expect(card.card?.url.isEmpty == false)
        let poll = try decode(MastodonStatus.self, "pleroma_status_poll").status
        #expect(poll.reactions == [EmojiReaction(name: "❤️", count: 3, me: false)])
        #expect(poll.poll?.options.first?.title == "Banning, censoring, and deplatforming anyone you disagree with")
        let quote = try decode(MastodonStatus.self, "pleroma_status_quote").status
        #expect(quote.quote?.status?.identifier == "AFmFLcd6XYVdjWCrOS")
        #expect(quote.reactions == [EmojiReaction(name: "👍", count: 1, me: false)])
    }

    @Test("Akkoma's top-level emoji_reactions are read as Pleroma's are")
    func akkomaTopLevelReactions() throws {
        let body = #"{"id":"A1","content":"<p>hi</p>","emoji_reactions":[{"name":"blobcat","count":2,"me":true,"url":"https://a.example/e.png"}],"pleroma":{"emoji_reactions":[]}}"#
        let status = try ModelDecoding.decode(MastodonStatus.self, from: Data(body.utf8)).status
        #expect(status.reactions == [EmojiReaction(name: "blobcat", count: 2, me: true)])
        #expect(try JSONDecoder().decode(MastodonStatus.self, from: Data(body.utf8)).status.reactions == status.reactions)
    }

    @Test("unknown attachment types are kept as the server names them; GoToSocial lists what it did not download in the text")
    func unknownAttachments() throws {
        let pleroma = try decode(MastodonStatus.self, "pleroma_status_attachments_unknown_audio").status
        #expect(pleroma.mediaTypes == ["image", "unknown", "audio", "unknown"])
        let gotosocial = try decode(MastodonStatus.self, "gotosocial_status_unknown_attachments").status
        #expect(gotosocial.mediaTypes == ["image"])
        #expect(gotosocial.text?.contains("01HE892Y8ZS68TQCNPX7J888P3.mp3") == true)
    }

    @Test("a Pleroma timeline page of polls, a GoToSocial boost and poll, Friendica's and Fedibird's statuses decode")
    func timelinesAndStatuses() throws {
        let page = try decode([MastodonStatus].self, "pleroma_timeline_polls").map(\.status)
        #expect(page.count == 3 && page.allSatisfy { $0.poll != nil })
        let boost = try decode(MastodonStatus.self, "gotosocial_status_reblog").status
        #expect(boost.isBoost && boost.retweetedStatus?.picURLs.count == 1)
        #expect(try decode(MastodonStatus.self, "gotosocial_status_poll").status.poll?.options.isEmpty == false)
        let friendica = try decode(MastodonStatus.self, "friendica_status").status
        #expect(friendica.identifier == "106" && friendica.user?.screenName == "alex")
        let fedibird = try decode(MastodonStatus.self, "fedibird_status_quote").status
        #expect(fedibird.quote?.status != nil)
    }

    @Test("Pleroma's own notification types: a reaction with its emoji, a move, a follow request; GoToSocial's follow")
    func notifications() throws {
        let data = try Self.fixture("pleroma_notification_emoji_reaction")
        let reaction = try ModelDecoding.decode(MastodonNotification.self, from: data).notification
        #expect(reaction.type == "pleroma:emoji_reaction" && reaction.emoji == "😮")
        #expect(reaction.status?.card != nil)
        let move = try ModelDecoding.decode(MastodonNotification.self, from: Self.fixture("pleroma_notification_move")).notification
        #expect(move.type == "move" && move.account?.screenName == "alex@fedibird.com" && move.emoji == nil)
        let request = try ModelDecoding.decode(MastodonNotification.self, from: Self.fixture("pleroma_notification_follow_request")).notification
        #expect(request.type == "follow_request" && request.status == nil)
        let follow = try ModelDecoding.decode(MastodonNotification.self, from: Self.fixture("gotosocial_notification_follow")).notification
        #expect(follow.type == "follow" && follow.account != nil)
    }

    @Test("each element of a page is kept as its own slice of the body, for --json")
    func keptSlices() throws {
        let body = try Self.fixture("pleroma_timeline_polls")
        let elements = try #require(ServerJSON.elements(of: body))
        #expect(elements.count == 3)
        let first = try #require(elements[0].value)
        #expect(first["pleroma"]?["conversation_id"] != nil && first["poll"] != nil)
        #expect(ServerJSON.elements(of: Data(#"{"error":"x"}"#.utf8)) == nil)
    }

    /// A search `{accounts, statuses, hashtags}` and a thread `{ancestors,
    /// descendants}` made of real entities, as a server nests them.
    static func nested(_ members: [(String, [String])]) throws -> Data {
        let parts = try members.map { key, names in
            "\"\(key)\": [" + (try names.map { String(decoding: try fixture($0), as: UTF8.self) }.joined(separator: ",\n")) + "]"
        }
        return Data(("{ " + parts.joined(separator: ",\n") + " }").utf8)
    }

    @Test("a member's array elements and a member object are kept as slices of the body (search, thread, conversation)")
    func keptMemberSlices() throws {
        let search = try Self.nested([("accounts", ["gotosocial_account_moved", "pixelfed_account"]),
                                      ("statuses", ["pleroma_status_card"]), ("hashtags", [])])
        let accounts = try #require(ServerJSON.elements(of: search, member: "accounts"))
        #expect(accounts.count == 2)
        #expect(accounts[0].value?["enable_rss"] != nil && accounts[1].value?["discoverable"] != nil)
        let statuses = try #require(ServerJSON.elements(of: search, member: "statuses"))
        #expect(statuses.count == 1 && statuses[0].value?["pleroma"]?["emoji_reactions"] != nil)
        #expect(ServerJSON.elements(of: search, member: "hashtags") == [])
        // Slices of the one body, not copies.
        #expect(statuses[0].bytes.startIndex > search.startIndex && statuses[0].bytes.endIndex < search.endIndex)
        #expect(ServerJSON.elements(of: search, member: "missing") == nil)

        let thread = try Self.nested([("ancestors", []), ("descendants", ["pleroma_status_poll", "pleroma_status_quote"])])
        let replies = try #require(ServerJSON.elements(of: thread, member: "descendants"))
        #expect(replies.compactMap { $0.value?["in_reply_to_account_id"] }.count == 2)

        let conversation = Data((#"{"id":"7","unread":true,"last_status":"# + String(decoding: try Self.fixture("pleroma_status_poll"), as: UTF8.self)
            + #","accounts":[]}"#).utf8)
        #expect(ServerJSON.member("last_status", of: conversation)?.value?["pleroma"] != nil)
        #expect(ServerJSON.member("last_status", of: Data(#"{"id":"7","last_status":null}"#.utf8)) == nil)
        #expect(ServerJSON.member("id", of: Data("[1]".utf8)) == nil)
        let mentions = Data(("[" + #"{"id":"1","type":"mention","status":"# + String(decoding: try Self.fixture("pleroma_status_card"), as: UTF8.self)
            + "}," + #"{"id":"2","type":"follow","status":null}"# + "]").utf8)
        let kept = try #require(ServerJSON.members("status", ofElementsOf: mentions))
        #expect(kept.count == 2 && kept[0]?.value?["pleroma"] != nil && kept[1] == nil)
    }
}
