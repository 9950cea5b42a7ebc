/// A timeline's statuses as an index: the union of a few lists of ordinals,
/// each ascending (the generated statuses of an author, those posted since,
/// …), read newest or oldest first from a bound found by binary search.
///
/// A page reads from its cursor on and stops when it is full, so its cost is
/// that of the page (and of the entries its filter skips), not that of the
/// whole timeline. An ordinal in several lists is read once.
struct OrdinalIndex: Sendable {
    /// The lists, each strictly ascending.
    var sources: [ArraySlice<Int>]

    init(_ sources: [ArraySlice<Int>]) {
        self.sources = sources.filter { !$0.isEmpty }
    }

    init(_ sources: [[Int]]) {
        self.init(sources.map { $0[...] })
    }

    /// The ordinals below `upper`, newest first.
    func descending(below upper: Int) -> Descending {
        Descending(sources: sources, upper: upper)
    }

    /// The ordinals above `lower`, oldest first.
    func ascending(above lower: Int) -> Ascending {
        Ascending(sources: sources, lower: lower)
    }

    /// Every ordinal, newest first.
    var all: [Int] { Array(descending(below: Int.max)) }

    /// Reads the lists from the top down: each list's next position is kept,
    /// and the greatest of their ordinals comes next.
    struct Descending: Sequence, IteratorProtocol {
        private let sources: [ArraySlice<Int>]
        /// For each list, the position after its next ordinal (its start: used up).
        private var ends: [Int]

        fileprivate init(sources: [ArraySlice<Int>], upper: Int) {
            self.sources = sources
            ends = sources.map { OrdinalIndex.firstPosition(in: $0) { $0 >= upper } }
        }

        mutating func next() -> Int? {
            var best: Int?
            for (n, source) in sources.enumerated() where ends[n] > source.startIndex {
                let candidate = source[ends[n] - 1]
                if best.map({ candidate > $0 }) ?? true { best = candidate }
            }
            guard let best else { return nil }
            // The same ordinal in several lists is read once: each moves past it.
            for (n, source) in sources.enumerated() where ends[n] > source.startIndex && source[ends[n] - 1] == best {
                ends[n] -= 1
            }
            return best
        }
    }

    /// Reads the lists from the bottom up, as `Descending` from the top down.
    struct Ascending: Sequence, IteratorProtocol {
        private let sources: [ArraySlice<Int>]
        /// For each list, the position of its next ordinal (its end: used up).
        private var starts: [Int]

        fileprivate init(sources: [ArraySlice<Int>], lower: Int) {
            self.sources = sources
            starts = sources.map { OrdinalIndex.firstPosition(in: $0) { $0 > lower } }
        }

        mutating func next() -> Int? {
            var best: Int?
            for (n, source) in sources.enumerated() where starts[n] < source.endIndex {
                let candidate = source[starts[n]]
                if best.map({ candidate < $0 }) ?? true { best = candidate }
            }
            guard let best else { return nil }
            for (n, source) in sources.enumerated() where starts[n] < source.endIndex && source[starts[n]] == best {
                starts[n] += 1
            }
            return best
        }
    }

    /// The first position in `list` (ascending) whose ordinal `isAtOrAfter`
    /// holds for, by binary search; `endIndex` when none.
    static func firstPosition(in list: ArraySlice<Int>, where isAtOrAfter: (Int) -> Bool) -> Int {
        var low = list.startIndex
        var high = list.endIndex
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(list[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Inserts `ordinal` into the ascending `list` where it belongs, unless it is there.
    static func insert(_ ordinal: Int, into list: inout [Int]) {
        if let last = list.last, last < ordinal { list.append(ordinal); return }
        let position = firstPosition(in: list[...]) { $0 >= ordinal }
        if position < list.endIndex, list[position] == ordinal { return }
        list.insert(ordinal, at: position)
    }
}
