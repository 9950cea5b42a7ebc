import WshViewModel

/// The edit history of one status, numbered from the original.
struct EditHistoryView {
    let style: Style
    let columns: Int

    func render(_ history: EditHistoryViewModel) -> String {
        var output = style.bold(history.title) + style.dim(" · " + history.countText) + "\n"
        let indexWidth = String(history.rows.count).count
        for row in history.rows {
            let warning = row.contentWarning.isEmpty ? "" : style.yellow("CW: \(row.contentWarning)") + " · "
            let fixed = indexWidth + 2 + DisplayWidth.of(row.time) + 2 + DisplayWidth.of(warning)
            let text = DisplayWidth.truncate(row.text, to: max(12, columns - fixed))
            output += "\(style.dim(DisplayWidth.padLeft(String(row.index), to: indexWidth)))  \(style.dim(row.time))  \(warning)\(text)\n"
        }
        return output
    }
}

/// The scheduled statuses, numbered for `unschedule N`.
struct ScheduledStatusesView {
    let style: Style
    let columns: Int

    func render(_ scheduled: ScheduledStatusesViewModel) -> String {
        var output = style.bold("scheduled") + style.dim(" · " + scheduled.countText) + "\n"
        let indexWidth = String(scheduled.rows.count).count
        let idWidth = scheduled.rows.map { DisplayWidth.of($0.id) }.max() ?? 0
        for row in scheduled.rows {
            let fixed = indexWidth + 2 + idWidth + 2 + DisplayWidth.of(row.time) + 2
            let text = DisplayWidth.truncate(row.text, to: max(12, columns - fixed))
            output += "\(style.dim(DisplayWidth.padLeft(String(row.index), to: indexWidth)))  "
                + "\(style.cyan(DisplayWidth.padRight(row.id, to: idWidth)))  \(style.dim(row.time))  \(text)\n"
        }
        return output
    }
}
