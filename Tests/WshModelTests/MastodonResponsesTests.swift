import Foundation
import Testing
@testable import WshModel

/// Bodies as real Mastodon, Pleroma, Akkoma and GoToSocial servers gave them,
/// collected from public client libraries' test data and the servers' own
/// tests (Fixtures/mastodon/SOURCES.md says where each came from). Every one
/// must decode into its Mastodon entity and map onto the Model with the
/// values a user would see.
@Suite("Real Mastodon-family responses decode")
struct MastodonResponsesTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/mastodon"),
                               "missing fixture \(name).json")
        return try Data(contentsOf: url)
    }

    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try ModelDecoding.decode(T.self, from: Self.fixture(name))
    }

    func status(_ name: String) throws -> Status {
        try decode(MastodonStatus.self, name).status
    }

    /// The instant an ISO 8601 text names, as seconds since 1970.
    func seconds(_ time: Timestamp?) -> Double? {
        time.map { ($0.date.timeIntervalSince1970 * 1000).rounded() / 1000 }
    }

    // MARK: - Timelines

    @Test("Mastodon's public timeline page: ids as text, acct as screen name, &#39; decoded, a mention as @name, a poll")
    func publicTimeline() throws {
        let page = try decode([MastodonStatus].self, "public_timeline").map(\.status)
        #expect(page.count == 8)
        #expect(page.map(\.identifier) == [
            "117020593378945190", "117020592137523525", "117020590477318485", "117020588242324937",
            "117020588169351887", "117020586180926938", "117020582721532745", "117020574694606796",
        ])
        #expect(page[0].text == "Toot, finally!")
        #expect(page[0].user?.screenName == "mastodonpy_test_2")
        #expect(seconds(page[0].createdAt) == 1_785_592_550.338)
        #expect(page[1].text == "you can't say that on television")
        #expect(page[3].text == "on the internet, nobody knows you're a plane")
        // `<span class="h-card"><a …>@<span>mastodonpy_test</span></a></span>` is the name it mentions.
        #expect(page[4].text == "@mastodonpy_test beep beep I'm a jeep")
        #expect(page.allSatisfy { $0.isBoost == false && $0.retweetedStatus == nil && $0.picURLs.isEmpty })
        #expect(page.allSatisfy { $0.visibility == "public" && $0.contentWarning == nil })
        #expect(page.allSatisfy { $0.source == "Mastodon.py test suite" })

        let poll = try #require(page[6].poll)
        #expect(page[6].text == "nice")
        #expect(poll.options == [Poll.Option(title: "four twenty", votes: 0), Poll.Option(title: "sixty-nine", votes: 1)])
        #expect(poll.votesCount == 1)
        #expect(poll.expired == false)
        #expect(seconds(poll.expiresAt) == 1_785_592_687.715)

        // An admin without a display name shows the username.
        #expect(page[1].user?.name == "admin")
        #expect(page[1].user?.identifier == "117020565693913441")
    }

    // MARK: - Statuses

    @Test("a boost: no text of its own, the boosted status shared, counts from the boosted one")
    func boost() throws {
        let boost = try status("status_reblog")
        #expect(boost.isBoost)
        #expect(boost.text == "")
        #expect(boost.identifier == "117020586027094262")
        #expect(boost.user?.screenName == "mastodonpy_test")
        let boosted = try #require(boost.retweetedStatus)
        #expect(boosted.identifier == "117020586019094258")
        #expect(boosted.text == "Toot!")
        #expect(boosted.isBoost == false)
        #expect(boosted.user?.name == "John Lennon")
        #expect(boosted.repostsCount == 1)
        #expect(boosted.url == "http://localhost:3000/@mastodonpy_test/117020586019094258")
        #expect(seconds(boosted.createdAt) == 1_785_592_438.036)
    }

    @Test("a poll, on its status and as the poll entity after two votes")
    func poll() throws {
        let status = try status("status_poll")
        #expect(status.poll?.options.map(\.title) == ["four twenty", "sixty-nine"])
        #expect(status.poll?.options.map(\.votes) == [0, 0])
        #expect(status.poll?.votesCount == 0)

        let voted = try decode(MastodonPoll.self, "poll_voted").poll
        #expect(voted.options.map(\.votes) == [1, 1])
        #expect(voted.votesCount == 2)
        #expect(voted.expired == false)
        #expect(seconds(voted.expiresAt) == 1_785_592_687.237)
    }

    @Test("media: full-size URLs and alt texts in order; a picture without a description keeps its place")
    func media() throws {
        let described = try status("status_media_described")
        #expect(described.text == "LOL check this out")
        #expect(described.picURLs == [
            "http://localhost:3000/system/media_attachments/files/117/020/576/646/493/592/original/963111bc1b0bd6b6.jpg",
            "http://localhost:3000/system/media_attachments/files/117/020/576/661/238/952/original/c71a1b53ce29a852.jpg",
        ])
        #expect(described.mediaDescriptions == ["John Lennon doing a funny walk", "hololives #1 detective, watson ameliachan"])
        #expect(described.visibility == "unlisted")

        let undescribed = try status("status_media_undescribed")
        #expect(undescribed.picURLs.count == 1)
        #expect(undescribed.mediaDescriptions == [nil])
    }

    @Test("DELETE answers with the status's source in `text` and no `content`: the text is still there")
    func deletedStatusSourceText() throws {
        let deleted = try status("status_deleted_source_text")
        #expect(deleted.identifier == "117020606035908211")
        #expect(deleted.text == "Status with media")
        #expect(deleted.picURLs.count == 1)
    }

    @Test("a link with a card: the link reads as its visible text, the hidden scheme dropped")
    func card() throws {
        let status = try status("status_card")
        #expect(status.text == "example.org/")
        #expect(status.identifier == "117020609135389699")
    }

    @Test("a content warning stays apart from the text")
    func contentWarning() throws {
        let status = try status("status_content_warning")
        #expect(status.contentWarning == "Content warning")
        #expect(status.text == "Toot!")
        #expect(status.visibility == "public")
    }

    // MARK: - Pleroma, Akkoma, GoToSocial

    @Test("Pleroma: opaque ids, a custom emoji shortcode in the text, a spoiler, media with a long alt text")
    func pleroma() throws {
        let status = try status("pleroma_status_emojis_media")
        #expect(status.identifier == "AQetOIEp6Z2GZ4UiI4")
        #expect(status.id == nil)
        #expect(status.text == "I just #love #coffee :heart_cup:  There is no better way to start the day.")
        #expect(status.contentWarning == "Coffee, Star Trek")
        #expect((status.commentsCount, status.repostsCount, status.attitudesCount) == (0, 12, 16))
        #expect(status.picURLs == ["https://m.iamkonstantin.eu/media/3febd084-8f52-461f-a30e-c4cdac6ba1e4/image.jpeg"])
        #expect(status.mediaDescriptions.first??.hasPrefix("Cartoon poster of Captain Janeway") == true)
        #expect(seconds(status.createdAt) == 1_671_179_191)
        let user = try #require(status.user)
        #expect(user.identifier == "APEilAvuVZZU5LVFCa")
        #expect(user.screenName == "konstantin")
        #expect(user.name == "Konstantin :veripawed: :veritrek: :rainbow_pride_potion:")
        #expect(user.statusesCount == 695)
        // `<br/>` breaks lines; the mention is its text.
        #expect(user.description == """
            Long-time human in tech. I build things for iOS, macOS, and the web, researcher of digital twins and open data, indie  developer. \n\nPreviously @kkostov@mastodon.social
            he/him 🏳️‍🌈
            """)
    }

    @Test("`<br />` inside paragraphs: one line each, and a line break between paragraphs")
    func lineBreaks() throws {
        let status = try status("pleroma_status_linebreaks")
        #expect(status.text?.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
            "Wordle 591 X/6*", "🟨⬛🟩🟨⬛", "🟨⬛🟩⬛🟩", "🟩🟩🟩⬛🟩", "🟩🟩🟩⬛🟩", "🟩🟩🟩⬛🟩", "🟩🟩🟩⬛🟩",
        ])
        #expect(status.user?.screenName == "tootsdk@iosdev.space")
        #expect(status.favorited == true)
        #expect(status.visibility == "unlisted")
    }

    @Test("Akkoma: `pleroma` and `akkoma` extension objects, a card, a quote, `application: null`, a date-only last_status_at")
    func akkoma() throws {
        let decoded = try decode(MastodonStatus.self, "akkoma_status_quote_card")
        let status = decoded.status
        #expect(status.identifier == "Al30Y6dIQNzsEKhR5s")
        #expect(status.text == "from @technicat\n\nhttps://universeodon.com/@technicat/112973737736509814")
        #expect(status.source == nil)
        #expect(status.isBoost == false)
        #expect(status.user?.screenName == "technicat")
        #expect(status.user?.identifier == "AdhbFZfyxZ7BgRaYOO")
        #expect(seconds(status.createdAt) == 1_723_870_909)
        #expect(status.url == "https://miraiverse.xyz/notice/Al30Y6dIQNzsEKhR5s")
    }

    @Test("GoToSocial: ULID ids, a multi-line plain-text content warning, seconds-only times, media with alt text")
    func goToSocial() throws {
        let status = try status("gotosocial_status_cw")
        #expect(status.identifier == "01F8MH75CBF9JFX4ZAD54N0W0R")
        #expect(status.text == "hello world! #welcome ! first post on the instance :rainbow: !")
        #expect(status.contentWarning?.hasPrefix("First paragraph of content warning\n\nHere's the title!") == true)
        #expect(status.source == "superseriousbusiness")
        #expect(status.user?.screenName == "admin")
        #expect(status.user?.name == "admin")
        #expect(seconds(status.createdAt) == 1_634_729_805)
        #expect(status.picURLs == ["http://localhost:8080/fileserver/01F8MH17FWEB39HZJ76B6VXSKF/attachment/original/01F8MH6NEM8D7527KZAECTCR76.jpg"])
        #expect(status.mediaDescriptions == ["Black and white image of some 50's style text saying: Welcome On Board"])
        #expect((status.commentsCount, status.repostsCount, status.attitudesCount) == (1, 0, 1))
        #expect(status.favorited == true)
    }

    // MARK: - Accounts, notifications, relationships

    @Test("an account with verified fields and no emojis (mastodon.social)")
    func account() throws {
        let user = try decode(MastodonAccount.self, "account_mastodon_social").user
        #expect(user.identifier == "13179")
        #expect(user.screenName == "Mastodon")
        #expect(user.name == "Mastodon")
        #expect(user.description == "Free, open-source decentralized social media platform.")
        #expect(user.followersCount == 814_295)
        #expect(user.friendsCount == 3)
        #expect(user.statusesCount == 262)
        #expect(user.url == "https://mastodon.social/@Mastodon")
        #expect(seconds(user.createdAt) == 1_479_859_200)
    }

    @Test("the documentation's account: custom emojis, fields, a remote acct, a note whose end tags are mangled")
    func accountWithEmojis() throws {
        let user = try decode(MastodonAccount.self, "account_doc_emojis").user
        #expect(user.identifier == "23634")
        #expect(user.screenName == "noiob@awoo.space")
        #expect(user.name == "ikea shark fan account :ms_rainbow_flag:")
        #expect((user.followersCount, user.friendsCount, user.statusesCount) == (547, 404, 28468))
        #expect(seconds(user.createdAt) == 1_486_519_253.274)
        // The note's `</span}` is not a tag's end; whatever it reads as, it is text without markup.
        let note = try #require(user.description)
        #expect(note.hasPrefix(":ms_rainbow_flag:"))
        #expect(!note.contains("<") && !note.contains("href"))
    }

    @Test("a notification of type mention carries the status that mentions")
    func mentionNotification() throws {
        let notifications = try decode([MastodonNotification].self, "notifications_mention")
        #expect(notifications.count == 1)
        #expect(notifications[0].id == "21")
        #expect(notifications[0].type == "mention")
        let status = try #require(notifications[0].status?.status)
        #expect(status.text == "@mastodonpy_test hello!")
        #expect(status.user?.screenName == "admin")
        #expect(status.identifier == "117020577157693549")
    }

    @Test("relationships: an array from accounts/relationships, one object from follow")
    func relationships() throws {
        let list = try decode([MastodonRelationship].self, "relationships")
        #expect(list.map(\.id) == ["117020457910412882"])
        #expect(list.map(\.following) == [false])
        let one = try decode(MastodonRelationship.self, "relationship_single")
        #expect(one.id == "109580351883608424")
        #expect(one.following == false)
    }

    // MARK: - Context

    @Test("the documentation's context: a reply to the focus, ancestors above it")
    func contextDoc() throws {
        let context = try decode(MastodonContext.self, "context_doc")
        #expect(context.ancestors.map(\.id) == ["103188938570975982", "103188971072973252", "103188982235527758"])
        let page = context.comments(under: "103189005915505698")
        #expect(page.comments.map(\.identifier) == ["103189026958574542"])
        #expect(page.comments.map(\.depth) == [0])
        #expect(seconds(page.comments[0].createdAt) == 1_574_539_596.011)
    }

    @Test("a thread: replies in thread order with their depth, whatever order the array has; an orphan at the top level")
    func contextThread() throws {
        let context = try decode(MastodonContext.self, "context_thread_hand")
        let page = context.comments(under: "101")
        #expect(page.comments.map(\.identifier) == ["102", "103", "104", "105"])
        #expect(page.comments.map(\.depth) == [0, 1, 0, 0])
        #expect(page.totalNumber == 4)
        #expect(page.comments[0].text == "@carol here, one level down")
        #expect(page.comments[0].user?.screenName == "bob@pleroma.example")
        // Times with an offset, with a fraction and an offset, and with neither.
        #expect(page.comments.map { seconds($0.createdAt) } == [1_574_539_200, 1_574_539_260, 1_574_506_920.5, 1_574_539_380])
    }

    // MARK: - Lenience the fixtures do not show

    @Test("numbers for ids and counts, null arrays, an account without fields, poll options without votes")
    func lenientShapes() throws {
        let body = #"""
        {"id": 103188938570975982, "created_at": "2019-11-23T19:44:00Z", "content": "<p class=\"x\">it&#39;s <b>bold</b><br/>next</p>",
         "account": {"id": 7, "acct": "someone"}, "media_attachments": null, "reblog": null, "replies_count": "3",
         "poll": {"options": [{"title": "yes", "votes_count": null}, {"title": "no"}], "votes_count": null, "expired": true}}
        """#
        let status = try ModelDecoding.decode(MastodonStatus.self, from: Data(body.utf8)).status
        #expect(status.identifier == "103188938570975982")
        #expect(status.text == "it's bold\nnext")
        #expect(status.user?.identifier == "7")
        #expect(status.user?.screenName == "someone")
        #expect(status.user?.name == nil)
        #expect(status.picURLs.isEmpty)
        #expect(status.commentsCount == 3)
        #expect(status.poll?.options == [Poll.Option(title: "yes", votes: nil), Poll.Option(title: "no", votes: nil)])
        #expect(status.poll?.expired == true)
        #expect(seconds(status.createdAt) == 1_574_538_240)
    }

    @Test("ISO 8601 as the servers write it: fractions of any length, Z, offsets with and without a colon, a date alone")
    func times() {
        #expect(seconds(Timestamp(iso8601: "2026-08-01T13:55:50.338Z")) == 1_785_592_550.338)
        #expect(seconds(Timestamp(iso8601: "2021-10-20T11:36:45.000Z")) == 1_634_729_805)
        #expect(seconds(Timestamp(iso8601: "2021-10-20T11:36:45Z")) == 1_634_729_805)
        #expect(seconds(Timestamp(iso8601: "2019-11-10T10:31:10.744+00:00")) == 1_573_381_870.744)
        #expect(seconds(Timestamp(iso8601: "2019-11-23T20:02:00.5+09:00")) == 1_574_506_920.5)
        #expect(seconds(Timestamp(iso8601: "2019-11-23T20:02:00+0900")) == 1_574_506_920)
        #expect(seconds(Timestamp(iso8601: "2026-08-01T15:00:00.949515Z")) == 1_785_596_400.950)
        #expect(Timestamp(iso8601: "2019-11-23T20:02:00.5+09:00")?.utcOffset == 9 * 3600)
        #expect(seconds(Timestamp(iso8601: "2024-08-17")) == 1_723_852_800)
        #expect(Timestamp(iso8601: "yesterday") == nil)
        #expect(Timestamp(iso8601: "2024-08-17T05:01:49.Z") == nil)
    }
}
