import Foundation
import Testing
@testable import WshModel

@Suite("Decoding the shapes Weibo responses take")
struct DecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ModelDecoding.decode(T.self, from: Data(json.utf8))
    }

    @Test("a full timeline page decodes every field the client shows")
    func fullPage() throws {
        let page = try decode(TimelinePage.self, #"""
        {"statuses": [{
          "created_at": "Tue May 31 17:46:55 +0800 2011",
          "id": 4001234567890123, "idstr": "4001234567890123", "mid": "4001234567890123",
          "text": "今天天气不错 #晴天# @小明 http:\/\/t.cn\/abc 😀",
          "source": "<a href=\"http://app.weibo.com/t/feed/5yiHuw\" rel=\"nofollow\">iPhone客户端</a>",
          "favorited": false, "truncated": false,
          "in_reply_to_status_id": "", "in_reply_to_user_id": "", "in_reply_to_screen_name": "",
          "pic_urls": [{"thumbnail_pic": "http://ww1.sinaimg.cn/thumbnail/a.jpg"}, {"thumbnail_pic": "http://ww1.sinaimg.cn/thumbnail/b.jpg"}],
          "reposts_count": 8, "comments_count": 9, "attitudes_count": 10,
          "user": {"id": 1404376560, "idstr": "1404376560", "screen_name": "zaku", "name": "zaku",
                   "followers_count": 1204, "verified": 0, "created_at": "Fri Aug 28 00:00:00 +0800 2009"}
        }], "total_number": 1000, "previous_cursor": 0, "next_cursor": 11}
        """#)
        let status = try #require(page.statuses.first)
        #expect(page.totalNumber == 1000)
        #expect(status.id == 4_001_234_567_890_123)
        #expect(status.identifier == "4001234567890123")
        #expect(status.text == "今天天气不错 #晴天# @小明 http://t.cn/abc 😀")
        #expect(status.picURLs.count == 2)
        #expect(status.inReplyToStatusID == "")
        #expect(status.user?.screenName == "zaku")
        #expect(status.user?.verified == false)
        #expect(status.commentsCount == 9)
        #expect(status.createdAt?.weiboText == "Tue May 31 17:46:55 +0800 2011")
    }

    @Test("a bare top-level array is a page")
    func bareArray() throws {
        let page = try decode(TimelinePage.self, #"[{"id": 1, "text": "a"}, {"id": 2, "text": "b"}]"#)
        #expect(page.statuses.map(\.id) == [1, 2])
        let comments = try decode(CommentsPage.self, #"[{"id": 7, "text": "好"}]"#)
        #expect(comments.comments.first?.text == "好")
    }

    @Test("unknown fields are ignored and missing fields are nil")
    func unknownAndMissing() throws {
        let status = try decode(Status.self, #"{"text": "x", "visible": {"type": 0}, "annotations": [{}], "darwin_tags": []}"#)
        #expect(status.text == "x")
        #expect(status.id == nil)
        #expect(status.user == nil)
        #expect(status.picURLs.isEmpty)
    }

    @Test("ids arrive as numbers or strings, above 2^53 without losing digits")
    func idShapes() throws {
        let status = try decode(Status.self, #"{"id": "9007199254740993", "mid": 9007199254740995, "idstr": "9007199254740993"}"#)
        #expect(status.id == 9_007_199_254_740_993)
        #expect(status.mid == "9007199254740995")
        let numeric = try decode(Status.self, #"{"id": 9007199254740993}"#)
        #expect(numeric.id == 9_007_199_254_740_993)
        #expect(numeric.identifier == "9007199254740993")
    }

    @Test("a user's nested status has no user, and retweets nest recursively")
    func nesting() throws {
        let user = try decode(User.self, #"{"screen_name": "a", "status": {"id": 5, "text": "latest"}}"#)
        #expect(user.status?.text == "latest")
        #expect(user.status?.user == nil)
        let status = try decode(Status.self, #"""
        {"id": 1, "retweeted_status": {"id": 2, "user": {"screen_name": "b"},
           "retweeted_status": {"id": 3, "text": "origin"}}}
        """#)
        #expect(status.retweetedStatus?.user?.screenName == "b")
        #expect(status.retweetedStatus?.retweetedStatus?.text == "origin")
    }

    @Test("escapes, ZWJ sequences, zero-width spaces and text outside the BMP survive")
    func textEscapes() throws {
        let status = try decode(Status.self, #"{"text": "\ud83d\udc69\u200d\ud83d\udcbb a\u200bb \/path \"q\" 𠀀"}"#)
        #expect(status.text == "👩‍💻 a\u{200B}b /path \"q\" 𠀀")
        #expect(status.text?.unicodeScalars.contains { $0.value > 0xFFFF } == true)
    }

    @Test("a field of the wrong shape becomes nil instead of failing the status")
    func wrongShapes() throws {
        let status = try decode(Status.self, #"{"id": 1, "reposts_count": "12", "comments_count": "", "user": "gone", "created_at": "yesterday", "pic_urls": [1, {"thumbnail_pic": "u"}]}"#)
        #expect(status.repostsCount == 12)
        #expect(status.commentsCount == nil)
        #expect(status.user == nil)
        #expect(status.createdAt == nil)
        #expect(status.picURLs == ["u"])
    }

    @Test("one broken status in a page is dropped, the rest decode")
    func lossyArray() throws {
        let page = try decode(TimelinePage.self, #"{"statuses": [{"id": 1}, 42, {"id": 3}]}"#)
        #expect(page.statuses.map(\.id) == [1, 3])
    }

    @Test("an error body decodes with error_code as a number or a string")
    func errorBodies() throws {
        let numeric = try decode(APIErrorBody.self, #"{"error": "expired_token", "error_code": 21327, "request": "/2/statuses/home_timeline.json"}"#)
        #expect(numeric == APIErrorBody(code: 21327, message: "expired_token", request: "/2/statuses/home_timeline.json"))
        let text = try decode(APIErrorBody.self, #"{"error": "User requests out of rate limit!", "error_code": "10023"}"#)
        #expect(text.code == APIErrorCode.rateLimited)
    }

    @Test("a page without statuses says what and where it failed")
    func failureNamesWhatAndWhere() {
        #expect {
            _ = try decode(TimelinePage.self, #"{"comments": []}"#)
        } throws: { error in
            let failure = error as? ModelDecodingError
            return failure?.what == "TimelinePage" && failure?.description.contains("statuses") == true
        }
        #expect {
            _ = try decode(TimelinePage.self, #"{"statuses": [ {"id": 1}"#)
        } throws: { error in
            (error as? ModelDecodingError)?.what == "TimelinePage"
        }
    }

    @Test("encoding a status gives back the API's field names and time format")
    func encodingKeepsAPINames() throws {
        let original = try decode(Status.self, #"{"id": 4001234567890123, "idstr": "4001234567890123", "created_at": "Wed Jan 03 09:05:00 +0800 2024", "text": "hi", "user": {"screen_name": "u"}}"#)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(original)) as? [String: Any]
        #expect(object?["idstr"] as? String == "4001234567890123")
        #expect(object?["created_at"] as? String == "Wed Jan 03 09:05:00 +0800 2024")
        #expect((object?["user"] as? [String: Any])?["screen_name"] as? String == "u")
        let again = try JSONDecoder().decode(Status.self, from: JSONEncoder().encode(original))
        #expect(again == original)
    }
}

@Suite("Weibo times")
struct WeiboTimeTests {
    @Test("the text form parses to the right instant and prints back the same")
    func roundTrip() throws {
        let time = try #require(Timestamp(weiboText: "Tue May 31 17:46:55 +0800 2011"))
        #expect(time.date.timeIntervalSince1970 == 1_306_835_215)
        #expect(time.utcOffset == 8 * 3600)
        #expect(time.weiboText == "Tue May 31 17:46:55 +0800 2011")
        let west = try #require(Timestamp(weiboText: "Mon Jan 01 00:00:00 -0530 2024"))
        #expect(west.components.hour == 0)
        #expect(west.weiboText == "Mon Jan 01 00:00:00 -0530 2024")
    }

    @Test("other forms are rejected, not guessed")
    func rejects() {
        for text in ["", "2011-05-31T17:46:55Z", "Tue May 31 17:46:55 2011", "Tue Foo 31 17:46:55 +0800 2011", "Tue May 31 25:46:55 +0800 2011"] {
            #expect(Timestamp(weiboText: text) == nil, "\(text)")
        }
    }

    @Test("the weekday is computed, across leap years")
    func weekdays() throws {
        let leap = Timestamp(date: Date(timeIntervalSince1970: 951_782_400), utcOffset: 0)  // 2000-02-29
        #expect(leap.weiboText == "Tue Feb 29 00:00:00 +0000 2000")
    }

    @Test("years of every width and offsets of every sign print in both forms")
    func textForms() {
        func at(_ seconds: Double, _ offset: Int) -> Timestamp {
            Timestamp(date: Date(timeIntervalSince1970: seconds), utcOffset: offset)
        }
        // 0999-12-31 23:59:59.5 UTC: Weibo writes the year as it is, ISO 8601 with four digits.
        let old = at(-30_610_224_000.5, 0)
        #expect(old.weiboText == "Tue Dec 31 23:59:59 +0000 999")
        #expect(old.iso8601Text == "0999-12-31T23:59:59.500Z")
        #expect(at(1_306_835_215.042, -(3 * 3600 + 30 * 60)).weiboText == "Tue May 31 06:16:55 -0330 2011")
        #expect(at(1_306_835_215.042, 0).iso8601Text == "2011-05-31T09:46:55.042Z")
        #expect(at(0, 14 * 3600).weiboText == "Thu Jan 01 14:00:00 +1400 1970")
        // 10000-01-01 00:00:00 UTC, past four digits.
        let far = at(253_402_300_800, 0)
        #expect(far.weiboText == "Sat Jan 01 00:00:00 +0000 10000")
        #expect(far.iso8601Text == "10000-01-01T00:00:00.000Z")
    }
}
