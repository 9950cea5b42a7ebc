import WshModel

/// The loaded statuses, kept as the pages they arrived in.
///
/// `more` appends a page: the new value copies the list of page references,
/// not the statuses, so the snapshots before and after it share every page.
/// A flat array would copy all loaded statuses on each `more`, and a history
/// of 50 pages would hold 50 ever longer copies.
public struct LoadedStatuses: Sendable, Hashable, RandomAccessCollection {
    private var pages: [[Status]] = []
    /// `ends[i]` is the number of statuses in pages 0 through i.
    private var ends: [Int] = []

    /// The statuses of `page`, or none.
    public init(_ page: [Status] = []) {
        append(page: page)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.last ?? 0 }

    /// Status `position`, found by a binary search over the pages.
    public subscript(position: Int) -> Status {
        precondition(position >= 0 && position < endIndex, "status \(position) of \(endIndex)")
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return pages[low][position - (low == 0 ? 0 : ends[low - 1])]
    }

    /// The statuses as one array: the page itself when there is one page
    /// (what `fetch` leaves), sharing its storage rather than copying it.
    var array: [Status] {
        pages.count == 1 ? pages[0] : Array(self)
    }

    /// Adds `page` after the loaded statuses.
    public mutating func append(page: [Status]) {
        guard !page.isEmpty else { return }
        pages.append(page)
        ends.append(endIndex + page.count)
    }

    /// Adds `status` before the loaded statuses, as a page of its own.
    public mutating func prepend(_ status: Status) {
        pages.insert([status], at: 0)
        ends = ends.map { $0 + 1 }
        ends.insert(1, at: 0)
    }

    /// Adds `page` before the loaded statuses (what `newer` brought).
    public mutating func prepend(page: [Status]) {
        guard !page.isEmpty else { return }
        pages.insert(page, at: 0)
        ends = ends.map { $0 + page.count }
        ends.insert(page.count, at: 0)
    }

    /// Replaces the status whose identifier is `id` with `status`, copying
    /// only the page that holds it; the other pages stay shared.
    mutating func replace(id: String, with status: Status) {
        for page in pages.indices {
            if let position = pages[page].firstIndex(where: { $0.identifier == id }) {
                pages[page][position] = status
                return
            }
        }
    }

    /// Removes the status whose identifier is `id`, copying only the page
    /// that held it; the other pages stay shared.
    mutating func remove(id: String) {
        for page in pages.indices {
            if let position = pages[page].firstIndex(where: { $0.identifier == id }) {
                pages[page].remove(at: position)
                ends = ends.enumerated().map { $0.offset >= page ? $0.element - 1 : $0.element }
                if pages[page].isEmpty {
                    pages.remove(at: page)
                    ends.remove(at: page)
                }
                return
            }
        }
    }

    /// True when every page of `self` is stored in the same memory as the
    /// page at the same place in `other`: what a snapshot costs is then only
    /// the page references.
    public func sharesPages(with other: LoadedStatuses) -> Bool {
        guard pages.count <= other.pages.count else { return false }
        return zip(pages, other.pages).allSatisfy { mine, theirs in
            mine.withUnsafeBufferPointer { a in theirs.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        }
    }
}
