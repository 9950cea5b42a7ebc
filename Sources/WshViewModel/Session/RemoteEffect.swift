import WshDataController
import WshModel

/// What an operation changed on the server, and so what undo and redo must
/// send: undo is the compensating request, redo the write sent again.
///
/// The history keeps one with each operation that wrote (`post`). Reads
/// (`fetch`, `detail`…) and local changes (`mute`, `calc`) have none: undoing
/// them only restores what wsh shows.
///
/// A write plugs in by adding a case here and its two requests to
/// `SessionViewModel.takeBack(_:)` and `reapply(_:)` (the writes other than
/// `post` in `SessionViewModel+Writes.swift`), each sent through the
/// DataControllers.
public enum RemoteEffect: Sendable, Hashable {
    /// A status this session posted: undo deletes `id`,
    /// redo posts `text` again, which makes a new status with a new id.
    /// With options (`post --cw …`), `draft` is what was sent (its media as
    /// uploaded ids), and redo posts it again, re-using the media.
    case postedStatus(id: String, text: String, draft: StatusDraft? = nil)
    /// A comment this session wrote on the status `statusID`: undo deletes
    /// `commentID`, redo comments `text` again.
    case commented(statusID: String, commentID: String, text: String)
    /// A reply to the comment `toCommentID`: undo deletes `commentID`,
    /// redo replies `text` again.
    case replied(statusID: String, toCommentID: String, commentID: String, text: String)
    /// A repost of `statusID`: undo takes back the repost `repostID` by the
    /// API's own call (Weibo deletes it, Mastodon unboosts `statusID`), redo
    /// reposts again (a new id).
    case reposted(statusID: String, repostID: String, text: String?)
    /// A favourite: undo unfavourites, redo favourites again.
    case favorited(statusID: String)
    /// An unfavourite: undo favourites again, redo unfavourites.
    case unfavorited(statusID: String)
    /// A status this session deleted: Weibo has no undelete, so undo posts
    /// `text` again as a new status (and says so); redo deletes `id`, which
    /// is then the new status's.
    case deletedStatus(id: String, text: String)
    /// A follow: undo unfollows, redo follows again.
    case followed(UserReference)
    /// An unfollow: undo follows again, redo unfollows.
    case unfollowed(UserReference)
    // Blocks and server-side mutes (SessionViewModel+Relations.swift).
    /// A block (`on`) or unblock: undo sends the other, redo the same again.
    case blocking(UserReference, on: Bool)
    /// A server-side mute (`on`, with its options) or unmute: undo sends the other, redo the same again.
    case serverMute(UserReference, on: Bool, duration: Int?, notifications: Bool)
    // Bookmarks and lists (SessionViewModel+Lists.swift).
    /// A bookmark: undo unbookmarks, redo bookmarks again.
    case bookmarked(statusID: String)
    /// An unbookmark: undo bookmarks again, redo unbookmarks.
    case unbookmarked(statusID: String)
    /// A list made: undo deletes it, redo makes it again (a new id).
    case createdList(id: String, title: String)
    /// A list deleted: undo makes it again with its title and members (a new id), redo deletes it.
    case deletedList(id: String, title: String, members: [UserReference])
    /// `user` added to (`true`) or removed from the list `listID`: undo does the other.
    case listMember(Bool, listID: String, title: String, user: UserReference)
    // Edits and scheduled statuses (SessionViewModel+Edits.swift).
    /// An edit of the status `id` from `previousText` (its source before) to
    /// `text`: undo edits it back, redo edits it again.
    case edited(id: String, previousText: String, text: String)
    /// A status scheduled: undo cancels `scheduled` (its id), redo schedules it again (a new id).
    case scheduled(ScheduledStatus)
    /// A scheduled status cancelled: undo schedules it again (a new id), redo cancels that.
    case unscheduled(ScheduledStatus)
    /// A notification dismissed (`id`), or all of them cleared (nil): the
    /// server has no call that brings them back, so undo restores the screen
    /// only and says so; redo dismisses (clears) again.
    case dismissedNotification(id: String?)
    // Posting (post options, vote).
    /// A vote for `choices` (0-based) in the poll `pollID` of `statusID`:
    /// Mastodon cannot take a vote back, so undo refuses and says so (and so it is never redone).
    case voted(statusID: String, pollID: String, choices: [Int])
}

extension TimelineState {
    /// This state with the status `id` replaced by `status` wherever it shows:
    /// in the loaded statuses and on the screens open over them. Redo uses it
    /// when a post sent again comes back with a new id.
    func replacingStatus(id: String, with status: Status) -> TimelineState {
        var next = self
        next.statuses.replace(id: id, with: status)
        next.screens = screens.map { screen in
            switch screen {
            case .detail(let shown) where shown.identifier == id:
                .detail(status)
            case .comments(let shown, let page) where shown.identifier == id:
                .comments(status, page)
            case .edits(let shown, let versions) where shown.identifier == id:
                .edits(status, versions)
            default:
                screen
            }
        }
        return next
    }
}
