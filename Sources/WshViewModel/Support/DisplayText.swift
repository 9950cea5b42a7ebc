import Foundation
import WshModel

/// Turns Model values into the strings Views show. Pure functions, so every
/// ViewModel formats the same way.
enum DisplayText {
    /// `05-31 17:46`: month-day hour:minute in the time's own UTC offset, as
    /// the Weibo demo's timeline shows it.
    static func shortTime(_ time: WeiboTime?) -> String {
        guard let c = time?.components else { return "" }
        return "\(pad(c.month))-\(pad(c.day)) \(pad(c.hour)):\(pad(c.minute))"
    }

    /// `2011-05-31 17:46:55 +0800`, for a detail screen.
    static func fullTime(_ time: WeiboTime?) -> String {
        guard let time else { return "" }
        let c = time.components
        let offset = abs(time.utcOffset)
        let sign = time.utcOffset < 0 ? "-" : "+"
        return "\(c.year)-\(pad(c.month))-\(pad(c.day)) \(pad(c.hour)):\(pad(c.minute)):\(pad(c.second)) "
            + "\(sign)\(pad(offset / 3600))\(pad(offset % 3600 / 60))"
    }

    /// `@name`, or `(unknown)` when the API sent no author.
    static func author(_ user: User?) -> String {
        if let name = user?.screenName ?? user?.name, !name.isEmpty { return "@\(name)" }
        if let uid = user?.identifier { return "uid \(uid)" }
        return "(unknown)"
    }

    /// Text with control characters removed, so API text cannot drive the
    /// terminal; newlines and tabs survive unless `singleLine`.
    static func clean(_ text: String?, singleLine: Bool = false) -> String {
        guard let text, !text.isEmpty else { return "" }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x09 {
                scalars.append(singleLine ? " " : scalar)
            } else if value == 0x0D {
                if singleLine { scalars.append(" ") }
            } else if value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value) {
                continue
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The app name inside Weibo's `source` anchor: `<a href="…">Weibo Web</a>` is `Weibo Web`.
    static func sourceName(_ html: String?) -> String {
        guard let html else { return "" }
        var text = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">": inTag = false
            default: if !inTag { text.append(character) }
            }
        }
        let entities = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")]
        for (entity, character) in entities {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return clean(text, singleLine: true).trimmingCharacters(in: .whitespaces)
    }

    /// `1 comment`, `3 comments`; `plural` for nouns that take more than an `s`.
    static func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
