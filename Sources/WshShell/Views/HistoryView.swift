import WshViewModel

/// The operation history, numbered from 1 like the calculator's list; an
/// operation that changed something on the server is marked `⇅`.
struct HistoryView {
    let style: Style

    /// The mark before an operation that changed something on the server.
    static let remoteMark = "⇅"

    /// One line per operation; with `effects`, each one marked `⇅` is
    /// followed by a line, under its description, saying what it changed on
    /// the server and what undo will send (`RemoteEffect.summary`).
    func render(_ records: [RecordedOperation], effects: Bool = false) -> String {
        guard !records.isEmpty else { return "" }
        let width = String(records.count).count
        // Under the description: past the number, its two spaces and the mark with its space.
        let indent = String(repeating: " ", count: width + 2 + DisplayWidth.of(Self.remoteMark) + 1)
        return records.enumerated().map { index, record in
            let mark = record.isRemote ? Self.remoteMark + " " : ""
            let line = style.dim(DisplayWidth.padLeft(String(index + 1), to: width)) + "  " + mark
                + record.description + "\n"
            guard effects, let effect = record.remote else { return line }
            return line + indent + style.dim(effect.summary) + "\n"
        }.joined()
    }
}
