import Foundation
import Testing
import WshModel
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
        let detail = StatusDetailViewModel(status: warned)
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
        #expect(detail.pollLines == ["yes · 3 votes", "no · 2 votes", "(closed)"])
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
