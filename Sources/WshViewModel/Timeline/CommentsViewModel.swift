import WshModel
import WshText

/// The comments screen of one status.
public struct CommentsViewModel: Sendable, Hashable {
    /// The id of the status commented on.
    public let statusID: String
    /// `comments on @author's status`, the screen's heading.
    public let title: String
    /// One row per comment, numbered from 1.
    public let rows: [CommentCellViewModel]
    /// `7 comments` or `20 of 35 comments` when the API has more.
    public let countText: String

    /// The comments as `comments --json` shows them.
    public let document: CommentsDocument

    /// The screen for `page`, the comments on `status`.
    public init(status: Status, page: CommentsPage) {
        document = CommentsDocument(status: status, page: page)
        statusID = TerminalText.sanitize(status.identifier)
        title = "comments on \(DisplayText.author(status.user))'s status \(statusID)"
        rows = page.comments.enumerated().map { CommentCellViewModel(comment: $1, index: $0 + 1) }
        let total = max(page.totalNumber ?? rows.count, rows.count)
        countText = total > rows.count ? "\(rows.count) of \(DisplayText.plural(total, "comment"))"
                                       : DisplayText.plural(rows.count, "comment")
    }
}
