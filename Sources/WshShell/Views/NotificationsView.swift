import WshViewModel

/// The notifications screen: `N  type  @who  time  text`, cut to the terminal's width.
struct NotificationsView {
    let style: Style
    let columns: Int

    func render(_ screen: NotificationsViewModel) -> String {
        guard !screen.rows.isEmpty else {
            return style.dim(screen.types.isEmpty ? "no notifications" : "no \(screen.types.joined(separator: ", ")) notifications") + "\n"
        }
        let rows = screen.rows
        let indexWidth = String(rows.count).count
        let typeWidth = rows.map { DisplayWidth.of($0.type) }.max() ?? 0
        let whoWidth = min(18, rows.map { DisplayWidth.of($0.who) }.max() ?? 0)
        let timeWidth = rows.map { DisplayWidth.of($0.time) }.max() ?? 0
        let textWidth = max(12, columns - (indexWidth + typeWidth + whoWidth + timeWidth + 8))
        var output = ""
        for row in rows {
            let who = DisplayWidth.fit(row.who, to: whoWidth)
            let line = "\(style.dim(DisplayWidth.padLeft(String(row.index), to: indexWidth)))  "
                + "\(style.yellow(DisplayWidth.padRight(row.type, to: typeWidth)))  \(style.cyan(who))  "
                + "\(style.dim(DisplayWidth.padRight(row.time, to: timeWidth)))  \(DisplayWidth.truncate(row.text, to: textWidth))"
            output += line.trimmingTrailingWhitespace() + "\n"
        }
        if screen.hasMore { output += style.dim("(older ones: more, or notifications --all)") + "\n" }
        return output
    }
}

/// The conversations screen: `N  • @with  time  last text` (• unread).
struct ConversationsView {
    let style: Style
    let columns: Int

    func render(_ screen: ConversationsViewModel) -> String {
        guard !screen.rows.isEmpty else { return style.dim("no conversations") + "\n" }
        let rows = screen.rows
        let indexWidth = String(rows.count).count
        let withWidth = min(30, rows.map { DisplayWidth.of($0.with) }.max() ?? 0)
        let timeWidth = rows.map { DisplayWidth.of($0.time) }.max() ?? 0
        let textWidth = max(12, columns - (indexWidth + withWidth + timeWidth + 10))
        var output = ""
        for row in rows {
            let with = DisplayWidth.fit(row.with, to: withWidth)
            let line = "\(style.dim(DisplayWidth.padLeft(String(row.index), to: indexWidth)))  \(row.unread ? style.yellow("•") : " ") "
                + "\(style.cyan(with))  \(style.dim(DisplayWidth.padRight(row.time, to: timeWidth)))  "
                + DisplayWidth.truncate(row.text, to: textWidth)
            output += line.trimmingTrailingWhitespace() + "\n"
        }
        return output
    }
}
