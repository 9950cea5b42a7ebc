import WshViewModel

/// The comments of one status, numbered.
struct CommentsView {
    let style: Style
    let columns: Int

    func render(_ comments: CommentsViewModel) -> String {
        var output = style.bold(comments.title) + style.dim(" · " + comments.countText) + "\n"
        let indexWidth = String(comments.rows.count).count
        let authorWidth = min(18, comments.rows.map { DisplayWidth.of($0.author) }.max() ?? 0)
        for row in comments.rows {
            let author = DisplayWidth.padRight(DisplayWidth.truncate(row.author, to: authorWidth), to: authorWidth)
            let fixed = indexWidth + 2 + authorWidth + 2 + DisplayWidth.of(row.time) + 2
            // A reply to a reply is indented under the one it answers.
            let thread = row.depth == 0 ? "" : String(repeating: "  ", count: row.depth - 1) + "↳ "
            let text = DisplayWidth.truncate(thread + row.text, to: max(12, columns - fixed))
            output += "\(style.dim(DisplayWidth.padLeft(String(row.index), to: indexWidth)))  \(style.cyan(author))  \(style.dim(row.time))  \(text)\n"
        }
        return output
    }
}
