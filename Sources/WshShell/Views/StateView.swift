import WshViewModel

/// `state` and `state --diff` on a terminal: the Top ViewModel's state as a
/// tree, and what the last operation changed.
struct StateView {
    let style: Style

    /// The state as a tree: screens, rows (muted ones marked), paging, muted users, calculator.
    func render(_ document: SessionStateDocument) -> String {
        var lines = [style.bold("state")]
        let screens = document.screens.isEmpty ? "list" : (["list"] + document.screens.map(\.description)).joined(separator: " › ")
        lines.append("├─ screens   " + screens)
        let hidden = document.rows.filter(\.muted).count
        lines.append("├─ rows      \(document.rows.count)" + (hidden > 0 ? style.dim(" (\(hidden) muted, hidden)") : ""))
        let width = String(document.rows.count).count
        for (offset, row) in document.rows.enumerated() {
            let branch = offset == document.rows.count - 1 ? "└─ " : "├─ "
            let number = row.index.map { DisplayWidth.padLeft(String($0), to: width) } ?? String(repeating: " ", count: width)
            let author = row.author.map { " @\($0)" } ?? ""
            let text = "\(number)  \(row.id ?? "(no id)")\(author)"
            lines.append("│  " + branch + (row.muted ? style.dim(text + "  ✕ muted") : text))
        }
        lines.append("├─ source    \(document.source) · page size \(document.pageSize) · next: "
                     + (document.next ?? (document.fetched ? "none (the end)" : "none (not fetched)")))
        lines.append("├─ muted     " + (document.muted.isEmpty ? style.dim("nobody") : document.muted.joined(separator: ", ")))
        let calculator = document.calculator
        var brain = "LED \(calculator.led)"
        if let pending = calculator.pending { brain += " · pending \(pending)" }
        if !calculator.entries.isEmpty { brain += " · entries " + calculator.entries.joined(separator: " ") }
        if calculator.error { brain += " · " + style.red("error until C") }
        lines.append("└─ calculator " + brain)
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the last operation changed; one line per kind of change.
    func render(_ diff: SessionStateDiff?) -> String {
        guard let diff else { return style.dim("no operation to compare: the history is empty") + "\n" }
        var lines = [style.bold("last operation: ") + diff.operation]
        if !diff.rowsAdded.isEmpty { lines.append(style.green("+ rows   ") + Self.ids(diff.rowsAdded)) }
        if !diff.rowsRemoved.isEmpty { lines.append(style.red("- rows   ") + Self.ids(diff.rowsRemoved)) }
        for screen in diff.screensPopped.reversed() { lines.append(style.red("- screen ") + "popped " + screen.description) }
        for screen in diff.screensPushed { lines.append(style.green("+ screen ") + "pushed " + screen.description) }
        if !diff.mutedAdded.isEmpty { lines.append(style.green("+ muted  ") + diff.mutedAdded.joined(separator: ", ")) }
        if !diff.mutedRemoved.isEmpty { lines.append(style.red("- muted  ") + diff.mutedRemoved.joined(separator: ", ")) }
        if let source = diff.source { lines.append("~ source \(source.before) → \(source.after)") }
        if let led = diff.led { lines.append("~ LED    \(led.before) → \(led.after)") }
        if diff.isEmpty { lines.append(style.dim("(no change to the state)")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `n ids: a, b, c`, long lists shortened to their first ten.
    private static func ids(_ ids: [String]) -> String {
        let shown = ids.prefix(10).joined(separator: ", ")
        return "\(ids.count): " + shown + (ids.count > 10 ? ", … (\(ids.count - 10) more)" : "")
    }
}
