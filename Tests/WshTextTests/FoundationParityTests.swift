import Foundation
import Testing
import WshText

/// wsh's binaries link FoundationEssentials only; what they used of full
/// Foundation is written in WshText. Each piece is checked here against full
/// Foundation itself (which the tests still link) over many inputs, so the
/// output a user sees did not change when Foundation left.
@Suite("Foundation's behaviour, without Foundation")
struct FoundationParityTests {
    /// The same pseudo-random inputs on every run.
    private struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let pieces = ["a", "Z", "9", " ", "\t", "\n", "\r\n", "\u{3000}", "\u{A0}", "\u{2028}", "%", "%2", "%20",
                                 "%41", "%e6%97%a9", "%E6", "%zz", "+", "-", "~", "é", "早", "👩‍👩‍👧", "\"", "&", "="]

    private func samples(_ count: Int, seed: UInt64) -> [String] {
        var generator = Seeded(state: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
        }
    }

    @Test("trimming spaces and white space as CharacterSet.whitespaces and .whitespacesAndNewlines do")
    func trimming() {
        for text in samples(3000, seed: 1) {
            #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(text.trimming("\"") == text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), "\(text.debugDescription)")
        }
    }

    @Test("percent-decoding as removingPercentEncoding, encoding as addingPercentEncoding with the unreserved set")
    func percentEncoding() {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        for text in samples(3000, seed: 2) {
            #expect(PercentEncoding.decoded(text) == text.removingPercentEncoding, "\(text.debugDescription)")
            #expect(PercentEncoding.encoded(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text.debugDescription)")
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            #expect(PercentEncoding.formDecoded(text) == spaced.removingPercentEncoding ?? spaced, "\(text.debugDescription)")
        }
    }

    @Test("fixed decimals as String(format: \"%.Nf\"), hex bytes as %02x")
    func decimals() {
        var generator = Seeded(state: 3)
        let chosen: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 1.005, 2.5, -2.5, 999.95, 1e-7, 123_456.789, 1024, -0.04]
        let random = (0..<3000).map { _ in Double.random(in: -100_000...100_000, using: &generator) }
        for value in chosen + random {
            for digits in [0, 1, 3] {
                #expect(Decimals.fixed(value, digits) == String(format: "%.\(digits)f", value), "\(value) \(digits)")
            }
        }
        for byte in UInt8.min...UInt8.max { #expect(Decimals.hex(byte) == String(format: "%02x", byte)) }
    }

    @Test("HTTP dates read and written as DateFormatter does, over four centuries")
    func httpDates() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = Seeded(state: 4)
        for _ in 0..<2000 {
            let seconds = Int.random(in: -2_000_000_000...8_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = formatter.string(from: date)
            #expect(CivilTime.httpDateText(secondsSince1970: seconds) == text)
            #expect(CivilTime.httpDate(text) == date, "\(text)")
        }
        #expect(CivilTime.httpDate("Sun, 06 Nov 1994 08:49:37 PST") == nil)
        #expect(CivilTime.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }

    @Test("the UTC minute of an expiry as DateFormatter's yyyy-MM-dd HH:mm")
    func minuteText() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var generator = Seeded(state: 5)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -1e9...5e9, using: &generator))
            #expect(CivilTime.minuteText(date) == formatter.string(from: date))
        }
    }

    @Test("a fixed zone's next HH:MM and offset as Calendar computes them")
    func fixedZones() {
        var generator = Seeded(state: 6)
        for _ in 0..<500 {
            let offset = Int.random(in: -12...14, using: &generator) * 3600 + [0, 1800, 2700].randomElement(using: &generator)!
            let now = Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &generator).rounded())
            let (hour, minute) = (Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: offset)!
            let today = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now)!
            let expected = today > now ? today : calendar.date(byAdding: .day, value: 1, to: today)!
            #expect(ClockZone.fixed(offset).next(hour: hour, minute: minute, after: now) == expected)
            #expect(ClockZone.fixed(offset).utcOffset(at: now) == offset)
        }
    }

    @Test("JSON values read and written back as JSONSerialization reads them")
    func jsonValues() throws {
        let documents = [#"{"a":[1,-2.5,true,null,"x\u00e9\/"],"b":{"c":9007199254740993}}"#, "[]", "{}", "\"top\"", "12", "null",
                         #"{"esc\"aped":"\ud83d\ude00"}"#]
        for document in documents {
            let value = try #require(JSONValue.parse(Data(document.utf8)), "\(document)")
            let ours = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: value.encoded(), options: .fragmentsAllowed),
                                                  options: [.sortedKeys, .fragmentsAllowed])
            let theirs = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(document.utf8), options: .fragmentsAllowed),
                                                    options: [.sortedKeys, .fragmentsAllowed])
            #expect(ours == theirs, "\(document)")
        }
        #expect(JSONValue.parse(Data(#"{"b":{"c":9007199254740993}}"#.utf8))?["b"]?["c"] == .integer(9_007_199_254_740_993))
        // (A trailing comma in an array, `[1,]`, is accepted by both, JSONSerialization as much as JSONDecoder.)
        for broken in ["{", "[1 2]", "{'a':1}", "tru", "", "01"] { #expect(JSONValue.parse(Data(broken.utf8)) == nil, "\(broken)") }
    }
}
