import Testing
import WshDataController
import WshModel
@testable import WshViewModel

/// Each family of write is a type with its own summary and id replacement;
/// the history compares effects by type and inputs.
@Suite("RemoteEffect: one type per family of write")
struct RemoteEffectTests {
    @Test("each family says what it changed on the server and what undo sends")
    func summaries() {
        let bob = UserReference.screenName("bob")
        let effects: [(any RemoteEffect, String)] = [
            (PostedStatusEffect(id: "7", text: "hi"), "posted status 7 · undo deletes it"),
            (CommentEffect(statusID: "7", commentID: "70", text: "nice"),
             "commented on status 7 (comment 70) · undo deletes the comment"),
            (CommentEffect(statusID: "7", commentID: "71", text: "yes", repliedTo: "70"),
             "replied to comment 70 of status 7 (comment 71) · undo deletes the reply"),
            (RepostEffect(statusID: "7", repostID: "8", text: nil), "reposted status 7 as status 8 · undo takes the repost back"),
            (ToggleEffect(toggle: .favorite, on: true, statusID: "123"), "favourited status 123 · undo unfavourites"),
            (ToggleEffect(toggle: .favorite, on: false, statusID: "123"), "unfavourited status 123 · undo favourites"),
            (DeletedStatusEffect(id: "7", text: "hi"), "deleted status 7 · undo posts its text again as a new status"),
            (AccountToggleEffect(toggle: .follow, on: true, user: bob), "followed @bob · undo unfollows"),
            (AccountToggleEffect(toggle: .block, on: true, user: bob), "blocked @bob · undo unblocks"),
            (ServerMuteEffect(user: bob, on: false), "unmuted @bob on the server · undo mutes again"),
            (ToggleEffect(toggle: .bookmark, on: false, statusID: "7"), "unbookmarked status 7 · undo bookmarks again"),
            (ListCreatedEffect(id: "3", title: "pals"), "created list \"pals\" (3) · undo deletes it"),
            (ListDeletedEffect(id: "3", title: "pals", members: [bob]),
             "deleted list \"pals\" (3, 1 member) · undo makes it again with a new id"),
            (ListMemberEffect(true, listID: "3", title: "pals", user: bob), "added @bob to list \"pals\" · undo removes them"),
            (EditEffect(id: "7", previousText: "hi", text: "hello"), "edited status 7 · undo edits it back to its previous text"),
            (ScheduleEffect(scheduled: ScheduledStatus(id: "9", scheduledAt: nil, text: "later"), scheduling: false),
             "cancelled scheduled status 9 · undo schedules it again (a new id)"),
            (DismissedNotificationEffect(id: nil), "cleared the notifications · undo cannot restore them on the server"),
            (VoteEffect(statusID: "7", pollID: "4", choices: [0]), "voted in poll 4 of status 7 · undo cannot take it back"),
        ]
        for (effect, summary) in effects {
            #expect(effect.summary == summary)
        }
    }

    @Test("replacingStatusID renames the status wherever the effect names it, and nothing else")
    func replacingStatusID() {
        #expect(RepostEffect(statusID: "1", repostID: "2", text: nil).replacingStatusID("2", with: "5")
            == RepostEffect(statusID: "1", repostID: "5", text: nil))
        #expect(ToggleEffect(toggle: .favorite, on: false, statusID: "1").replacingStatusID("1", with: "5")
            == ToggleEffect(toggle: .favorite, on: false, statusID: "5"))
        #expect(ToggleEffect(toggle: .favorite, on: true, statusID: "1").replacingStatusID("2", with: "5") == ToggleEffect(toggle: .favorite, on: true, statusID: "1"))
        #expect(AccountToggleEffect(toggle: .follow, on: true, user: .uid("1")).replacingStatusID("1", with: "5") == AccountToggleEffect(toggle: .follow, on: true, user: .uid("1")))
    }

    @Test("recorded operations are equal only when their effects are the same type with the same inputs")
    func recordedEquality() {
        var favourite = OperationHistory(initial: 0)
        favourite.record("w", leaving: 1, remote: ToggleEffect(toggle: .favorite, on: true, statusID: "1"))
        var again = OperationHistory(initial: 0)
        again.record("w", leaving: 1, remote: ToggleEffect(toggle: .favorite, on: true, statusID: "1"))
        var bookmark = OperationHistory(initial: 0)
        bookmark.record("w", leaving: 1, remote: ToggleEffect(toggle: .bookmark, on: true, statusID: "1"))
        var local = OperationHistory(initial: 0)
        local.record("w", leaving: 1)

        #expect(favourite.records == again.records)
        #expect(Set(favourite.records + again.records).count == 1)
        #expect(favourite.records != bookmark.records)
        #expect(favourite.records != local.records)
    }
}
