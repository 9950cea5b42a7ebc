import Foundation
import Testing
@testable import WshModel

/// Bodies as real Weibo servers and their documentation gave them, collected
/// from public SDKs' and clients' test data (Fixtures/weibo/SOURCES.md says
/// where each came from). Every one must decode into its Model type with the
/// values a user would see.
@Suite("Real Weibo responses decode")
struct RealResponsesTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/weibo"),
                               "missing fixture \(name).json")
        return try Data(contentsOf: url)
    }

    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try ModelDecoding.decode(T.self, from: Self.fixture(name))
    }

    // MARK: - Timelines

    @Test("a 2018 home_timeline capture: ids, escapes, source app, retweets with nine pictures")
    func homeTimeline2018() throws {
        let page = try decode(TimelinePage.self, "home_timeline_2018")
        #expect(page.statuses.map(\.identifier) == ["4199674862603248", "4199674720119133", "4199674472798476"])
        #expect(page.totalNumber == 150)
        #expect(page.nextCursor == 4_199_672_744_801_944)

        let first = page.statuses[0]
        #expect(first.text == "有雪等也是一种幸福")
        #expect(first.user?.screenName == "天气通")
        // `<\/a>` in the body is `</a>` in the value.
        #expect(first.source == #"<a href="http://app.weibo.com/t/feed/2HxdLa" rel="nofollow">魅族拍照旗舰 PRO 6s</a>"#)
        #expect(first.inReplyToStatusID == "")
        #expect(first.picURLs.isEmpty)
        #expect(first.createdAt?.weiboText == "Wed Jan 24 11:19:36 +0800 2018")

        let retweet = try #require(first.retweetedStatus)
        #expect(retweet.identifier == "4199671721085407")
        #expect(retweet.user?.screenName == "中国天气")
        #expect(retweet.picURLs.count == 9)
        #expect(retweet.picURLs.first == "http://wx2.sinaimg.cn/thumbnail/594fb883ly1fnriqm3yaoj20p00p0tb0.jpg")
        #expect(retweet.bmiddlePic == "http://wx2.sinaimg.cn/bmiddle/594fb883ly1fnriqm3yaoj20p00p0tb0.jpg")
        // `\u200b` (a zero-width space) ends the text, as the service wrote it.
        #expect(retweet.text?.hasSuffix("[允悲]。 \u{200B}") == true)
        #expect((retweet.repostsCount, retweet.commentsCount, retweet.attitudesCount) == (14, 28, 12))
        #expect(retweet.deleted == nil)

        let original = page.statuses[2]
        #expect(original.retweetedStatus == nil)
        #expect(original.picURLs.count == 3)
        #expect(original.text?.hasSuffix("#明星特别任务# \u{200B}\u{200B}\u{200B}") == true)
    }

    @Test("the API doc's public_timeline page: a mid above 2^53, geo null then a point under the same key")
    func publicTimelineDoc() throws {
        let page = try decode(TimelinePage.self, "public_timeline_doc")
        #expect(page.statuses.count == 2)
        #expect(page.totalNumber == 81655)
        #expect(page.previousCursor == 0 && page.nextCursor == 1)
        let status = page.statuses[0]
        #expect(status.id == 11_488_058_246)
        // 5612814510546515491 is not a Double: the digits must survive.
        #expect(status.mid == "5612814510546515491")
        #expect(status.text == "你好")
        #expect(status.user?.screenName == "zaku")
        #expect(status.user?.followersCount == 1204)
        #expect(page.statuses[1].text == "seeking attention.")
    }

    @Test("a bare array of statuses (statuses/hot/repost_daily), each with a retweet")
    func bareArrayWithRetweets() throws {
        let page = try decode(TimelinePage.self, "hot_repost_daily_bare_array")
        #expect(page.statuses.count == 2)
        #expect(page.totalNumber == nil)
        for status in page.statuses {
            #expect(status.retweetedStatus?.user?.screenName == "檀木幻想")
            #expect(status.retweetedStatus?.mid == "5610221544300749636")
            #expect(status.retweetedStatus?.source == #"<a href="http://weibo.com" rel="nofollow">新浪微博</a>"#)
        }
    }

    @Test("the v1 public_timeline: a bare array, a time with doubled spaces")
    func v1PublicTimeline() throws {
        let page = try decode(TimelinePage.self, "v1_public_timeline_doc")
        let status = try #require(page.statuses.first)
        #expect(status.id == 142_243)
        #expect(status.text == "test  test")
        #expect(status.createdAt?.weiboText == "Wed Jan 06 11:26:01 +0800 2010")
        #expect(status.user?.location == "广州")
    }

    @Test("a mention with ids above 2^53, ZWJ sequences, a zero-width space, a character outside the BMP, numbers as strings")
    func mentions() throws {
        let page = try decode(TimelinePage.self, "mentions_hand")
        let status = try #require(page.statuses.first)
        #expect(status.id == 9_007_199_254_740_993)
        #expect(status.identifier == "9007199254740993")
        #expect(status.text == "@wsh 测试 👩‍💻 👨‍👩‍👧 a\u{200B}b 𠀀 http://t.cn/A6abc \u{200B}")
        #expect(status.text?.contains("👨‍👩‍👧") == true)
        #expect(status.text?.unicodeScalars.contains { $0.value == 0x20000 } == true)
        #expect(status.source == #"<a href="http://app.weibo.com/t/feed/6vtZb0" rel="nofollow">微博 weibo.com</a>"#)
        #expect(status.user?.id == 6_595_944_977)
        #expect(status.user?.screenName == "测试微博Q")
        #expect(status.repostsCount == 0)
        #expect(page.totalNumber == 1)
    }

    @Test("a retweet the author deleted is kept and marked deleted, without a user")
    func deletedRetweet() throws {
        let page = try decode(TimelinePage.self, "deleted_retweet_hand")
        let status = try #require(page.statuses.first)
        #expect(status.text == "转发微博")
        #expect(status.deleted == nil)
        let retweet = try #require(status.retweetedStatus)
        #expect(retweet.deleted == true)
        #expect(retweet.user == nil)
        #expect(retweet.identifier == "3899463959387300")
        #expect(retweet.text == "抱歉，此微博已被作者删除。查看帮助：http://t.cn/zWSudZc")
    }

    @Test("a repost_timeline page under the 'reposts' key")
    func repostTimeline() throws {
        // A timeline page reads `reposts` as its statuses, so `fetch reposts N` pages like any timeline.
        let page = try decode(TimelinePage.self, "repost_timeline_doc")
        #expect(page.statuses.count == 2)
        #expect(page.totalNumber == 81655)
        #expect(page.statuses.allSatisfy { $0.retweetedStatus?.id == 11_142_488_790 })
        #expect(page.statuses[0].text == "你好")
    }

    // MARK: - Comments

    @Test("a 2015 comments/show capture: \\u2026, a source app, the status with its retweet")
    func commentsShow2015() throws {
        let page = try decode(CommentsPage.self, "comments_show_2015")
        #expect(page.totalNumber == 1)
        let comment = try #require(page.comments.first)
        #expect(comment.identifier == "3917087946430089")
        #expect(comment.text == "最近是在考虑买MacBook Pro，但是感觉快更新了，或者2016有大动作…")
        #expect(comment.source == #"<a href="http://weibo.com/" rel="nofollow">iPhone</a>"#)
        #expect(comment.user?.screenName == "Fer_Yu")
        #expect(comment.status?.identifier == "3917087640263680")
        #expect(comment.status?.user?.screenName == "ibuick")
        #expect(comment.status?.retweetedStatus?.identifier == "3915295057665240")
        #expect(comment.replyComment == nil)
    }

    @Test("the doc's comments page and the bare array of comments")
    func commentsDoc() throws {
        let page = try decode(CommentsPage.self, "comments_page_doc")
        #expect(page.comments.count == 2)
        #expect(page.totalNumber == 7)
        #expect(page.comments[0].mid == "202110601896455629")
        #expect(page.comments[0].status?.mid == "5612814510546515491")
        let bare = try decode(CommentsPage.self, "comments_bare_array_doc")
        #expect(bare.comments.map(\.id) == [12_438_492_184, 12_438_492_183])
        #expect(bare.comments[1].user?.screenName == "John Rambo")
    }

    @Test("a comment that replies to another keeps the one it answers")
    func replyComment() throws {
        let comment = try decode(WshModel.Comment.self, "comment_reply_doc")
        #expect(comment.text == "love your work.......")
        let reply = try #require(comment.replyComment)
        #expect(reply.id == 4_949_855_625)
        #expect(reply.text == "小新小新")
        #expect(reply.user?.screenName == "zaku")
        #expect(comment.status?.commentsCount == 9)
    }

    // MARK: - Users and favorites

    @Test("users/show with its latest status nested, which has no user")
    func userWithStatus() throws {
        let user = try decode(User.self, "users_show_with_status")
        #expect(user.identifier == "123")
        #expect(user.screenName == "Cirrus_Test1")
        let status = try #require(user.status)
        #expect(status.identifier == "3373052761021575")
        #expect(status.user == nil)
        #expect(status.text == "Youpie")
        #expect(status.source?.contains("????????????") == true)
        #expect(status.favorited == true)
    }

    @Test("users/show whose latest status was deleted")
    func userWithDeletedStatus() throws {
        let user = try decode(User.self, "users_show_deleted_status_2015")
        #expect(user.screenName == "我是一只小小小鸡仔")
        #expect(user.statusesCount == 156)
        let status = try #require(user.status)
        #expect(status.deleted == true)
        #expect(status.text?.hasPrefix("抱歉，此微博已被作者删除") == true)
        #expect(status.user == nil)
    }

    @Test("a user without a nested status, and a bare array of users")
    func usersWithoutStatus() throws {
        let user = try decode(User.self, "users_show_without_status_2018")
        #expect(user.identifier == "1726834811")
        #expect(user.screenName == "天气通")
        #expect(user.followersCount == 4_416_300)
        #expect(user.verified == true)
        #expect(user.status == nil)
        let users = try decode([User].self, "users_bare_array")
        #expect(users.map(\.screenName) == ["Cirrus_Test1", "Cirrus_Test2"])
    }

    @Test("favorites: each status with its tags and when it was favorited")
    func favorites() throws {
        let page = try decode(FavoritesPage.self, "favorites_doc")
        #expect(page.totalNumber == 16)
        #expect(page.favorites.count == 2)
        let favorite = page.favorites[0]
        #expect(favorite.status?.text == "求关注。")
        #expect(favorite.status?.user?.screenName == "zaku")
        #expect(favorite.tags == ["80后", "80后"])
        #expect(favorite.favoritedTime?.weiboText == "Thu Jun 02 15:16:16 +0800 2011")
        #expect(page.favorites[1].tags == ["80后", "youpie"])
    }

    // MARK: - Errors and other answers

    @Test("error bodies: error_code as a string (v2 doc, v1) and as a number (v2, OAuth2)")
    func errorBodies() throws {
        let doc = try decode(APIErrorBody.self, "error_string_code_doc")
        #expect(doc == APIErrorBody(code: 20502, message: "Auth failed!", request: "/statuses/home_timeline.json"))
        let numeric = try decode(APIErrorBody.self, "error_numeric_code")
        #expect(numeric == APIErrorBody(code: APIErrorCode.tokenExpired, message: "expired_token", request: "/2/statuses/home_timeline.json"))
        let v1 = try decode(APIErrorBody.self, "error_v1")
        #expect(v1.code == 400)
        #expect(v1.message == "40025:Error: repeated weibo text!")
        let oauth = try decode(APIErrorBody.self, "error_oauth2")
        #expect(oauth.code == 21325)
        #expect(oauth.message == "invalid_grant")
        #expect(oauth.request == "/oauth2/access_token")
    }

    @Test("answers that are not errors are not read as error bodies, nor as pages", arguments: [
        "rate_limit_status_doc", "oauth2_access_token", "oauth2_get_token_info_doc",
    ])
    func otherAnswersAreNotErrors(name: String) throws {
        #expect(throws: ModelDecodingError.self) { _ = try decode(APIErrorBody.self, name) }
        #expect(throws: ModelDecodingError.self) { _ = try decode(TimelinePage.self, name) }
        let object = try #require(try JSONSerialization.jsonObject(with: Self.fixture(name)) as? [String: Any])
        #expect(!object.isEmpty)
    }

    // MARK: - Differential: the lenient decoder does not alter values

    static let timelineFixtures = [
        "home_timeline_2018", "public_timeline_doc", "hot_repost_daily_bare_array",
        "v1_public_timeline_doc", "mentions_hand", "deleted_retweet_hand", "repost_timeline_doc",
    ]

    @Test("ids, mids and text equal what JSONSerialization reads from the same body", arguments: timelineFixtures)
    func differential(name: String) throws {
        let data = try Self.fixture(name)
        let root = try JSONSerialization.jsonObject(with: data)
        let objects: [[String: Any]]
        let decoded: [Status]
        if let array = root as? [[String: Any]] {
            objects = array
            decoded = try ModelDecoding.decode(TimelinePage.self, from: data).statuses
        } else if let reposts = (root as? [String: Any])?["reposts"] as? [[String: Any]] {
            objects = reposts
            decoded = try ModelDecoding.decode(TimelinePage.self, from: data).statuses
        } else {
            objects = try #require((root as? [String: Any])?["statuses"] as? [[String: Any]])
            decoded = try ModelDecoding.decode(TimelinePage.self, from: data).statuses
        }
        #expect(decoded.count == objects.count)
        for (status, object) in zip(decoded, objects) {
            Self.compare(status, object, name)
            if let retweet = object["retweeted_status"] as? [String: Any] {
                let decodedRetweet = try #require(status.retweetedStatus, "\(name): retweet lost")
                Self.compare(decodedRetweet, retweet, name)
            }
        }
    }

    /// The text of a JSON scalar as JSONSerialization read it: a string as
    /// is, an integer by its digits.
    static func scalarText(_ value: Any?) -> String? {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    static func compare(_ status: Status, _ object: [String: Any], _ name: String) {
        #expect(status.id.map(String.init) == scalarText(object["id"]), "\(name): id")
        #expect(status.idstr == scalarText(object["idstr"]), "\(name): idstr")
        #expect(status.mid == scalarText(object["mid"]), "\(name): mid")
        #expect(status.text == object["text"] as? String, "\(name): text")
        #expect(status.source == object["source"] as? String, "\(name): source")
        let user = object["user"] as? [String: Any]
        #expect(status.user?.screenName == user?["screen_name"] as? String, "\(name): screen_name")
    }
}
