import WshModel
import WshText

/// One row of a comments list.
public struct CommentCellViewModel: Sendable, Hashable {
    /// The row number, from 1.
    public let index: Int
    /// `@screen_name`.
    public let author: String
    /// `05-31 17:46`.
    public let time: String
    /// The text on one line.
    public let text: String
    /// How deep in the thread it is: 0 answers the status (Weibo's are all 0).
    public let depth: Int

    /// The row for `comment` at row number `index`.
    public init(comment: Comment, index: Int) {
        self.index = index
        author = DisplayText.author(comment.user)
        time = DisplayText.shortTime(comment.createdAt)
        text = TerminalText.sanitize(comment.text)
        depth = comment.depth
    }
}
