/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood's
/// SplitMix64).
///
/// No data or response of the sandbox comes from `SystemRandomNumberGenerator`:
/// the same seed must give byte-identical responses on every machine and every
/// run. (Only the admin token is drawn from it, and no response holds that.)
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator for one item of a data set, independent of how many items
    /// came before it, so changing `--statuses` does not reshuffle users.
    init(seed: UInt64, stream: UInt64, index: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        let base = mixer.next()
        self.init(seed: base ^ (index &* 0xD1B5_4A32_D192_ED03))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in `range`; `Int.random(in:using:)` would do, but its
    /// algorithm is not promised to stay the same across Swift releases.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// An index into a collection of `count` elements.
    mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[index(items.count)]
    }

    /// True with probability `p` (0...1).
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// A double in 0..<1 from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
