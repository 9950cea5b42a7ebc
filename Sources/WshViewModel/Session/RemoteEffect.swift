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
    /// A status this session posted: undo deletes `id` (`statuses/destroy.json`),
    /// redo posts `text` again, which makes a new status with a new id.
    /// With options (`post --cw …`), `draft` is what was sent (its media as
    /// uploaded ids), and redo posts it again, re-using the media.
    case postedStatus(id: String, text: String, draft: StatusDraft? = nil)
    /// A comment this session wrote on the status `statusID`: undo deletes
    /// `commentID` (`comments/destroy.json`), redo comments `text` again.
    case commented(statusID: String, commentID: String, text: String)
    /// A reply to the comment `toCommentID`: undo deletes `commentID`
    /// (`comments/destroy.json`), redo replies `text` again.
    case replied(statusID: String, toCommentID: String, commentID: String, text: String)
    /// A repost of `statusID`: undo takes back the repost `repostID` by the
    /// API's own call (Weibo deletes it, Mastodon unboosts `statusID`), redo
    /// reposts again (a new id).
    case reposted(statusID: String, repostID: String, text: String?)
    /// A favourite: undo unfavourites (`favorites/destroy.json`), redo favourites again.
    case favorited(statusID: String)
    /// An unfavourite: undo favourites again (`favorites/create.json`), redo unfavourites.
    case unfavorited(statusID: String)
    /// A status this session deleted: Weibo has no undelete, so undo posts
    /// `text` again as a new status (and says so); redo deletes `id`, which
    /// is then the new status's.
    case deletedStatus(id: String, text: String)
    /// A follow: undo unfollows (`friendships/destroy.json`), redo follows again.
    case followed(UserReference)
    /// An unfollow: undo follows again (`friendships/create.json`), redo unfollows.
    case unfollowed(UserReference)
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
            default:
                screen
            }
        }
        return next
    }
}
