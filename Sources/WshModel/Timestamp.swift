import FoundationEssentials
import WshText

/// A time: an instant, and the UTC offset the server wrote it with.
///
/// Every API's times become this one type, each read from its own text in
/// its own folder (Weibo/WeiboTimeFormat.swift, Mastodon/MastodonWireFormat.swift).
/// The offset is kept so `--json` gives back the server's own text; the
/// terminal shows the instant in the local zone.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The instant.
    public var date: Date
    /// Seconds east of UTC, as the server wrote it (`+0800` is 28 800).
    public var utcOffset: Int

    /// A time at `date`, written with `utcOffset` seconds east of UTC.
    public init(date: Date, utcOffset: Int) {
        self.date = date
        self.utcOffset = utcOffset
    }

    /// The wall-clock fields of this time in its own offset.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let (days, secondsOfDay) = CivilTime.split(Int(date.timeIntervalSince1970.rounded(.down)) + utcOffset)
        let (y, m, d) = CivilTime.date(days: days)
        return (y, m, d, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60, CivilTime.weekday(days: days))
    }

    /// Weibo's text form (`weiboText`), as Weibo's `Codable` writes it
    /// (see WshModel/Weibo/WeiboTimeFormat.swift).
    public var description: String { weiboText }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.date < rhs.date }
}
