import WshViewModel

/// The numbered timeline list: columns aligned by display width, each row
/// cut to the terminal's width with an ellipsis.
struct TimelineListView {
    let style: Style
    let columns: Int

    func render(_ rows: [StatusCellViewModel]) -> String {
        guard !rows.isEmpty else { return "" }
        let indexWidth = String(rows.count).count
        let authorWidth = min(18, rows.map { DisplayWidth.of($0.author) }.max() ?? 0)
        let countsWidth = rows.map { DisplayWidth.of($0.countsText) }.max() ?? 0
        var output = ""
        for row in rows {
            let index = DisplayWidth.padLeft(String(row.index), to: indexWidth)
            let author = DisplayWidth.padRight(DisplayWidth.truncate(row.author, to: authorWidth), to: authorWidth)
            let markers = row.markers.isEmpty ? "" : " " + row.markers
            let fixed = indexWidth + 2 + authorWidth + 2 + DisplayWidth.of(row.time) + 2 + 2 + countsWidth
                + DisplayWidth.of(markers)
            let textWidth = max(12, columns - fixed)
            let text = DisplayWidth.padRight(DisplayWidth.truncate(row.text, to: textWidth), to: textWidth)
            output += "\(style.dim(index))  \(style.cyan(author))  \(style.dim(row.time))  \(text)  "
                + style.dim(DisplayWidth.padRight(row.countsText, to: countsWidth)) + style.yellow(markers)
            output = output.trimmingTrailingWhitespace() + "\n"
        }
        return output
    }
}
