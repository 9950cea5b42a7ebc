import Synchronization

/// The line a long walk (`archive sync`, `fetch --all`) keeps redrawing on a
/// terminal: a bar when `--limit` says how far it goes, else the count so far.
/// Redrawn in place with a carriage return; `clear` blanks it when the walk
/// ends (the console lets no erase sequence out: spaces do it). Drawn from the
/// walk's task while the shell's thread waits.
final class ProgressLine: Sendable {
    /// What is being done and to what: `syncing public`, `fetching home`.
    let title: String
    /// `--limit`, when given.
    let limit: Int?
    /// What is counted: statuses, files.
    let unit: String
    /// The widest line drawn so far, for `clear`.
    private let width = Mutex(0)

    init(title: String, limit: Int?, unit: String = "statuses") {
        self.title = title
        self.limit = limit
        self.unit = unit
    }

    /// The line for `total` statuses so far (without the carriage return).
    func text(_ total: Int) -> String {
        guard let limit, limit > 0 else { return "\(title): \(total) \(unit)…" }
        let cells = 24
        let filled = min(cells, total * cells / limit)
        return "\(title) [" + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
            + "] \(min(total, limit)) of \(limit) \(unit)"
    }

    /// `text(total)` drawn over the line before.
    func draw(_ total: Int) -> String {
        let line = text(total)
        width.withLock { $0 = max($0, line.count) }
        return "\r" + line
    }

    /// Blanks the line drawn.
    var clear: String { "\r" + String(repeating: " ", count: width.withLock { $0 }) + "\r" }
}
