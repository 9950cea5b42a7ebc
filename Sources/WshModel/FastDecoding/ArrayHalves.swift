import Dispatch
import WshText

/// The elements of a long array read in two halves at once.
///
/// A timeline page is one long array of statuses, and reading it is most of
/// the time between the answer's last byte and the rows. The reader finds
/// where the element nearest the array's middle begins by stepping over
/// the first half (`skipValue`, which reads nothing into values), then reads
/// the first half on this thread and the second on another; the values come
/// back in the array's order. Either half declining declines the whole, as
/// reading it in one pass would; so does an array the stepping could not
/// cross, which is then read in one pass to find out.
extension ModelReader {
    /// At least this many bytes left in the body before an array is split:
    /// below it, waking a second thread costs more than it saves.
    static let halvesThreshold = 32 * 1024

    /// Reads the elements of the array the reader has just entered, to its
    /// end, each with `element` (nil drops it); a long one in two halves at once.
    mutating func elementsInHalves<T>(
        _ element: (inout ModelReader) throws(Declined) -> T?
    ) throws(Declined) -> [T] {
        guard json.count - json.position >= Self.halvesThreshold, let middle = middleElement() else {
            var values: [T] = []
            try elements(of: &self, from: true, until: nil, element, into: &values)
            return values
        }
        return try withoutActuallyEscaping(element) { element throws(Declined) in
            let halves = Halves(first: self, second: ModelReader(json.resumed(at: middle)), middle: middle, element: element)
            DispatchQueue.concurrentPerform(iterations: 2) { half in halves.read(half) }
            guard !halves.firstDeclined, !halves.secondDeclined else { throw Declined() }
            json = halves.second.json
            return halves.firstValues + halves.secondValues
        }
    }

    /// Where the first element that starts past the middle of what is left
    /// begins (as `nextElement` leaves the reader before it); nil when the
    /// array ends first or cannot be stepped over.
    private func middleElement() -> Int? {
        var probe = json
        let middle = probe.position + (probe.count - probe.position) / 2
        var first = true
        do throws(Declined) {
            while try probe.nextElement(&first) {
                if probe.position >= middle { return probe.position }
                try probe.skipValue()
            }
        } catch {
            return nil
        }
        return nil
    }
}

/// Reads elements with `element` into `values` until the array ends, or
/// until the element at `stop` (which it leaves unread).
private func elements<T>(
    of reader: inout ModelReader, from first: Bool, until stop: Int?,
    _ element: (inout ModelReader) throws(JSONBytes.Declined) -> T?, into values: inout [T]
) throws(JSONBytes.Declined) {
    var first = first
    while try reader.nextElement(&first) {
        if reader.json.position == stop { return }
        if let value = try element(&reader) { values.append(value) }
    }
}

/// The two halves' readers and values; each thread touches only its own
/// half's (`concurrentPerform` returns after both), hence unchecked.
private final class Halves<T>: @unchecked Sendable {
    var first: ModelReader
    var second: ModelReader
    var firstValues: [T] = []
    var secondValues: [T] = []
    var firstDeclined = false
    var secondDeclined = false
    let middle: Int
    let element: (inout ModelReader) throws(JSONBytes.Declined) -> T?

    init(first: ModelReader, second: ModelReader, middle: Int,
         element: @escaping (inout ModelReader) throws(JSONBytes.Declined) -> T?) {
        self.first = first
        self.second = second
        self.middle = middle
        self.element = element
    }

    func read(_ half: Int) {
        do throws(JSONBytes.Declined) {
            if half == 0 {
                try elements(of: &first, from: true, until: middle, element, into: &firstValues)
            } else {
                // The middle element is read as the first of its half.
                if let value = try element(&second) { secondValues.append(value) }
                try elements(of: &second, from: false, until: nil, element, into: &secondValues)
            }
        } catch {
            if half == 0 { firstDeclined = true } else { secondDeclined = true }
        }
    }
}
