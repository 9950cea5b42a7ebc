import WshViewModel

/// A numbered list of accounts (followers, following): screen name, display
/// name, followers, and whether you follow them, aligned by display width.
struct AccountsView {
    let style: Style
    let columns: Int

    func render(_ accounts: AccountsViewModel) -> String {
        var output = style.bold(accounts.title) + "\n"
        guard !accounts.rows.isEmpty else { return output + style.dim("(none)") + "\n" }
        output += AccountRowsView(style: style, columns: columns).render(accounts.rows, indexWidth: String(accounts.rows.count).count)
        if accounts.hasMore { output += style.dim("(more on the server)") + "\n" }
        return output
    }
}

/// Account rows, as the account list and search's accounts section show them.
struct AccountRowsView {
    let style: Style
    let columns: Int

    func render(_ rows: [AccountCellViewModel], indexWidth: Int) -> String {
        let nameWidth = min(24, rows.map { DisplayWidth.of($0.screenName) }.max() ?? 0)
        let displayWidth = min(20, rows.map { DisplayWidth.of($0.name) }.max() ?? 0)
        let counts = rows.map(\.followersText)
        let countWidth = counts.map { DisplayWidth.of($0) }.max() ?? 0
        var output = ""
        for (row, count) in zip(rows, counts) {
            let index = DisplayWidth.padLeft(String(row.index), to: indexWidth)
            let name = DisplayWidth.fit(row.screenName, to: nameWidth)
            let display = DisplayWidth.fit(row.name, to: displayWidth)
            let line = "\(style.dim(index))  \(style.cyan(name))  \(display)  \(style.dim(DisplayWidth.padLeft(count, to: countWidth)))  "
                + (row.followedByYou == true ? style.green(row.followText) : style.dim(row.followText))
            output += line.trimmingTrailingWhitespace() + "\n"
        }
        return output
    }
}

/// What a search found: its accounts, statuses and hashtags under a heading
/// each, numbered across the sections as `detail N` takes them.
struct SearchView {
    let style: Style
    let columns: Int

    func render(_ search: SearchViewModel) -> String {
        var output = style.bold("search \"\(search.query)\"") + style.dim(" · \(search.summary)") + "\n"
        let indexWidth = String(search.rows.count).count
        let accounts = search.rows.compactMap { if case .account(let row) = $0 { row } else { nil } }
        let statuses = search.rows.compactMap { if case .status(let row) = $0 { row } else { nil } }
        if !accounts.isEmpty {
            output += style.dim("accounts") + "\n" + AccountRowsView(style: style, columns: columns).render(accounts, indexWidth: indexWidth)
        }
        if !statuses.isEmpty {
            output += style.dim("statuses") + "\n" + TimelineListView(style: style, columns: columns).render(statuses)
        }
        var tags = ""
        for case .hashtag(let index, let name, let uses) in search.rows {
            tags += "\(style.dim(DisplayWidth.padLeft(String(index), to: indexWidth)))  \(style.yellow("#" + name))"
                + (uses.map { style.dim("  \($0) use\($0 == 1 ? "" : "s")") } ?? "") + "\n"
        }
        if !tags.isEmpty { output += style.dim("hashtags") + "\n" + tags }
        return output
    }
}
