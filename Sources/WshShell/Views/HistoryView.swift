import WshViewModel

/// The operation history, numbered from 1 like the calculator's list; an
/// operation that changed something on the server is marked `⇅`.
struct HistoryView {
    let style: Style

    /// The mark before an operation that changed something on the server.
    static let remoteMark = "⇅"

    func render(_ records: [RecordedOperation]) -> String {
        guard !records.isEmpty else { return "" }
        let width = String(records.count).count
        return records.enumerated().map { index, record in
            let mark = record.isRemote ? Self.remoteMark + " " : ""
            return style.dim(DisplayWidth.padLeft(String(index + 1), to: width)) + "  " + mark
                + record.description + "\n"
        }.joined()
    }
}
