import FoundationEssentials
import WshText

/// A time as an API wrote it: the instant and the UTC offset it was written with.
///
/// Every API's times become this one type. Weibo writes times as
/// `Tue May 31 17:46:55 +0800 2011` (`EEE MMM dd HH:mm:ss Z yyyy`, English
/// names whatever the locale); Mastodon writes ISO 8601. The offset is kept
/// so a client can show the time as the service wrote it, and so encoding
/// gives back the same text.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The instant.
    public var date: Date
    /// Seconds east of UTC, as written in the text (`+0800` is 28 800).
    public var utcOffset: Int

    /// A time at `date`, shown with `utcOffset` seconds east of UTC.
    public init(date: Date, utcOffset: Int = 8 * 3600) {
        self.date = date
        self.utcOffset = utcOffset
    }

    /// The wall-clock fields of this time in its own offset.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let (days, secondsOfDay) = CivilTime.split(Int(date.timeIntervalSince1970.rounded(.down)) + utcOffset)
        let (y, m, d) = CivilTime.date(days: days)
        return (y, m, d, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60, CivilTime.weekday(days: days))
    }

    /// Weibo's text form (`weiboText`), as the Model's `Codable` writes it
    /// (see WshModel/Weibo/WeiboTimeFormat.swift).
    public var description: String { weiboText }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.date < rhs.date }
}
