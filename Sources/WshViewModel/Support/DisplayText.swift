import FoundationEssentials
import WshModel
import WshText

/// Turns Model values into the strings Views show. Pure functions, so every
/// ViewModel formats the same way.
enum DisplayText {
    /// `05-31 17:46`: month-day hour:minute in the zone the terminal shows times in (`ClockZone.shown`).
    static func shortTime(_ time: Timestamp?) -> String {
        guard let c = time.map(shown)?.components else { return "" }
        return "\(pad(c.month))-\(pad(c.day)) \(pad(c.hour)):\(pad(c.minute))"
    }

    /// `2011-05-31 17:46:55 +0800`, for a detail screen: in the zone times are shown in, with its offset.
    static func fullTime(_ time: Timestamp?) -> String {
        guard let time = time.map(shown) else { return "" }
        let c = time.components
        let offset = abs(time.utcOffset)
        return "\(c.year)-\(pad(c.month))-\(pad(c.day)) \(pad(c.hour)):\(pad(c.minute)):\(pad(c.second)) "
            + "\(time.utcOffset < 0 ? "-" : "+")\(pad(offset / 3600))\(pad(offset % 3600 / 60))"
    }

    /// The instant of `time` in the zone the terminal shows times in: the local one, `TZ` honoured.
    private static func shown(_ time: Timestamp) -> Timestamp {
        Timestamp(date: time.date, utcOffset: ClockZone.shown.utcOffset(at: time.date))
    }

    /// `@name`, or `(unknown)` when the API sent no author.
    static func author(_ user: User?) -> String {
        if let name = user?.screenName ?? user?.name, !name.isEmpty { return "@" + TerminalText.sanitize(name) }
        if let uid = user?.identifier { return "uid " + TerminalText.sanitize(uid) }
        return "(unknown)"
    }

    /// The app name inside Weibo's `source` anchor: `<a href="…">Weibo Web</a>` is `Weibo Web`.
    static func sourceName(_ html: String?) -> String {
        guard let html else { return "" }
        return TerminalText.sanitize(HTMLText.plainText(html))
    }

    /// A row's one line: the text, or the content warning that hides it; a
    /// boost says who boosted and shows the boosted status's line.
    static func rowText(_ status: Status) -> String {
        if status.isBoost, let boosted = status.retweetedStatus {
            // A filter's `warn` on the boost covers what it boosts.
            if let title = status.filterWarning, boosted.filterWarning == nil {
                return "↻ \(author(status.user)) boosted · Filtered: " + TerminalText.sanitize(title)
            }
            return "↻ \(author(status.user)) boosted · " + rowText(boosted)
        }
        // A filter's `warn` shows its title in place of the text until `detail` opens it.
        if let title = status.filterWarning { return "Filtered: " + TerminalText.sanitize(title) }
        if let warning = status.contentWarning {
            return "CW: " + TerminalText.sanitize(warning)
        }
        return TerminalText.sanitize(status.text)
    }

    /// `1 comment`, `3 comments`; `plural` for nouns that take more than an `s`.
    static func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
