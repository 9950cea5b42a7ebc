import WshModel
import WshText

/// The screen of the account's lists (`lists`): numbered rows with each
/// list's title and whose replies its timeline shows.
public struct ListsViewModel: Sendable, Hashable {
    /// One list, numbered from 1.
    public struct Row: Sendable, Hashable {
        public let index: Int
        public let id: String
        /// The title on one line, without control characters.
        public let title: String
        /// `followed`, `list` or `none`; empty when the server does not say.
        public let repliesPolicy: String
    }

    public let rows: [Row]
    /// The lists as `lists --json` shows them.
    public let document: ListsDocument

    public init(lists: [UserList]) {
        rows = lists.enumerated().map { offset, list in
            Row(index: offset + 1, id: TerminalText.sanitize(list.id), title: TerminalText.sanitize(list.title),
                repliesPolicy: TerminalText.sanitize(list.repliesPolicy ?? ""))
        }
        document = ListsDocument(lists: lists)
    }
}
