import WshViewModel

/// The account's lists, numbered: `1. Friends  (replies: list) · id 3`.
struct ListsView {
    let style: Style

    func render(_ lists: ListsViewModel) -> String {
        guard !lists.rows.isEmpty else { return style.dim("no lists (lists create NAME makes one)") + "\n" }
        return lists.rows.map { row in
            "\(style.dim("\(row.index)."))  \(style.bold(row.title))"
                + (row.repliesPolicy.isEmpty ? "" : style.dim("  (replies: \(row.repliesPolicy))"))
                + style.dim(" · id \(row.id)")
        }.joined(separator: "\n") + "\n"
    }
}
