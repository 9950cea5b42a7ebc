import WshViewModel

/// `filters`: the account's filters, numbered: title, action, where they
/// apply, their keywords, and until when.
struct FiltersView {
    let style: Style

    func render(_ filters: FiltersViewModel) -> String {
        guard !filters.rows.isEmpty else { return style.bold("filters") + style.dim(" · none") + "\n" }
        let count = "\(filters.rows.count) filter\(filters.rows.count == 1 ? "" : "s")"
        return style.numberedList("filters", count: count, rows: filters.rows, number: \.index) { row, _ in
            var line = style.bold(row.title) + "  " + (row.action == "hide" ? style.red(row.action) : style.yellow(row.action))
                + style.dim("  in " + row.context)
            if !row.keywords.isEmpty { line += "  " + row.keywords }
            if !row.expires.isEmpty { line += style.dim("  " + row.expires) }
            return line
        }
    }
}
