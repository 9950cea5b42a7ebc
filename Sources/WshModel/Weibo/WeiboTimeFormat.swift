import FoundationEssentials
import WshText

/// Weibo's text form of a time, `Tue May 31 17:46:55 +0800 2011`
/// (`EEE MMM dd HH:mm:ss Z yyyy`, English names whatever the locale):
/// Weibo's own format, kept beside Weibo's code as ISO 8601 is beside Mastodon's.
extension Timestamp {
    /// Parses Weibo's `EEE MMM dd HH:mm:ss Z yyyy`; nil when the text is not in that form.
    public init?(weiboText text: String) {
        // Fields are split on spaces: weekday, month, day, time, offset, year.
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 6,
              let month = Self.months.firstIndex(of: String(fields[1])).map({ $0 + 1 }),
              let day = Int(fields[2]), (1...31).contains(day),
              let year = Int(fields[5]), (1...9999).contains(year)
        else { return nil }
        let clock = fields[3].split(separator: ":")
        guard clock.count == 3,
              let hour = Int(clock[0]), (0...23).contains(hour),
              let minute = Int(clock[1]), (0...59).contains(minute),
              let second = Int(clock[2]), (0...60).contains(second)
        else { return nil }
        let zone = Array(fields[4].utf8)
        guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
              let hh = Int(String(fields[4].dropFirst().prefix(2))),
              let mm = Int(String(fields[4].suffix(2)))
        else { return nil }
        let offset = (hh * 3600 + mm * 60) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        let days = CivilTime.days(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        self.init(date: Date(timeIntervalSince1970: TimeInterval(local - offset)), utcOffset: offset)
    }

    /// Reads the form Weibo always writes, `Tue May 31 17:46:55 +0800 2011`,
    /// from its UTF-8 bytes, with the fields and ranges `init(weiboText:)`
    /// checks and the same result; nil for any other text (which
    /// `init(weiboText:)` then reads, or rejects).
    init?(canonicalWeiboBytes b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 30, b[3] == 0x20, b[7] == 0x20, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              b[19] == 0x20, b[25] == 0x20, b[20] == UInt8(ascii: "+") || b[20] == UInt8(ascii: "-")
        else { return nil }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        guard isLetter(b[0]), isLetter(b[1]), isLetter(b[2]) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                let digit = b[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        let month = Self.month(b[4], b[5], b[6])
        guard month > 0,
              let day = number(8, 2), (1...31).contains(day),
              let hour = number(11, 2), (0...23).contains(hour),
              let minute = number(14, 2), (0...59).contains(minute),
              let second = number(17, 2), (0...60).contains(second),
              let hh = number(21, 2), let mm = number(23, 2),
              let year = number(26, 4), (1...9999).contains(year)
        else { return nil }
        let offset = (hh * 3600 + mm * 60) * (b[20] == UInt8(ascii: "-") ? -1 : 1)
        let days = CivilTime.days(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        self.init(date: Date(timeIntervalSince1970: TimeInterval(local - offset)), utcOffset: offset)
    }

    /// The month (1…12) whose English abbreviation is these three bytes, 0 for none.
    private static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        monthKeys.firstIndex(of: monthKey(a, b, c)).map { $0 + 1 } ?? 0
    }

    /// Three bytes as one number, to compare at once.
    private static func monthKey(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// `months`' abbreviations as `monthKey`s, in order.
    private static let monthKeys: [UInt32] = months.map { name in
        let bytes = Array(name.utf8)
        return monthKey(bytes[0], bytes[1], bytes[2])
    }

    /// The time in Weibo's text form, e.g. `Tue May 31 17:46:55 +0800 2011`.
    public var weiboText: String {
        let c = components
        let offset = abs(utcOffset)
        // 30 bytes for a year of four digits; a year of five digits makes 31.
        guard (0...99_999).contains(c.year), offset < 100 * 3600 else { return interpolatedWeiboText }
        return ASCIIFields.text(capacity: 31) { text in
            text.text(Self.weekdays[c.weekday])
            text.byte(UInt8(ascii: " "))
            text.text(Self.months[c.month - 1])
            text.byte(UInt8(ascii: " "))
            text.number(c.day, width: 2)
            text.byte(UInt8(ascii: " "))
            text.clock(c.hour, c.minute, c.second)
            text.byte(UInt8(ascii: " "))
            text.byte(utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            text.number(offset / 3600, width: 2)
            text.number(offset % 3600 / 60, width: 2)
            text.byte(UInt8(ascii: " "))
            text.number(c.year)
        }
    }

    /// `weiboText` for any year and offset (a year before 0 or past 99 999 is written as it is).
    private var interpolatedWeiboText: String {
        let c = components
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset)
        return "\(Self.weekdays[c.weekday]) \(Self.months[c.month - 1]) \(pad(c.day)) "
            + "\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second)) "
            + "\(sign)\(pad(offset / 3600))\(pad(offset % 3600 / 60)) \(c.year)"
    }

    static let months = CivilTime.monthNames
    static let weekdays = CivilTime.weekdayNames
}

/// A time in Weibo's wire shapes (Status, User, Comment…) encodes and decodes
/// as Weibo writes it; Mastodon's entities read ISO 8601 through `LenientISO8601`.
extension Timestamp: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = Timestamp(weiboText: text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected a time like 'Tue May 31 17:46:55 +0800 2011', got '\(text)'"))
        }
        self = time
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(weiboText)
    }
}

private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
