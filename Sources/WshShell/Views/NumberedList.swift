extension Style {
    /// A list to pick from by number (`detail N`, `unschedule N`…): a bold title,
    /// a dimmed ` · count`, then a line a row after its number, dimmed and
    /// right-aligned to the widest. `line` gets the row and how many columns the
    /// number and its gap take.
    func numberedList<Row>(
        _ title: String, count: String, rows: [Row], number: (Row) -> Int,
        line: (Row, _ numberColumns: Int) -> String
    ) -> String {
        let indexWidth = String(rows.count).count
        var output = bold(title) + dim(" · " + count) + "\n"
        for row in rows {
            output += dim(DisplayWidth.padLeft(String(number(row)), to: indexWidth)) + "  " + line(row, indexWidth + 2) + "\n"
        }
        return output
    }
}
