/// The operation history, numbered from 1 like the calculator's list.
struct HistoryView {
    let style: Style

    func render(_ operations: [String]) -> String {
        guard !operations.isEmpty else { return "" }
        let width = String(operations.count).count
        return operations.enumerated().map { index, text in
            style.dim(DisplayWidth.padLeft(String(index + 1), to: width)) + "  " + text + "\n"
        }.joined()
    }
}
