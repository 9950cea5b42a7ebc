import Foundation
import Testing
import WshModel
import WshText
@testable import WshViewModel

/// What Mastodon has and Weibo lacks, shown by the same cell and detail ViewModels.
@Suite("Content warnings, boosts, polls and alt text on screen")
struct MastodonDisplayTests {
    private func status(_ json: String) throws -> Status {
        try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
    }

    private let account = #"{"id":"7","username":"ann","acct":"ann@example.social","display_name":"Ann"}"#

    @Test("a content warning stands in for the text in the row, and the detail keeps the text behind it")
    func contentWarning() throws {
        let warned = try status(#"{"id":"1","created_at":"2024-11-06T07:08:38.000Z","account":\#(account),"content":"<p>the ending</p>","spoiler_text":"spoilers","visibility":"unlisted"}"#)
        let row = StatusCellViewModel(status: warned, index: 1)
        #expect(row.text == "CW: spoilers")
        #expect(row.markers == "[CW]")
        #expect(row.author == "@ann@example.social")
        let detail = ClockZone.$shown.withValue(.utc) { StatusDetailViewModel(status: warned) }
        #expect(detail.contentWarning == "spoilers")
        #expect(detail.text == "the ending")
        #expect(detail.visibility == "unlisted")
        #expect(detail.time == "2024-11-06 07:08:38 +0000")
    }

    @Test("a boost shows who boosted and the boosted status, with no text of its own")
    func boost() throws {
        let boost = try status(#"{"id":"2","account":{"id":"8","acct":"bob"},"content":"","reblog":{"id":"1","account":\#(account),"content":"<p>original <a href=\"https://x.y/z\"><span class=\"invisible\">https://</span><span>x.y/z</span></a></p>","reblogs_count":4}}"#)
        let row = StatusCellViewModel(status: boost, index: 1)
        #expect(row.text == "↻ @bob boosted · original x.y/z")
        #expect(!row.markers.contains("[RT]"))
        let detail = StatusDetailViewModel(status: boost)
        #expect(detail.boostedBy == "↻ @bob boosted")
        #expect(detail.retweeted?.text == "original x.y/z")
        #expect(detail.retweeted?.reposts == 4)
    }

    @Test("media come with their descriptions, in order; a poll lists its options and votes")
    func mediaAndPoll() throws {
        let rich = try status(#"{"id":"3","account":\#(account),"content":"<p>look</p>","media_attachments":[{"type":"image","url":"https://m/1.png","description":"a cat"},{"type":"image","url":"https://m/2.png","description":null}],"poll":{"id":"9","expired":true,"multiple":false,"votes_count":5,"options":[{"title":"yes","votes_count":3},{"title":"no","votes_count":2}]}}"#)
        let row = StatusCellViewModel(status: rich, index: 1)
        #expect(row.markers == "[poll] [2 pics]")
        let detail = StatusDetailViewModel(status: rich)
        #expect(detail.pictureURLs == ["https://m/1.png", "https://m/2.png"])
        #expect(detail.pictureDescriptions == ["a cat", ""])
        #expect(detail.pollLines == ["1. yes · 3 votes", "2. no · 2 votes", "(closed)"])
    }
}

/// Fields real servers send: the data keeps them as sent, the Views show them.
@Suite("Mastodon fields kept and shown")
struct MastodonFieldsTests {
    private func status(_ json: String) throws -> Status {
        try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
    }

    private func json(_ document: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        return try #require(try JSONSerialization.jsonObject(with: encoder.encode(document)) as? [String: Any])
    }

    private let media = #"""
        {"id":"5","created_at":"2024-11-06T07:08:38.000Z","sensitive":true,
         "account":{"id":"7","username":"ann","acct":"ann","display_name":""},"content":"<p>clips</p>",
         "media_attachments":[
           {"type":"video","url":"https://x.example/a.mp4","description":"a dog runs"},
           {"type":"image","url":"https://x.example/b.png","description":null},
           {"type":"audio","url":"https://x.example/c.mp3","description":"birdsong"},
           {"type":"gifv","url":"https://x.example/d.mp4","description":null}]}
        """#

    @Test("a video or audio attachment is not a picture: the row counts each kind, the detail names it")
    func mediaKinds() throws {
        let clips = try status(media)
        let row = StatusCellViewModel(status: clips, index: 1)
        #expect(row.markers == "[sensitive] [2 pics] [1 video] [1 audio]")
        let detail = StatusDetailViewModel(status: clips)
        #expect(detail.mediaHeading == "media:")
        #expect(detail.mediaKinds == [.video, .picture, .audio, .picture])
        #expect(detail.sensitiveNote == "sensitive media (marked by the author)")
        // Weibo's pictures stay pictures.
        let weibo = Status(idstr: "1", text: "pics", picURLs: ["https://w.example/1.jpg"])
        #expect(StatusCellViewModel(status: weibo, index: 1).markers == "[1 pic]")
        #expect(StatusDetailViewModel(status: weibo).mediaHeading == "pictures:")
    }

    @Test("--json keeps the server's values: an empty display_name stays empty, media keep their type, sensitive is kept")
    func jsonKeepsServerValues() throws {
        let clips = try status(media)
        let document = try json(StatusDocument(clips, index: 1))
        let account = try #require(document["account"] as? [String: Any])
        #expect(account["display_name"] as? String == "")
        #expect(account["username"] as? String == "ann")
        let attachments = try #require(document["media_attachments"] as? [[String: Any]])
        #expect(attachments.map { $0["type"] as? String } == ["video", "image", "audio", "gifv"])
        #expect(document["sensitive"] as? Bool == true)
        // The View still shows a name.
        #expect(StatusDetailViewModel(status: clips).authorName == "ann")
    }
}

/// More of what real servers send: edits, link previews, tags, mentions, poll
/// details, the account's lock and bot marks, your own boost.
@Suite("Mastodon's edits, cards, tags, polls and account marks")
struct MastodonMoreFieldsTests {
    private let json = #"""
        {"id":"9","created_at":"2024-11-06T07:08:38.000Z","edited_at":"2024-11-06T08:00:00.000Z",
         "account":{"id":"7","username":"ann","acct":"ann","display_name":"Ann","locked":true,"bot":true},
         "content":"<p>see <a href=\"https://x.example/a\">x.example/a</a> #swift @bob</p>",
         "reblogged":true,"favourited":false,
         "card":{"url":"https://x.example/a","title":"A page","description":"…"},
         "tags":[{"name":"swift","url":"https://m.example/tags/swift"}],
         "mentions":[{"id":"8","username":"bob","acct":"bob@other.example","url":"https://other.example/@bob"}],
         "poll":{"id":"1","expires_at":"2024-11-07T07:08:38.000Z","expired":false,"multiple":true,"votes_count":3,
                 "voted":true,"own_votes":[0],"options":[{"title":"a","votes_count":2},{"title":"b","votes_count":1}]}}
        """#

    @Test("the detail shows the edit time, the link preview, tags, mentions and the poll's kind; --json keeps them all")
    func shownAndKept() throws {
        let status = try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
        let detail = ClockZone.$shown.withValue(.utc) { StatusDetailViewModel(status: status) }
        #expect(detail.editedNote == "edited 2024-11-06 08:00:00 +0000")
        #expect(detail.cardLine == "A page — https://x.example/a")
        #expect(detail.tagsLine == "#swift")
        #expect(detail.mentionsLine == "@bob@other.example")
        #expect(detail.pollLines.last?.contains("several choices · you voted") == true, "\(detail.pollLines)")
        let document = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(StatusDocument(status, index: 1))) as? [String: Any])
        #expect(document["edited_at"] as? String == "2024-11-06T08:00:00.000Z")
        #expect((document["card"] as? [String: String])?["title"] == "A page")
        #expect((document["tags"] as? [[String: String]])?.first?["name"] == "swift")
        #expect((document["mentions"] as? [[String: String]])?.first?["acct"] == "bob@other.example")
        #expect(document["reblogged"] as? Bool == true && document["favourited"] as? Bool == false)
        let poll = try #require(document["poll"] as? [String: Any])
        #expect(poll["multiple"] as? Bool == true && poll["voted"] as? Bool == true)
        #expect(poll["expires_at"] as? String == "2024-11-07T07:08:38.000Z")
        let account = try #require(document["account"] as? [String: Any])
        #expect(account["locked"] as? Bool == true && account["bot"] as? Bool == true)
        // The fast path reads the same values as JSONDecoder.
        #expect(try ModelDecoding.decode(MastodonStatus.self, from: Data(json.utf8)) == JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)))
    }

    @Test("the detail says what you did to the status (reposted here), the profile the account's lock and bot marks")
    func yoursAndAccountMarks() throws {
        let status = try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
        #expect(StatusDetailViewModel(status: status).yoursNote == "you reposted")
        var all = status
        all.favorited = true
        all.bookmarked = true
        #expect(StatusDetailViewModel(status: all).yoursNote == "you favourited · reposted · bookmarked")
        all.favorited = nil
        all.reposted = false
        all.bookmarked = nil
        #expect(StatusDetailViewModel(status: all).yoursNote == "")
        let user = try #require(status.user)
        #expect(UserViewModel(user: user).accountNote == "🔒 locked (approves each follower) · bot (automated)")
        var plain = user
        plain.locked = false
        plain.bot = nil
        #expect(UserViewModel(user: plain).accountNote == "")
    }

    @Test("--json keeps line breaks in every text the server sent; the detail folds the warning to one line")
    func lineBreaksKept() throws {
        let multiline = #"""
            {"id":"9","content":"<p>x</p>","spoiler_text":"first line\nsecond\tline\u001b[2J",
             "account":{"id":"7","username":"ann","acct":"ann","display_name":"Ann\nSmith","note":"<p>n</p>",
                        "fields":[{"name":"Two\nlines","value":"a\nb"}]},
             "media_attachments":[{"id":"1","type":"image","url":"https://m.example/1.png","description":"alt\ntext"}],
             "poll":{"id":"1","expired":false,"options":[{"title":"yes\nreally","votes_count":1}]},
             "card":{"url":"https://x.example/a","title":"A\npage","description":"one\ntwo"}}
            """#
        let status = try JSONDecoder().decode(MastodonStatus.self, from: Data(multiline.utf8)).status
        #expect(StatusDetailViewModel(status: status).contentWarning == "first line second line")
        let document = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(StatusDocument(status))) as? [String: Any])
        // The escape sequence goes, the line break and the tab stay.
        #expect(document["spoiler_text"] as? String == "first line\nsecond\tline")
        let account = try #require(document["account"] as? [String: Any])
        #expect(account["display_name"] as? String == "Ann\nSmith")
        #expect((account["fields"] as? [[String: Any]])?.first?["name"] as? String == "Two\nlines")
        #expect((account["fields"] as? [[String: Any]])?.first?["value"] as? String == "a\nb")
        #expect((document["media_attachments"] as? [[String: Any]])?.first?["description"] as? String == "alt\ntext")
        let options = (document["poll"] as? [String: Any])?["options"] as? [[String: Any]]
        #expect(options?.first?["title"] as? String == "yes\nreally")
        let card = try #require(document["card"] as? [String: Any])
        #expect(card["title"] as? String == "A\npage" && card["description"] as? String == "one\ntwo")
    }

    @Test("--json keeps every field of the link preview the server sent; the detail still shows title and URL")
    func wholeCard() throws {
        let json = #"""
            {"id":"9","content":"<p>x</p>","card":{"url":"https://x.example/a","title":"A page","description":"",
             "type":"video","author_name":"Ann","author_url":"https://x.example/ann","provider_name":"X",
             "provider_url":"https://x.example/","html":"<iframe></iframe>","width":640,"height":360,
             "image":"https://x.example/a.jpg","image_description":"a still","embed_url":"","blurhash":"UeKUpF",
             "language":"en","published_at":"2024-11-06T07:08:38.000Z"}}
            """#
        let status = try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
        #expect(try ModelDecoding.decode(MastodonStatus.self, from: Data(json.utf8)).status == status)
        #expect(StatusDetailViewModel(status: status).cardLine == "A page — https://x.example/a")
        let document = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(StatusDocument(status))) as? [String: Any])
        let card = try #require(document["card"] as? [String: Any])
        let sent = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["card"] as? [String: Any])
        #expect(Set(card.keys) == Set(sent.keys))
        #expect(card["description"] as? String == "" && card["type"] as? String == "video")
        #expect(card["provider_name"] as? String == "X" && card["image"] as? String == "https://x.example/a.jpg")
        #expect(card["width"] as? Int == 640 && card["height"] as? Int == 360)
        #expect(card["published_at"] as? String == "2024-11-06T07:08:38.000Z")
    }

    @Test("Akkoma's bare-status quote is shown like Mastodon's accepted one and kept in --json")
    func bareQuote() throws {
        let json = #"""
            {"id":"9","content":"<p>look</p>","account":{"id":"7","username":"ann","acct":"ann"},
             "quote":{"id":"5","content":"<p>quoted words</p>","account":{"id":"8","username":"bob","acct":"bob@other.example"}}}
            """#
        let status = try JSONDecoder().decode(MastodonStatus.self, from: Data(json.utf8)).status
        #expect(try ModelDecoding.decode(MastodonStatus.self, from: Data(json.utf8)).status == status)
        let detail = StatusDetailViewModel(status: status)
        #expect(detail.quoted?.text == "quoted words" && detail.quoted?.author == "@bob@other.example")
        #expect(detail.quoteNote.isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(StatusDocument(status))) as? [String: Any])
        let quote = try #require(document["quote"] as? [String: Any])
        #expect(quote["state"] as? String == "accepted")
        #expect((quote["quoted_status"] as? [String: Any])?["id"] as? String == "5")
    }
}
