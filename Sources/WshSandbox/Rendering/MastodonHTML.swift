import FoundationEssentials
import Glibc
import WshText

/// Turns a status's plain text into the HTML Mastodon 4.x puts in `content`:
/// paragraphs, `<br />` for line breaks, links with their invisible parts,
/// `h-card` mentions of known users, hashtag links, entities escaped.
struct MastodonHTML {
    /// `http://127.0.0.1:PORT`, the base of profile and tag links.
    let origin: String
    /// Whether a screen name is a user's (only those mentions become links).
    let isUser: (String) -> Bool

    func content(_ text: String) -> String {
        var html = "<p>"
        var pendingNewlines = 0
        for token in Hashtags.tokens(in: text) {
            if case .newline = token {
                pendingNewlines += 1
                continue
            }
            if pendingNewlines > 0 {
                // One break is a `<br />`; a blank line starts a paragraph, as Mastodon writes them.
                html += pendingNewlines >= 2 ? "</p><p>" : "<br />"
                pendingNewlines = 0
            }
            switch token {
            case .text(let plain): html += HTMLText.escaped(plain)
            case .newline: break
            case .link(let url): html += link(url)
            case .mention(let name):
                html += isUser(name)
                    ? "<span class=\"h-card\"><a href=\"\(profileURL(name))\" class=\"u-url mention\">@<span>\(HTMLText.escaped(name))</span></a></span>"
                    : "@" + HTMLText.escaped(name)
            case .hashtag(let name, _):
                html += "<a href=\"\(tagURL(name.lowercased()))\" class=\"mention hashtag\" rel=\"tag\">#<span>\(HTMLText.escaped(name))</span></a>"
            }
        }
        return html + "</p>"
    }

    /// A link as Mastodon shortens it: the scheme (and `www.`) invisible, at most
    /// 30 characters shown, the rest invisible behind an ellipsis.
    func link(_ url: String) -> String {
        var prefix = url.hasPrefix("https://") ? "https://" : "http://"
        var rest = String(url.dropFirst(prefix.count))
        if rest.hasPrefix("www.") {
            prefix += "www."
            rest.removeFirst(4)
        }
        let shown: String
        if rest.count > 30 {
            shown = "<span class=\"ellipsis\">\(HTMLText.escaped(String(rest.prefix(30))))</span>"
                + "<span class=\"invisible\">\(HTMLText.escaped(String(rest.dropFirst(30))))</span>"
        } else {
            shown = "<span class=\"\">\(HTMLText.escaped(rest))</span><span class=\"invisible\"></span>"
        }
        return "<a href=\"\(HTMLText.escaped(url))\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">"
            + "<span class=\"invisible\">\(prefix)</span>\(shown)</a>"
    }

    func profileURL(_ name: String) -> String { origin + "/@" + PercentEncoding.encoded(name) }
    func tagURL(_ name: String) -> String { origin + "/tags/" + PercentEncoding.encoded(name) }
}

/// `2024-11-06T07:08:38.000Z`: ISO 8601 in UTC with milliseconds, as Mastodon writes times.
func mastodonTime(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ n: Int32, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
        + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds % 1000), 3))Z"
}

/// `2024-11-11`: the UTC day, as Mastodon's `last_status_at`.
func mastodonDay(_ date: Date) -> String {
    String(mastodonTime(date).prefix(10))
}
