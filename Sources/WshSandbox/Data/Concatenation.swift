/// Two arrays read as one, without copying them: an index made of a list
/// kept once (generated notifications) and one writes add to.
struct Concatenation<Element>: RandomAccessCollection {
    let head: [Element]
    let tail: [Element]

    init(_ head: [Element], _ tail: [Element]) {
        self.head = head
        self.tail = tail
    }

    var startIndex: Int { 0 }
    var endIndex: Int { head.count + tail.count }

    subscript(position: Int) -> Element {
        position < head.count ? head[position] : tail[position - head.count]
    }
}

extension RandomAccessCollection {
    /// The first index whose element `belongsInSecondPartition` holds for, by
    /// binary search: the collection must be partitioned by it (false, then true).
    func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
