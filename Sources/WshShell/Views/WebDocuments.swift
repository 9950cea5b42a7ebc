import WshText
import WshViewModel

/// The state and the history as the classroom page is sent them: what
/// changed since the last ones sent, and every `snapshotEvery` lines both
/// whole. A line's cost to wsh (and its bytes in the window every page reads
/// from) follows what it changed, not the length of the session: the history
/// alone is up to 1,000 operations, and sending it whole on every line made
/// each round of commands slower than the one before.
///
/// The members it makes (the event's `type` and `line` are `WebView`'s):
///
/// - `state` `{state, diff}` the first time, whole; then `{patch, diff}`: the
///   members of the `state --json` document that differ from the last one
///   sent. Every member is always present, so a patch only replaces: the
///   state is the last one with these members overwritten.
/// - `history` `{drop, keep, add, position}`: the operations are the last
///   ones sent without their first `drop`, the next `keep` of them, then
///   `add`; one is applied when its index is below `position`. The first
///   time, or when nothing is kept, `{operations, position}`, whole.
/// - `snapshot` `{state, history}`: both whole (null before there is one), as
///   they are when its line starts. The log keeps its window beginning at a
///   snapshot (a keyframe, `ClassroomLog`), so a page that loads fresh or
///   catches up rebuilds every line's state and history from one.
struct WebDocuments {
    /// Lines between snapshots: a page loading fresh is sent at most this
    /// many lines more than its window, and wsh writes the whole history once
    /// per this many lines.
    static let snapshotEvery = 50

    private var state: [String: JSONValue]?
    private var operations: [HistoryDocument.Operation]?
    private var position = 0
    /// Lines since the last snapshot: the first line gets one (the log's
    /// first keyframe), so a page loading fresh never starts amid changes.
    private var linesSinceSnapshot = snapshotEvery

    /// The `state` event's members for `document`.
    mutating func state(_ document: SessionStateDocument) -> [String: JSONValue] {
        let members = WebView.value(document).object ?? [:]
        defer { state = members }
        guard let previous = state else { return ["state": .object(members)] }
        return ["patch": .object(members.filter { previous[$0.key] != $0.value })]
    }

    /// The `history` event's members for `history`.
    mutating func history(_ history: HistoryDocument) -> [String: JSONValue] {
        defer {
            operations = history.operations
            position = history.position
        }
        let new = history.operations
        guard let old = operations else { return Self.whole(new, position: history.position) }
        let (drop, keep) = Self.overlap(old, new)
        if keep == 0 && !new.isEmpty { return Self.whole(new, position: history.position) }
        return ["drop": .integer(Int64(drop)), "keep": .integer(Int64(keep)),
                "add": .array(new[keep...].map(Self.value)), "position": .integer(Int64(history.position))]
    }

    /// As line a line starts: the `snapshot` event's members when one is due, else nil.
    mutating func snapshotIfDue() -> [String: JSONValue]? {
        linesSinceSnapshot += 1
        guard linesSinceSnapshot > Self.snapshotEvery, state != nil || operations != nil else { return nil }
        linesSinceSnapshot = 1
        return ["state": state.map { .object($0) } ?? .null,
                "history": operations.map { .object(Self.whole($0, position: position)) } ?? .null]
    }

    private static func whole(_ operations: [HistoryDocument.Operation], position: Int) -> [String: JSONValue] {
        ["operations": .array(operations.map(value)), "position": .integer(Int64(position))]
    }

    /// An operation as `HistoryDocument` encodes it (no `remote` when it has none), built directly:
    /// JSONEncoder's round trip was most of what a line cost with the page on.
    private static func value(_ operation: HistoryDocument.Operation) -> JSONValue {
        var members: [String: JSONValue] = ["text": .string(operation.text), "applied": .bool(operation.applied)]
        if let remote = operation.remote { members["remote"] = .string(remote) }
        return .object(members)
    }

    /// How `new` continues `old`: the operations dropped from the front of
    /// `old`, and how many of the rest begin `new`. Operations compare by
    /// what they say, not by `applied`, which follows from the position (so
    /// an undo or a redo sends no operation at all). The usual changes take
    /// one pass: one appended, undone or redone (nothing dropped), and the
    /// oldest dropped as a new one comes at the history's cap (the first few
    /// places where `new` could begin are tried; any is exact, the longest
    /// overlap is the smallest event).
    static func overlap(_ old: [HistoryDocument.Operation], _ new: [HistoryDocument.Operation]) -> (drop: Int, keep: Int) {
        func same(_ a: HistoryDocument.Operation, _ b: HistoryDocument.Operation) -> Bool {
            a.text == b.text && a.remote == b.remote
        }
        func common(from drop: Int) -> Int {
            var keep = 0
            while drop + keep < old.count, keep < new.count, same(old[drop + keep], new[keep]) { keep += 1 }
            return keep
        }
        var best = (drop: old.count, keep: 0)
        var tried = 0
        for drop in 0..<old.count where drop == 0 || (!new.isEmpty && same(old[drop], new[0])) {
            let keep = common(from: drop)
            if keep > best.keep { best = (drop, keep) }
            // All of old's rest kept: no later start keeps more.
            tried += 1
            if drop + keep == old.count || tried == 5 { break }
        }
        return best
    }
}
