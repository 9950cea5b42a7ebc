import WshDataController
import WshRequest
import WshText

/// Why an input did nothing: a one-line message a user can act on.
///
/// Every ViewModel input that fails leaves its state as it was, shows this
/// error's `description` in `errorMessage`, and throws it, so a script can
/// stop on it while an interactive View simply shows the message.
public enum ViewModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A DataController call failed, with the Request layer's typed error, so
    /// a caller can tell an API error (and its code) from a timeout.
    case requestFailed(RequestError)
    /// A row number outside the list.
    case noRow(index: Int, count: Int)
    /// `count` or `page` outside what the API accepts.
    case invalidPaging(name: String, value: Int, allowed: ClosedRange<Int>)
    /// A page larger than the API serves (`fetch 41` on Mastodon), with the API's name.
    case pageTooLarge(count: Int, maximum: Int, api: String)
    /// `more` before anything was fetched.
    case nothingFetched
    /// A walk (`fetch --all`) whose server answered `pages` full pages in a row
    /// with nothing it had not sent before: it would go on for ever.
    case serverRepeatsItself(pages: Int)
    /// A walk whose server's next page was not older than the one before (its
    /// cursor, or the ids it brought): it would go on for ever (`PageWalk`).
    case serverGoesBackwards(WrongWay)
    /// A timeline this API does not have (`fetch local` on Weibo, `fetch reposts` on Mastodon).
    case timelineNotOffered(source: String)
    /// `--page` on a timeline that pages by cursor.
    case pageNeedsPublicTimeline(source: String)
    /// `back` on the list itself.
    case nothingToGoBackTo
    /// `comments` without a row number and no status open.
    case noStatusOpen
    /// A user name or uid that is empty.
    case noUserGiven
    /// `user` without a name and no status open to take the author of.
    case noStatusOpenForUser
    /// `user` without a name, on a status the API sent without an author.
    case noAuthor
    /// `mute` of someone already muted.
    case alreadyMuted(String)
    /// `unmute` of someone not muted.
    case notMuted(String)
    /// `post` with empty text.
    case emptyPost
    /// A comment, reply or other write with empty text (`what`: `comment`, `reply`).
    case emptyText(String)
    /// A comment number outside the comments of a status.
    case noComment(index: Int, count: Int)
    /// A calculator key that does not exist.
    case unknownKey(String)
    /// `calc` without any key.
    case noKeys
    /// `undo` with no operation recorded.
    case nothingToUndo
    /// `redo` with nothing undone.
    case nothingToRedo
    /// A write whose answer was lost (`reason`), which the server shows did
    /// not happen (`outcome`, e.g. `nothing was posted`).
    case writeNotApplied(reason: String, outcome: String)
    /// A write whose answer was lost (`reason`) and whose check failed
    /// (`check`): it may or may not have happened; `advice` says how to find out.
    case writeOutcomeUnknown(reason: String, check: String, advice: String)
    /// `undo` of a remote operation whose compensating request failed: the
    /// history and the screens are unchanged.
    case undoFailed(operation: String, reason: String)
    /// `redo` of a remote operation whose write failed: the history and the
    /// screens are unchanged.
    case redoFailed(operation: String, reason: String)
    // Edits and scheduled statuses.
    /// The connected API cannot do what was asked (`edit`, `notifications`, `block` on Weibo): said before any request.
    case notOffered(String)
    /// `post --at TIME` with a time wsh cannot read, or too soon: what was wrong and what is allowed.
    case badScheduleTime(String)
    /// No scheduled status `index` among `count`.
    case noScheduled(index: Int, count: Int)
    /// `dismiss N` while the notifications screen is not on top.
    case noNotificationsScreen
    /// `detail N` on a notification about no status (a follow).
    case noStatusInRow(index: Int, what: String)
    /// `detail N` on a row with nothing to open (a hashtag), with what to do instead.
    case nothingToOpen(index: Int, advice: String)
    /// No list of the account is titled (or has the id) `name`.
    case noList(name: String, titles: [String])
    /// An option or argument a post or vote cannot take, said in one line (`--language: …`).
    case invalidInput(String)

    /// Why a walk stopped early: the server repeats itself, or goes the wrong way.
    public init(walkStopped stop: PageWalk.Stop) {
        switch stop {
        case .repeating(let pages): self = .serverRepeatsItself(pages: pages)
        case .wrongWay(let wrongWay): self = .serverGoesBackwards(wrongWay)
        }
    }

    /// True when the input was given values it does not accept (a usage
    /// error, status 2 in a script), rather than failing while it ran.
    public var isUsageError: Bool {
        switch self {
        case .invalidPaging, .pageTooLarge, .pageNeedsPublicTimeline, .timelineNotOffered, .noUserGiven, .emptyPost, .emptyText, .unknownKey, .noKeys, .invalidInput: true
        case .notOffered, .badScheduleTime: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .requestFailed(let error):
            return error.description
        case .noRow(let index, let count):
            if count == 0 { return "no row \(index): the list is empty (fetch first)" }
            if index < 1 { return "no row \(index): rows are numbered from 1 to \(count)" }
            return "no row \(index): the list has \(count) row\(count == 1 ? "" : "s")"
        case .invalidPaging(let name, let value, let allowed):
            return "\(name) must be \(allowed.lowerBound) to \(allowed.upperBound), not \(value)"
        case .pageTooLarge(let count, let maximum, let api):
            return "count must be 1 to \(maximum), not \(count): this API (\(api)) serves at most \(maximum) statuses a page"
        case .nothingFetched:
            return "nothing to continue: fetch first"
        case .serverRepeatsItself(let pages):
            return "the server sent \(pages) pages in a row with nothing new: it repeats itself, so the walk stopped"
        case .serverGoesBackwards(let wrongWay):
            return wrongWay.description
        case .timelineNotOffered(let source):
            return "this API has no \(source) timeline"
        case .pageNeedsPublicTimeline(let source):
            return "--page is for the public timeline; the \(source) timeline pages with more"
        case .nothingToGoBackTo:
            return "nothing to go back to: the list is showing"
        case .noStatusOpen:
            return "no status open: give a row number, or open one with detail first"
        case .noUserGiven:
            return "a screen name or uid is needed"
        case .noStatusOpenForUser:
            return "give a screen name or uid, or open a status with detail first"
        case .noAuthor:
            return "the open status has no author to show"
        case .alreadyMuted(let user):
            return "\(user) is already muted"
        case .notMuted(let user):
            return "\(user) is not muted"
        case .invalidInput(let message):
            return message
        case .emptyPost:
            return "nothing to post: the text is empty"
        case .emptyText(let what):
            return "nothing to \(what): the text is empty"
        case .noComment(let index, let count):
            if count == 0 { return "no comment \(index): the status has no comments" }
            return "no comment \(index): comments are numbered from 1 to \(count) (as `comments N` lists them)"
        case .unknownKey(let key):
            return "unknown key '\(key)': keys are 0-9 . + - * / = C"
        case .noKeys:
            return "no keys given: type keys such as 12 + 7 ="
        case .nothingToUndo:
            return "nothing to undo"
        case .nothingToRedo:
            return "nothing to redo"
        case .writeNotApplied(let reason, let outcome):
            return "\(reason); the answer was lost, and the server shows \(outcome)"
        case .writeOutcomeUnknown(let reason, let check, let advice):
            return "\(reason); the answer was lost and checking the server failed (\(check)): \(advice)"
        case .undoFailed(let operation, let reason):
            return "cannot undo \(operation): \(reason); history and screens are unchanged"
        case .redoFailed(let operation, let reason):
            return "cannot redo \(operation): \(reason); history and screens are unchanged"
        case .notOffered(let message), .badScheduleTime(let message):
            return message
        case .noScheduled(let index, let count):
            if count == 0 { return "no scheduled status \(index): none is scheduled" }
            return "no scheduled status \(index): scheduled lists \(count), numbered from 1"
        case .noNotificationsScreen:
            return "no notifications showing: run notifications first, then dismiss N"
        case .noStatusInRow(let index, let what):
            return "row \(index) is \(what), which has no status to open"
        case .nothingToOpen(let index, let advice):
            return "row \(index) has no status or account to open: \(advice)"
        case .noList(let name, let titles):
            let known = titles.isEmpty ? "you have none; lists create NAME makes one"
                : "yours: " + titles.map { TerminalText.sanitize($0) }.joined(separator: ", ")
            return "no list named '\(TerminalText.sanitize(name))' (\(known))"
        }
    }
}
