import FoundationEssentials
import WshText

extension Timestamp {
    /// Parses an ISO 8601 / RFC 3339 time as Mastodon writes it
    /// (`2024-11-06T07:08:38.000Z`, `2024-11-06T07:08:38+09:00`, or a date
    /// alone); nil when the text is not in that form. The offset is kept.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 0x2D, let month = number(5, 2),
              bytes[7] == 0x2D, let day = number(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0, fraction = 0.0, offset = 0
        var index = 10
        if index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20 {
            guard let h = number(11, 2), bytes.count > 13, bytes[13] == 0x3A, let m = number(14, 2),
                  (0...23).contains(h), (0...59).contains(m) else { return nil }
            (hour, minute) = (h, m)
            index = 16
            if index < bytes.count, bytes[index] == 0x3A {
                guard let s = number(17, 2), (0...60).contains(s) else { return nil }
                second = s
                index = 19
            }
            if index < bytes.count, bytes[index] == 0x2E {
                var digits = 0
                var scale = 0.1
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
            }
            if index < bytes.count {
                switch bytes[index] {
                case 0x5A, 0x7A:
                    index += 1
                case 0x2B, 0x2D:
                    let sign = bytes[index] == 0x2D ? -1 : 1
                    guard let oh = number(index + 1, 2) else { return nil }
                    var om = 0
                    if index + 3 < bytes.count, bytes[index + 3] == 0x3A {
                        guard let value = number(index + 4, 2) else { return nil }
                        om = value
                        index += 6
                    } else if let value = number(index + 3, 2) {
                        om = value
                        index += 5
                    } else {
                        index += 3
                    }
                    offset = sign * (oh * 3600 + om * 60)
                default:
                    return nil
                }
            }
        }
        guard index == bytes.count else { return nil }
        let days = CivilTime.days(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        self.init(date: Date(timeIntervalSince1970: local - Double(offset)), utcOffset: offset)
    }
}

extension Timestamp {
    /// The time in ISO 8601 as Mastodon writes it, in UTC with milliseconds:
    /// `2024-11-06T07:08:38.000Z`.
    public var iso8601Text: String {
        let utc = Timestamp(date: date, utcOffset: 0).components
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        if (0...9999).contains(utc.year) {
            return ASCIIFields.text(capacity: 24) { text in
                text.number(utc.year, width: 4)
                text.byte(UInt8(ascii: "-"))
                text.number(utc.month, width: 2)
                text.byte(UInt8(ascii: "-"))
                text.number(utc.day, width: 2)
                text.byte(UInt8(ascii: "T"))
                text.clock(utc.hour, utc.minute, utc.second)
                text.byte(UInt8(ascii: "."))
                text.number((milliseconds + 1000) % 1000, width: 3)
                text.byte(UInt8(ascii: "Z"))
            }
        }
        func pad(_ n: Int, _ width: Int = 2) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(utc.year, 4))-\(pad(utc.month))-\(pad(utc.day))T\(pad(utc.hour)):\(pad(utc.minute)):\(pad(utc.second))"
            + ".\(pad((milliseconds + 1000) % 1000, 3))Z"
    }
}

/// A Mastodon time field: its text read by `Timestamp(iso8601:)`; nil when
/// the field is absent, null, not text or not in that form.
@propertyWrapper
public struct LenientISO8601: LenientField, Sendable, Hashable {
    public var wrappedValue: Timestamp?

    public init(wrappedValue: Timestamp?) {
        self.wrappedValue = wrappedValue
    }

    public init<K>(_ container: KeyedDecodingContainer<K>, _ key: K) {
        wrappedValue = container.lenient(String.self, key).flatMap(Timestamp.init(iso8601:))
    }

    /// Outside an object (never in the Model): the text, if it is one.
    public init(from decoder: Decoder) throws {
        wrappedValue = (try? decoder.singleValueContainer().decode(String.self)).flatMap(Timestamp.init(iso8601:))
    }
}
