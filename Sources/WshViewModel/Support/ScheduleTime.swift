import FoundationEssentials
import WshText
import WshModel

/// Reads the TIME of `post --at TIME`: ISO 8601 (`2024-11-11T21:30:00+08:00`),
/// relative (`+30m`, `+1h`, `+2d`), or `HH:MM` (today, or tomorrow once that
/// time has passed, in `timeZone`); and checks it is at least 5 minutes
/// ahead, as Mastodon requires.
public enum ScheduleTime {
    /// How far ahead a status must be scheduled (Mastodon's rule).
    public static let minimumLead: TimeInterval = 5 * 60

    /// The moment `word` names, seen from `now`.
    public static func parse(_ word: String, now: Date, timeZone: ClockZone = .local) throws(ViewModelError) -> Timestamp {
        let text = word.trimmingSpaces
        let date: Date
        if let relative = relativeSeconds(text) {
            date = now.addingTimeInterval(relative)
        } else if let clock = clockTime(text, now: now, timeZone: timeZone) {
            date = clock
        } else if text.contains("T") || text.contains("-"), let time = Timestamp(iso8601: text) {
            date = time.date
        } else {
            throw .badScheduleTime("--at: cannot read '\(word)' as a time: give +30m, +1h, +2d, HH:MM, or ISO 8601 such as 2024-11-11T21:30:00+08:00")
        }
        let lead = date.timeIntervalSince(now)
        guard lead >= minimumLead else {
            let minutes = Int((lead / 60).rounded(.down))
            let when = lead < 0 ? "\(-minutes) minute\(-minutes == 1 ? "" : "s") ago" : "in \(minutes) minute\(minutes == 1 ? "" : "s")"
            throw .badScheduleTime("--at \(word) is \(when): a status must be scheduled at least 5 minutes ahead")
        }
        return Timestamp(date: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)), utcOffset: timeZone.utcOffset(at: date))
    }

    /// `+90s`, `+30m`, `+1h`, `+2d` in seconds; nil when `text` is not one.
    private static func relativeSeconds(_ text: String) -> TimeInterval? {
        guard text.hasPrefix("+"), let unit = text.last, let amount = Int(text.dropFirst().dropLast()), amount >= 0 else { return nil }
        switch unit {
        case "s": return TimeInterval(amount)
        case "m": return TimeInterval(amount) * 60
        case "h": return TimeInterval(amount) * 3600
        case "d": return TimeInterval(amount) * 86_400
        default: return nil
        }
    }

    /// `HH:MM` today in `timeZone`, or tomorrow when that is not ahead of `now`.
    private static func clockTime(_ text: String, now: Date, timeZone: ClockZone) -> Date? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return timeZone.next(hour: hour, minute: minute, after: now)
    }
}
