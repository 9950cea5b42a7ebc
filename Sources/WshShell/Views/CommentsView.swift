import WshViewModel

/// The comments of one status, numbered.
struct CommentsView {
    let style: Style
    let columns: Int

    func render(_ comments: CommentsViewModel) -> String {
        let authorWidth = min(18, comments.rows.map { DisplayWidth.of($0.author) }.max() ?? 0)
        return style.numberedList(comments.title, count: comments.countText, rows: comments.rows, number: \.index) { row, taken in
            let author = DisplayWidth.fit(row.author, to: authorWidth)
            let fixed = taken + authorWidth + 2 + DisplayWidth.of(row.time) + 2
            // A reply to a reply is indented under the one it answers.
            let thread = row.depth == 0 ? "" : String(repeating: "  ", count: row.depth - 1) + "↳ "
            let text = DisplayWidth.truncate(thread + row.text, to: max(12, columns - fixed))
            return "\(style.cyan(author))  \(style.dim(row.time))  \(text)"
        }
    }
}
