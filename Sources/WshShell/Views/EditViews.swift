import WshViewModel

/// The edit history of one status, numbered from the original.
struct EditHistoryView {
    let style: Style
    let columns: Int

    func render(_ history: EditHistoryViewModel) -> String {
        style.numberedList(history.title, count: history.countText, rows: history.rows, number: \.index) { row, taken in
            let warning = row.contentWarning.isEmpty ? "" : style.yellow("CW: \(row.contentWarning)") + " · "
            let fixed = taken + DisplayWidth.of(row.time) + 2 + DisplayWidth.of(warning)
            let text = DisplayWidth.truncate(row.text, to: max(12, columns - fixed))
            return "\(style.dim(row.time))  \(warning)\(text)"
        }
    }
}

/// The scheduled statuses, numbered for `unschedule N`.
struct ScheduledStatusesView {
    let style: Style
    let columns: Int

    func render(_ scheduled: ScheduledStatusesViewModel) -> String {
        let idWidth = scheduled.rows.map { DisplayWidth.of($0.id) }.max() ?? 0
        let list = style.numberedList("scheduled", count: scheduled.countText, rows: scheduled.rows, number: \.index) { row, taken in
            let fixed = taken + idWidth + 2 + DisplayWidth.of(row.time) + 2
            let text = DisplayWidth.truncate(row.text, to: max(12, columns - fixed))
            return "\(style.cyan(DisplayWidth.padRight(row.id, to: idWidth)))  \(style.dim(row.time))  \(text)"
        }
        return list + (scheduled.hasMore ? style.dim("(more on the server: more)") + "\n" : "")
    }
}
