import Foundation
import Testing
import WshDataController
import WshModel
import WshRequest
import WshTestSupport
@testable import WshViewModel

/// A session over a `FakeWriteServer`.
struct WriteFixture {
    let server = FakeWriteServer()
    let http: FakeHTTPClient
    let session: SessionViewModel

    init() {
        let server = self.server
        http = FakeHTTPClient { request throws(RequestError) in try server.respond(to: request) }
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://weibo.test/2/", token: .value(Secret("t"))),
                                 http: http)
        session = SessionViewModel(dataController: TimelineDataController(client: client, dialect: WeiboDialect()))
    }

    /// The requests sent to `path` (e.g. `/2/comments/create.json`).
    func requests(to path: String) -> [HTTPRequest] {
        http.requests.filter { $0.path == path }
    }

    /// The form fields of the last POST to `path`.
    func lastForm(_ path: String) -> [String: String]? {
        requests(to: path).last.map { FakeWriteServer.form($0.body) }
    }

    /// The id of row `index`.
    func rowID(_ index: Int) -> String { session.rows[index - 1].id }
}

@Suite("Writes: each a recorded remote input, undone and redone on the server")
struct WriteTests {
    static let createComment = "/2/comments/create.json"
    static let replyComment = "/2/comments/reply.json"
    static let destroyComment = "/2/comments/destroy.json"
    static let showComments = "/2/comments/show.json"
    static let repost = "/2/statuses/repost.json"
    static let destroy = "/2/statuses/destroy.json"
    static let update = "/2/statuses/update.json"
    static let favorite = "/2/favorites/create.json"
    static let unfavorite = "/2/favorites/destroy.json"
    static let follow = "/2/friendships/create.json"
    static let unfollow = "/2/friendships/destroy.json"

    // MARK: comment

    @Test("comment N TEXT posts comments/create with id and comment, is recorded ⇅, and the row's count follows the answer")
    func comment_recordedRemote() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let id = fixture.rowID(2)

        try await fixture.session.comment(index: 2, text: "nice one")

        #expect(fixture.lastForm(Self.createComment) == ["id": id, "comment": "nice one"])
        let cid = try #require(fixture.server.comments(on: id).first?.idstr)
        #expect(fixture.session.operations.last == "comment 2 \"nice one\"")
        #expect((fixture.session.operationRecords.last?.remote as? CommentEffect) == CommentEffect(statusID: id, commentID: cid, text: "nice one"))
        #expect(fixture.session.rows[1].comments == 4)
        #expect(fixture.session.notes == ["commented on status \(id) (comment \(cid))"])
    }

    @Test("undo of a comment deletes it with comments/destroy cid; redo comments again with a new id, which the next undo deletes")
    func comment_undoRedo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let id = fixture.rowID(1)
        let before = fixture.session.state
        try await fixture.session.comment(index: 1, text: "take back")
        let first = try #require(fixture.server.comments(on: id).first?.idstr)

        try await fixture.session.undo()

        #expect(fixture.lastForm(Self.destroyComment) == ["cid": first])
        #expect(!fixture.server.comments(on: id).contains { $0.idstr == first })
        #expect(fixture.session.state == before)
        #expect(fixture.session.notes == ["deleted comment \(first) on the server"])

        try await fixture.session.redo()
        let second = try #require(fixture.server.comments(on: id).first?.idstr)
        #expect(second != first)
        #expect(fixture.requests(to: Self.createComment).count == 2)
        #expect(fixture.session.notes == ["commented again as comment \(second)"])

        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.destroyComment) == ["cid": second])
        #expect(fixture.server.comments(on: id).count == 3)
    }

    @Test("an undo whose comments/destroy fails changes nothing, on screen, in the history or on the server")
    func comment_undoFails_changesNothing() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.comment(index: 1, text: "stays")
        let after = fixture.session.state
        fixture.server.script(Self.destroyComment, [.answer(FakeWeiboAPI.apiError(10001, "system error", Self.destroyComment, status: 500))])

        await #expect {
            try await fixture.session.undo()
        } throws: { error in
            guard case ViewModelError.undoFailed(let operation, _)? = error as? ViewModelError else { return false }
            return operation == "comment 1 \"stays\""
        }

        #expect(fixture.session.state == after)
        #expect(fixture.session.operations.last == "comment 1 \"stays\"")
        #expect(fixture.server.comments(on: fixture.rowID(1)).first?.text == "stays")
        #expect(fixture.session.errorMessage?.hasPrefix("cannot undo comment 1 \"stays\": deleting comment") == true)
    }

    @Test("a comment whose answer is lost is found among the newer comments: a success, recorded once, with a note")
    func comment_lostAnswer_found() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        fixture.server.script(Self.createComment, [.loseAnswer(FakeWriteServer.dropped(Self.createComment))])

        try await fixture.session.comment(index: 1, text: "landed")

        let id = fixture.rowID(1)
        #expect(fixture.server.comments(on: id).filter { $0.text == "landed" }.count == 1)
        #expect(fixture.requests(to: Self.createComment).count == 1)
        #expect(fixture.session.notes == ["the answer was lost; found the comment on the server"])
        let cid = try #require(fixture.server.comments(on: id).first?.idstr)
        #expect((fixture.session.operationRecords.last?.remote as? CommentEffect) == CommentEffect(statusID: id, commentID: cid, text: "landed"))
        // The read before writing names the newest comment, the read after asks for those newer.
        #expect(fixture.requests(to: Self.showComments).last?.queryItems["since_id"] == "102")
    }

    @Test("a comment whose answer is lost when nothing landed fails saying no comment was made, and records nothing")
    func comment_lostAnswer_absent() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let before = fixture.session.state
        fixture.server.script(Self.createComment, [.failBefore(FakeWriteServer.dropped(Self.createComment))])

        await #expect {
            try await fixture.session.comment(index: 1, text: "never")
        } throws: { error in
            guard case ViewModelError.writeNotApplied(_, let outcome)? = error as? ViewModelError else { return false }
            return outcome == "no comment was made"
        }
        #expect(fixture.session.state == before)
        #expect(fixture.session.operationCount == 1)
        #expect(fixture.server.comments(on: fixture.rowID(1)).count == 3)
    }

    @Test("a lost comment whose check fails too is unknown, and says how to check")
    func comment_lostAnswer_unknown() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        fixture.server.script(Self.createComment, [.loseAnswer(FakeWriteServer.dropped(Self.createComment))])
        fixture.server.script(Self.showComments, [nil, .failBefore(FakeWriteServer.dropped(Self.showComments))])

        await #expect(throws: ViewModelError.self) { try await fixture.session.comment(index: 1, text: "maybe") }

        #expect(fixture.session.errorMessage?.contains("check with `api get comments/show.json id=\(fixture.rowID(1))`") == true)
        #expect(fixture.session.operationCount == 1)
    }

    @Test("an empty comment is a usage error and sends nothing")
    func comment_empty() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        await #expect(throws: ViewModelError.emptyText("comment")) { try await fixture.session.comment(index: 1, text: "  ") }
        #expect(fixture.requests(to: Self.createComment).isEmpty)
    }

    // MARK: reply

    @Test("reply N M TEXT replies to comment M as the comments screen numbers them; undo deletes the reply")
    func reply_numbersAsCommentsShows() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.comments(index: 2)
        let id = fixture.rowID(2)
        let second = try #require(fixture.session.comments?.document.comments[1].idstr)

        try await fixture.session.reply(index: 2, commentIndex: 2, text: "agreed")

        #expect(fixture.lastForm(Self.replyComment) == ["id": id, "cid": second, "comment": "agreed"])
        let reply = try #require(fixture.server.comments(on: id).first)
        #expect(reply.text == "回复@bob:agreed")
        #expect(fixture.session.comments?.document.comments.first?.idstr == reply.idstr)   // the open comments screen shows it
        #expect(fixture.session.operations.last == "reply 2 2 \"agreed\"")

        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.destroyComment) == ["cid": reply.idstr ?? ""])
        #expect(fixture.server.comments(on: id).count == 3)
    }

    @Test("reply to a comment number the status does not have names the numbers there are, and sends no write")
    func reply_noSuchComment() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        await #expect(throws: ViewModelError.noComment(index: 9, count: 3)) {
            try await fixture.session.reply(index: 1, commentIndex: 9, text: "x")
        }
        #expect(fixture.requests(to: Self.replyComment).isEmpty)
    }

    @Test("a reply whose answer is lost is found by its text after Weibo's 回复@ prefix")
    func reply_lostAnswer_found() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        fixture.server.script(Self.replyComment, [.loseAnswer(FakeWriteServer.dropped(Self.replyComment))])

        try await fixture.session.reply(index: 1, commentIndex: 1, text: "found me")

        #expect(fixture.session.notes == ["the answer was lost; found the reply on the server"])
        #expect(fixture.session.operationCount == 2)
    }

    // MARK: repost

    @Test("repost N TEXT sends statuses/repost, the repost becomes row 1, the original's count follows; undo deletes the repost")
    func repost_undo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let original = fixture.rowID(2)
        let before = fixture.session.state

        try await fixture.session.repost(index: 2, text: "look")

        #expect(fixture.lastForm(Self.repost) == ["id": original, "status": "look"])
        let repostID = try #require(fixture.server.own.first?.idstr)
        #expect(fixture.session.rows.first?.id == repostID)
        #expect(fixture.session.rows[2].id == original)
        #expect(fixture.session.rows[2].reposts == 3)   // 2 % 5 + 1
        #expect(fixture.session.operations.last == "repost 2 \"look\"")

        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.destroy) == ["id": repostID])
        #expect(fixture.server.own.isEmpty)
        #expect(fixture.session.state == before)
    }

    @Test("redo of a repost reposts again; the new repost takes the old one's place, and undo deletes the new id")
    func repost_redo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.repost(index: 1, text: nil)
        #expect(fixture.lastForm(Self.repost) == ["id": fixture.rowID(2)])
        let first = fixture.rowID(1)
        try await fixture.session.undo()

        try await fixture.session.redo()

        let second = try #require(fixture.server.own.first?.idstr)
        #expect(second != first)
        #expect(fixture.rowID(1) == second)
        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.destroy) == ["id": second])
    }

    @Test("a repost whose answer is lost is found in the account's statuses by what it reposts")
    func repost_lostAnswer() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        fixture.server.script(Self.repost, [.loseAnswer(FakeWriteServer.dropped(Self.repost))])
        try await fixture.session.repost(index: 3, text: nil)
        #expect(fixture.session.notes == ["the answer was lost; found the repost on the server"])
        #expect(fixture.server.own.count == 1)

        fixture.server.script(Self.repost, [.failBefore(FakeWriteServer.dropped(Self.repost))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.repost(index: 3, text: nil) }
        #expect(fixture.session.errorMessage?.contains("the server shows nothing was reposted") == true)
        #expect(fixture.server.own.count == 1)
    }

    // MARK: favorite / unfavorite

    @Test("favorite N sends favorites/create id; undo sends favorites/destroy; redo favourites again")
    func favorite_undoRedo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let id = fixture.rowID(1)

        try await fixture.session.set(.favorite, true, index: 1)
        #expect(fixture.lastForm(Self.favorite) == ["id": id])
        #expect(fixture.server.favorites == [id])
        #expect((fixture.session.operationRecords.last?.remote as? ToggleEffect) == ToggleEffect(toggle: .favorite, on: true, statusID: id))
        #expect(fixture.session.operations.last == "favorite 1")

        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.unfavorite) == ["id": id])
        #expect(fixture.server.favorites.isEmpty)
        #expect(fixture.session.notes == ["unfavourited status \(id) on the server"])

        try await fixture.session.redo()
        #expect(fixture.server.favorites == [id])
        #expect(fixture.requests(to: Self.favorite).count == 2)
    }

    @Test("undo of a favourite removed elsewhere counts as done and says so; a second favorite is refused with the API's code")
    func favorite_alreadyDone() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let id = fixture.rowID(1)
        try await fixture.session.set(.favorite, true, index: 1)

        await #expect {
            try await fixture.session.set(.favorite, true, index: 1)
        } throws: { error in
            guard case ViewModelError.requestFailed(.api(let failure))? = error as? ViewModelError else { return false }
            return failure.code == 20704
        }
        #expect(fixture.session.operationCount == 2)

        fixture.server.script(Self.unfavorite, [.answer(FakeWeiboAPI.apiError(20705, "not favorited!", Self.unfavorite))])
        try await fixture.session.undo()
        #expect(fixture.session.notes == ["status \(id) was already not favourited on the server"])
        #expect(fixture.session.operationCount == 1)
    }

    @Test("unfavorite N sends favorites/destroy; undo favourites it again")
    func unfavorite_undo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let id = fixture.rowID(2)
        try await fixture.session.set(.favorite, true, index: 2)
        try await fixture.session.set(.favorite, false, index: 2)
        #expect(fixture.lastForm(Self.unfavorite) == ["id": id])
        #expect(fixture.server.favorites.isEmpty)

        try await fixture.session.undo()
        #expect(fixture.server.favorites == [id])
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses", "favorite 2"])
    }

    @Test("a favourite whose answer is lost is resolved by the status's favorited: found, absent, or unknown when not said")
    func favorite_lostAnswer() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        fixture.server.script(Self.favorite, [.loseAnswer(FakeWriteServer.dropped(Self.favorite))])
        try await fixture.session.set(.favorite, true, index: 1)
        #expect(fixture.session.notes == ["the answer was lost; the server shows it done"])

        fixture.server.script(Self.favorite, [.failBefore(FakeWriteServer.dropped(Self.favorite))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.set(.favorite, true, index: 2) }
        #expect(fixture.session.errorMessage?.contains("the server shows the status is not favourited") == true)

        fixture.server.tellState(false)
        fixture.server.script(Self.favorite, [.loseAnswer(FakeWriteServer.dropped(Self.favorite))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.set(.favorite, true, index: 3) }
        #expect(fixture.session.errorMessage?.contains("does not say whether it is favourited") == true)
        #expect(fixture.session.operationCount == 2)
    }

    // MARK: delete

    @Test("delete N removes the row and the status; undo posts its text again as a new status and says so; redo deletes that one")
    func delete_undoRepostsText() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        try await fixture.session.post("short-lived")
        let id = fixture.rowID(1)

        try await fixture.session.delete(index: 1)

        #expect(fixture.lastForm(Self.destroy) == ["id": id])
        #expect(fixture.server.own.isEmpty)
        #expect(fixture.session.rowCount == 3)
        #expect(fixture.session.operations.last == "delete 1 \"short-lived\" (undo posts the text again)")
        #expect((fixture.session.operationRecords.last?.remote as? DeletedStatusEffect) == DeletedStatusEffect(id: id, text: "short-lived"))

        try await fixture.session.undo()
        let newID = try #require(fixture.server.own.first?.idstr)
        #expect(newID != id)
        #expect(fixture.lastForm(Self.update) == ["status": "short-lived"])
        #expect(fixture.session.notes == ["the server cannot restore a deleted status; posted its text again as a new status (\(newID))"])
        #expect(fixture.rowID(1) == newID)
        // The post before names the new status now: undoing it deletes the new one.
        #expect((fixture.session.operationRecords.last?.remote as? PostedStatusEffect) == PostedStatusEffect(id: newID, text: "short-lived"))

        try await fixture.session.redo()
        #expect(fixture.lastForm(Self.destroy) == ["id": newID])
        #expect(fixture.server.own.isEmpty)
        #expect(fixture.session.rowCount == 3)
    }

    @Test("delete of someone else's status is refused with the API's code and changes nothing")
    func delete_notOwn() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        let before = fixture.session.state

        await #expect {
            try await fixture.session.delete(index: 2)
        } throws: { error in
            guard case ViewModelError.requestFailed(.api(let failure))? = error as? ViewModelError else { return false }
            return failure.code == 20102
        }
        #expect(fixture.session.state == before)
        #expect(fixture.session.operationCount == 1)
    }

    @Test("an undo of delete whose post fails changes nothing")
    func delete_undoFails() async throws {
        let fixture = WriteFixture()
        try await fixture.session.post("gone for good")
        try await fixture.session.delete(index: 1)
        let after = fixture.session.state
        fixture.server.script(Self.update, [.answer(FakeWeiboAPI.apiError(20019, "repeated weibo text", Self.update))])

        await #expect(throws: ViewModelError.self) { try await fixture.session.undo() }

        #expect(fixture.session.state == after)
        #expect(fixture.session.operationCount == 2)
        #expect(fixture.session.errorMessage?.hasPrefix("cannot undo delete 1") == true)
        #expect(fixture.server.own.isEmpty)
    }

    // MARK: follow / unfollow

    @Test("follow USER sends friendships/create with screen_name or uid; undo unfollows; redo follows again")
    func follow_undoRedo() async throws {
        let fixture = WriteFixture()
        try await fixture.session.set(.follow, true, name: "@bob")
        #expect(fixture.lastForm(Self.follow) == ["screen_name": "bob"])
        #expect(fixture.server.following == ["1002"])
        #expect(fixture.session.operations == ["follow @bob"])
        #expect(fixture.session.operationRecords.last?.isRemote == true)

        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.unfollow) == ["screen_name": "bob"])
        #expect(fixture.server.following.isEmpty)
        try await fixture.session.redo()
        #expect(fixture.server.following == ["1002"])

        try await fixture.session.set(.follow, false, name: "1002")
        #expect(fixture.lastForm(Self.unfollow) == ["uid": "1002"])
        #expect(fixture.server.following.isEmpty)
        try await fixture.session.undo()
        #expect(fixture.lastForm(Self.follow) == ["uid": "1002"])
        #expect(fixture.server.following == ["1002"])
    }

    @Test("a follow whose answer is lost is resolved by users/show's following, or unknown with how to check")
    func follow_lostAnswer() async throws {
        let fixture = WriteFixture()
        fixture.server.script(Self.follow, [.loseAnswer(FakeWriteServer.dropped(Self.follow))])
        try await fixture.session.set(.follow, true, name: "carol")
        #expect(fixture.session.notes == ["the answer was lost; the server shows it done"])

        fixture.server.script(Self.follow, [.failBefore(FakeWriteServer.dropped(Self.follow))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.set(.follow, true, name: "dave") }
        #expect(fixture.session.errorMessage?.contains("the server shows @dave is not followed") == true)

        fixture.server.tellState(false)
        fixture.server.script(Self.follow, [.loseAnswer(FakeWriteServer.dropped(Self.follow))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.set(.follow, true, name: "alice") }
        #expect(fixture.session.errorMessage?.contains("check with `api get users/show.json screen_name=alice`") == true)
        #expect(fixture.session.operationCount == 1)
    }

    // MARK: limits and rate limits

    @Test("limits reads account/rate_limit_status and is not an operation")
    func limits_notRecorded() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)

        let limits = try await fixture.session.limits()

        #expect(limits.document.remainingUserHits == 148)
        #expect(limits.document.userLimit == 150)
        #expect(limits.document.remainingIPHits == 9990)
        #expect(limits.document.resetTimeInSeconds == 2415)
        #expect(limits.lines.map(\.value) == ["148 of 150 per hour", "9990 of 10000 per hour", "in 41 min (at 2011-06-03 18:00:00)"])
        #expect(fixture.session.operations == ["fetch 3 → 3 statuses"])
        #expect(!fixture.session.isLoading)
    }

    @Test("a rate-limited write says when the limit resets: from Retry-After, else from rate_limit_status; the code stays")
    func rateLimit_saysWhenItResets() async throws {
        let fixture = WriteFixture()
        try await fixture.session.fetch(count: 3)
        var limited = FakeWeiboAPI.apiError(10023, "User requests out of rate limit!", Self.createComment, status: 403)
        limited.headers["retry-after"] = "90"
        fixture.server.script(Self.createComment, [.answer(limited)])

        await #expect {
            try await fixture.session.comment(index: 1, text: "x")
        } throws: { error in
            guard case ViewModelError.requestFailed(.api(let failure))? = error as? ViewModelError else { return false }
            return failure.code == 10023
        }
        #expect(fixture.session.errorMessage?.hasSuffix("the rate limit resets in 2 min") == true)
        #expect(fixture.requests(to: "/2/account/rate_limit_status.json").isEmpty)

        fixture.server.script(Self.createComment, [.answer(FakeWeiboAPI.apiError(10023, "User requests out of rate limit!", Self.createComment, status: 403))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.comment(index: 1, text: "x") }
        #expect(fixture.session.errorMessage?.hasSuffix("the rate limit resets in 41 min (at 2011-06-03 18:00:00)") == true)
        #expect(fixture.requests(to: "/2/account/rate_limit_status.json").count == 1)

        fixture.server.script("/2/account/rate_limit_status.json", [.failBefore(FakeWriteServer.dropped("/2/account/rate_limit_status.json"))])
        fixture.server.script(Self.createComment, [.answer(FakeWeiboAPI.apiError(10022, "IP requests out of rate limit!", Self.createComment, status: 403))])
        await #expect(throws: ViewModelError.self) { try await fixture.session.comment(index: 1, text: "x") }
        #expect(fixture.session.errorMessage?.contains("rate limited: try again later") == true)
        #expect(fixture.session.operationCount == 1)
    }
}
