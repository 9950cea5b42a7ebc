import WshViewModel

/// The numbered timeline list: columns aligned by display width, each row
/// cut to the terminal's width with an ellipsis.
struct TimelineListView {
    let style: Style
    let columns: Int

    /// The View's name as `trace` shows it (`TimelineListView (3 rows)`), and its text of `rows`.
    func shown(_ rows: [StatusCellViewModel]) -> (name: String, text: String) {
        ("TimelineListView (\(rows.count) row\(rows.count == 1 ? "" : "s"))", render(rows))
    }

    func render(_ rows: [StatusCellViewModel]) -> String {
        guard !rows.isEmpty else { return "" }
        let indexWidth = String(rows.count).count
        let authorWidth = min(18, rows.map { DisplayWidth.of($0.author) }.max() ?? 0)
        let countsWidth = rows.map { DisplayWidth.of($0.countsText) }.max() ?? 0
        // Every row gives its markers the same room, so the counts line up in one column.
        let markersWidth = rows.map { $0.markers.isEmpty ? 0 : 1 + DisplayWidth.of($0.markers) }.max() ?? 0
        let timeWidth = rows.map { DisplayWidth.of($0.time) }.max() ?? 0
        let fixed = indexWidth + 2 + authorWidth + 2 + timeWidth + 2 + 2 + countsWidth + markersWidth
        let textWidth = max(12, columns - fixed)
        var output = ""
        for row in rows {
            let index = DisplayWidth.padLeft(String(row.index), to: indexWidth)
            let author = DisplayWidth.fit(row.author, to: authorWidth)
            let time = DisplayWidth.padRight(row.time, to: timeWidth)
            let text = DisplayWidth.fit(row.text, to: textWidth)
            let markers = row.markers.isEmpty ? "" : " " + row.markers
            var line = "\(style.dim(index))  \(style.cyan(author))  \(style.dim(time))  \(text)  "
                + style.dim(DisplayWidth.padRight(row.countsText, to: countsWidth)) + style.yellow(markers)
            line = line.trimmingTrailingWhitespace()
            output += line + "\n"
        }
        return output
    }
}
