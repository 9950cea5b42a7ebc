import Foundation
import Testing
@testable import WshModel
import WshText

/// Custom emojis, profile fields and quotes in real bodies (Fixtures/mastodon/SOURCES.md).
@Suite("Real Mastodon-family bodies: emojis, fields, quotes")
struct MastodonExtrasResponsesTests {
    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try ModelDecoding.decode(T.self, from: MastodonResponsesTests.fixture(name))
    }

    @Test("an account's custom emojis and fields: the value kept as HTML, verified_at where the server verified the link")
    func accountEmojisAndFields() throws {
        let user = try decode(MastodonAccount.self, "account_doc_emojis").user
        #expect(user.emojis.map(\.shortcode) == ["ms_rainbow_flag", "ms_bisexual_flag", "ms_nonbinary_flag"])
        #expect(user.emojis.first?.url == "https://files.mastodon.social/custom_emojis/images/000/028/691/original/6de008d6281f4f59.png")
        #expect(user.fields.map(\.name) == ["Pronouns", "Alt", "Bots", "Website"])
        #expect(user.fields[0].value == "they/them")
        #expect(user.fields[3].value.hasPrefix("<a href=\"http://shork.xyz\""))
        #expect(user.fields.map { $0.verifiedAt != nil } == [false, false, false, true])

        let official = try decode(MastodonAccount.self, "account_mastodon_social").user
        #expect(official.emojis.isEmpty)
        #expect(official.fields.map(\.name) == ["Homepage", "Patreon", "GitHub"])
        #expect(official.fields.map { $0.verifiedAt?.iso8601Text } == ["2018-10-31T04:11:00.076Z", nil, "2023-07-21T13:27:45.996Z"])
        #expect(HTMLText.plainText(official.fields[0].value) == "joinmastodon.org")
    }

    @Test("a status's emojis: the text keeps :shortcode:, the list gives each image; the author has its own")
    func statusEmojis() throws {
        let status = try decode(MastodonStatus.self, "pleroma_status_emojis_media").status
        #expect(status.text?.contains(":heart_cup:") == true)
        #expect(status.emojis == [CustomEmoji(shortcode: "heart_cup", url: "https://m.iamkonstantin.eu/emoji/mymoji/4d9dd29db402167f.png")])
        #expect(status.user?.emojis.map(\.shortcode) == ["rainbow_pride_potion", "veripawed", "veritrek"])
        // Pleroma's fields have no verified_at: none is verified.
        #expect(status.user?.fields.map(\.name) == ["Homepage", "Pronouns", "Location", "Languages"])
        #expect(status.user?.fields.allSatisfy { $0.verifiedAt == nil } == true)
    }

    @Test("Mastodon's Quote entity: accepted, with the quoted status; Akkoma's older bare-status quote is accepted too")
    func quote() throws {
        let quote = try #require(try decode(MastodonQuote.self, "quote_doc_accepted").quote)
        #expect(quote.state == "accepted")
        #expect(quote.hiddenReason.isEmpty)
        let quoted = try #require(quote.status)
        #expect(quoted.identifier == "103270115826048975")
        #expect(quoted.user?.screenName == "Gargron")
        #expect(quoted.text == "\"I lost my inheritance with one wrong digit on my sort code\"\ntheguardian.com/money/2019/dec…")
        // Akkoma 3.13's `quote` is the quoted status itself: the same Model quote, accepted.
        let akkoma = try #require(try decode(MastodonStatus.self, "akkoma_status_quote_card").status.quote)
        #expect(akkoma.state == "accepted")
        #expect(akkoma.hiddenReason.isEmpty)
        #expect(akkoma.statusID == "Al2KABLN3tuRoeE0A4")
        #expect(akkoma.status?.user?.screenName == "technicat@universeodon.com")
        // Mastodon 4.6's timeline statuses quote nothing.
        #expect(try decode([MastodonStatus].self, "public_timeline").allSatisfy { $0.status.quote == nil })
    }

    @Test("quote states: pending, revoked and unknown ones say why nothing is shown; a ShallowQuote keeps the id")
    func quoteStates() throws {
        func quote(_ json: String) throws -> QuotePost? {
            try ModelDecoding.decode(MastodonStatus.self, from: Data(#"{"id":"1","content":"<p>x</p>","quote":\#(json)}"#.utf8)).status.quote
        }
        #expect(try quote(#"{"state":"pending","quoted_status":null}"#)?.hiddenReason == "quote pending (its author has not approved it yet)")
        #expect(try quote(#"{"state":"revoked","quoted_status":null}"#)?.hiddenReason == "quote removed by its author")
        #expect(try quote(#"{"state":"something_new","quoted_status":null}"#)?.hiddenReason == "quote not visible to you")
        let shallow = try #require(try quote(#"{"state":"accepted","quoted_status_id":"42"}"#))
        #expect(shallow.statusID == "42")
        #expect(shallow.status == nil)
        #expect(try quote("null") == nil)
        // Neither a Quote nor a status (no id): no quote.
        #expect(try quote("{}") == nil)
        // Pleroma's `pleroma.quote`, a bare status, when there is no `quote`.
        let pleroma = try ModelDecoding.decode(MastodonStatus.self, from: Data(
            #"{"id":"1","content":"<p>x</p>","pleroma":{"quote":{"id":"9","content":"<p>quoted</p>"}}}"#.utf8)).status.quote
        #expect(pleroma?.state == "accepted")
        #expect(pleroma?.status?.text == "quoted")
    }
}
