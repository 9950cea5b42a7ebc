import Testing
import WshModel
import WshTestSupport
import WshText
import WshViewModel

@Suite("Cell and screen ViewModels")
struct ScreenViewModelTests {
    let alice = User(id: 1001, idstr: "1001", screenName: "alice", name: "Alice")

    @Test("given a status written at +0800 when shown as a row in +0800 then the time is month-day hour:minute there")
    func cell_showsShortTimeInTheShownZone() {
        let status = Status(createdAt: Timestamp(weiboText: "Tue May 31 17:46:55 +0800 2011"), text: "hi", user: alice)

        let cell = ClockZone.$shown.withValue(.fixed(8 * 3600)) { StatusCellViewModel(status: status, index: 1) }

        #expect(cell.time == "05-31 17:46")
        #expect(cell.author == "@alice")
    }

    @Test("given one instant written by Weibo at -0500 and in ISO 8601 at UTC when shown in UTC and in +0800 then the clocks are 8 hours apart")
    func times_showTheInstantInTheShownZone() throws {
        let weibo = Status(createdAt: Timestamp(weiboText: "Sun Jan 01 00:05:00 -0500 2012"), user: alice)
        let iso = Status(createdAt: try #require(Timestamp(iso8601: "2012-01-01T05:05:00.000Z")), user: alice)
        for status in [weibo, iso] {
            ClockZone.$shown.withValue(.utc) {
                #expect(StatusCellViewModel(status: status, index: 1).time == "01-01 05:05")
                #expect(StatusDetailViewModel(status: status).time == "2012-01-01 05:05:00 +0000")
            }
            ClockZone.$shown.withValue(.fixed(8 * 3600)) {
                #expect(StatusCellViewModel(status: status, index: 1).time == "01-01 13:05")
                #expect(StatusDetailViewModel(status: status).time == "2012-01-01 13:05:00 +0800")
            }
        }
    }

    @Test("given text with line breaks and escape codes when shown as a row then it is one clean line")
    func cell_textIsOneCleanLine() {
        let status = Status(text: "line one\nline two\u{1B}[31m red\r", user: alice)

        #expect(StatusCellViewModel(status: status, index: 1).text == "line one line two red ")
    }

    @Test("given a repost with two pictures when shown as a row then the markers and counts say so")
    func cell_markersAndCounts() {
        let status = Status(picURLs: ["a", "b"], user: alice, repostsCount: 3, commentsCount: 5, attitudesCount: 10,
                            retweetedStatus: Status(text: "original"))

        let cell = StatusCellViewModel(status: status, index: 7)

        #expect(cell.index == 7)
        #expect(cell.markers == "[RT] [2 pics]")
        #expect(cell.countsText == "↻3 ✎5 ♥10")
        #expect(StatusCellViewModel(status: Status(text: "plain"), index: 1).markers == "")
        #expect(StatusCellViewModel(status: Status(text: "plain"), index: 1).author == "(unknown)")
    }

    @Test("given a status with an HTML source and a repost when shown as a detail then the app name is plain and the repost nested")
    func detail_sourceAndNestedRepost() {
        let status = Status(
            id: 42, createdAt: Timestamp(weiboText: "Tue May 31 17:46:55 +0800 2011"), text: "full\ntext",
            source: #"<a href="http://weibo.com/" rel="nofollow">Weibo &amp; Co</a>"#, picURLs: ["p1"], user: alice,
            repostsCount: 1, commentsCount: 2, attitudesCount: 3,
            retweetedStatus: Status(text: "inner", user: User(screenName: "bob")))

        let detail = ClockZone.$shown.withValue(.fixed(8 * 3600)) { StatusDetailViewModel(status: status) }

        #expect(detail.id == "42")
        #expect(detail.text == "full\ntext")
        #expect(detail.source == "Weibo & Co")
        #expect(detail.time == "2011-05-31 17:46:55 +0800")
        #expect(detail.countsText == "1 repost · 2 comments · 3 likes")
        #expect(detail.pictureURLs == ["p1"])
        #expect(detail.retweeted?.author == "@bob")
        #expect(detail.retweeted?.text == "inner")
        #expect(detail.retweeted?.retweeted == nil)
    }

    @Test("given a user when shown as a profile then counts and verification read as text")
    func user_profileStrings() {
        let user = User(idstr: "7", screenName: "zoe", name: "Zoe", followersCount: 1, friendsCount: 2,
                        statusesCount: 3, verified: true, verifiedReason: "writer")

        let profile = UserViewModel(user: user)

        #expect(profile.screenName == "@zoe")
        #expect(profile.countsText == "1 follower · 2 following · 3 statuses")
        #expect(profile.verifiedText == "verified: writer")
    }

    @Test("given a page with more comments than it holds when shown then the count says how many of how many")
    func comments_countText() {
        let page = CommentsPage(comments: [Comment(text: "a", user: alice)], totalNumber: 9)

        let comments = CommentsViewModel(status: Status(idstr: "5", user: alice), page: page)

        #expect(comments.rows.map(\.text) == ["a"])
        #expect(comments.countText == "1 of 9 comments")
        #expect(comments.title == "comments on @alice's status 5")
    }
}
