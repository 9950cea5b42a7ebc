import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Dates without Foundation's calendars and formatters (which live in the
/// ICU-backed part of Foundation): the proleptic Gregorian calendar by
/// arithmetic, and the local time zone from the C library, which reads `TZ`
/// and the system's zone files as every other program on the machine does.
public enum CivilTime {
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Days since 1970-01-01 of a date (Howard Hinnant's days-from-civil).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The year, month and day `days` after 1970-01-01.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `seconds` since 1970 as whole days since then and the second of that day (0 to 86 399).
    public static func split(_ seconds: Int) -> (days: Int, secondOfDay: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, seconds - days * 86_400)
    }

    /// The weekday of a day since 1970, 0 for Sunday (1970-01-01 was a Thursday).
    public static func weekday(days: Int) -> Int {
        ((days % 7) + 11) % 7
    }

    /// `2025-06-01 12:00` of `moment` in `zone`.
    public static func minuteText(_ moment: Date, in zone: ClockZone = .utc) -> String {
        let (days, second) = split(Int(moment.timeIntervalSince1970.rounded(.down)) + zone.utcOffset(at: moment))
        let (year, month, day) = date(days: days)
        return "\(year)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second % 3600 / 60))"
    }

    /// `seconds` since 1970 as an HTTP date (RFC 9110's IMF-fixdate), e.g.
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func httpDateText(secondsSince1970 seconds: Int) -> String {
        let (days, secondOfDay) = split(seconds)
        let (year, month, day) = date(days: days)
        return "\(weekdayNames[weekday(days: days)]), \(two(day)) \(monthNames[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// An HTTP date (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
    public static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" || parts[5] == "UTC",
              let day = Int(parts[1]), let monthIndex = monthNames.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let total = days(year: year, month: monthIndex + 1, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(total))
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
}

/// A time zone wsh reads clock times in: the machine's local zone (`TZ`
/// honoured, daylight saving included) or a fixed offset from UTC.
public struct ClockZone: Sendable {
    private let fixedOffset: Int?

    /// The local zone, as the C library sees it.
    public static let local = ClockZone(fixedOffset: nil)
    public static let utc = ClockZone(fixedOffset: 0)
    /// The zone the terminal shows times in: `local`, unless a caller (a test) binds another.
    @TaskLocal public static var shown = ClockZone.local
    /// `seconds` east of UTC all year.
    public static func fixed(_ seconds: Int) -> ClockZone { ClockZone(fixedOffset: seconds) }

    /// Seconds east of UTC at `date`.
    public func utcOffset(at date: Date) -> Int {
        if let fixedOffset { return fixedOffset }
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// The first `hour:minute` after `now` in this zone: today's, or tomorrow's once today's has passed.
    public func next(hour: Int, minute: Int, after now: Date) -> Date {
        if let fixedOffset {
            let local = Int(now.timeIntervalSince1970.rounded(.down)) + fixedOffset
            let midnight = local - ((local % 86_400) + 86_400) % 86_400
            var target = midnight + hour * 3600 + minute * 60 - fixedOffset
            if TimeInterval(target) <= now.timeIntervalSince1970 { target += 86_400 }
            return Date(timeIntervalSince1970: TimeInterval(target))
        }
        var time = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        guard localtime_r(&time, &parts) != nil else { return ClockZone.utc.next(hour: hour, minute: minute, after: now) }
        for extraDay in 0...1 {
            var wanted = parts
            wanted.tm_hour = Int32(hour)
            wanted.tm_min = Int32(minute)
            wanted.tm_sec = 0
            wanted.tm_mday += Int32(extraDay)
            wanted.tm_isdst = -1
            let target = mktime(&wanted)
            if target != -1, TimeInterval(target) > now.timeIntervalSince1970 {
                return Date(timeIntervalSince1970: TimeInterval(target))
            }
        }
        return now.addingTimeInterval(86_400)
    }
}
