/// Plain text from the small pieces of HTML an API sends in text fields,
/// such as Weibo's `source` (`<a href="…" rel="nofollow">iPhone客户端</a>`).
///
/// Tags are dropped and character references decoded; the result is not yet
/// safe for a terminal (a decoded `&#27;` is an ESC), so callers pass it
/// through `TerminalText.sanitize`, as they do all server text.
public enum HTMLText {
    /// The text of `html` without its tags, entities decoded, whitespace
    /// trimmed. `<br>` and the end of a block (`</p>`, `</div>`, `</h1>`,
    /// `</title>`, …) become line breaks; `<script>`, `<style>`, comments and
    /// `<span class="invisible">` (Mastodon's hidden part of a link) are
    /// dropped with their content; `<span class="ellipsis">` (the visible
    /// part of a link Mastodon shortens) is followed by "…". A `<` that
    /// cannot start a tag (`a < b`, `<3`) is text.
    public static func plainText(_ html: String) -> String {
        guard html.contains("<") || html.contains("&") else { return trimmed(html) }
        var text = ""
        var rest = Substring(html)
        // For each open `<span>`, whether it is an ellipsis span.
        var spans: [Bool] = []
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let first = rest[afterOpen...].first, (first.isASCII && first.isLetter) || first == "/" || first == "!" || first == "?" else {
                text += "<"                           // not a tag: the character itself
                rest = rest[afterOpen...]
                continue
            }
            if rest[afterOpen...].hasPrefix("!--") {
                // A comment ends at `-->`, whatever `>` it holds.
                let body = rest[rest.index(afterOpen, offsetBy: 3)...]
                rest = body.firstRange(of: "-->").map { body[$0.upperBound...] } ?? body[body.endIndex...]
                continue
            }
            guard let close = rest[open...].firstIndex(of: ">") else {
                rest = rest[rest.endIndex...]        // an unclosed tag: the rest is markup
                break
            }
            let tag = Tag(rest[afterOpen..<close])
            rest = rest[rest.index(after: close)...]
            if tag.name == "span", !tag.isInvisible {
                if !tag.isClosing {
                    spans.append(tag.isEllipsis)
                } else if let ellipsis = spans.popLast(), ellipsis {
                    text += "…"
                }
            }
            if !tag.isClosing, tag.name == "script" || tag.name == "style" || (tag.name == "span" && tag.isInvisible) {
                // Skip to the matching end tag, or to the end.
                let end = "</" + tag.name
                if let range = rest.firstRange(of: end) {
                    rest = rest[range.upperBound...]
                    if let close = rest.firstIndex(of: ">") { rest = rest[rest.index(after: close)...] }
                } else {
                    rest = rest[rest.endIndex...]
                }
            } else if tag.breaksLine {
                text += "\n"
            }
        }
        text += rest
        return trimmed(decodingEntities(text))
    }

    /// The name of a tag and whether it ends an element.
    private struct Tag {
        var name: String
        var isClosing: Bool
        /// `class="invisible"`: Mastodon hides a link's scheme and tail in such spans.
        var isInvisible: Bool
        /// `class="ellipsis"`: the part of a long link Mastodon shows, then "…".
        var isEllipsis: Bool

        init(_ inside: Substring) {
            var body = inside
            isClosing = body.first == "/"
            if isClosing { body = body.dropFirst() }
            name = String(body.prefix { $0.isLetter || $0.isNumber }).lowercased()
            let classes = Self.classes(in: body)
            isInvisible = classes.contains("invisible")
            isEllipsis = classes.contains("ellipsis")
        }

        /// The names in the tag's `class` attribute, quoted or not.
        private static func classes(in body: Substring) -> [Substring] {
            // The first `class=`, found character by character: `firstRange(of:)`
            // would build a search table for each tag of every status shown.
            var search = body
            var found: Substring.Index?
            while let c = search.firstIndex(of: "c") {
                if search[c...].starts(with: "class=") { found = c; break }
                search = search[search.index(after: c)...]
            }
            guard let start = found else { return [] }
            var value = body[body.index(start, offsetBy: 6)...]
            if let quote = value.first, quote == "\"" || quote == "'" {
                value = value.dropFirst()
                value = value.prefix { $0 != quote }
            } else {
                value = value.prefix { !$0.isWhitespace && $0 != "/" }
            }
            return value.split(whereSeparator: \.isWhitespace)
        }

        private static let blocks: Set<String> = [
            "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "title", "center", "pre",
            "blockquote", "ul", "ol", "table", "body", "head", "html", "section", "article", "header", "footer",
        ]

        var breaksLine: Bool {
            name == "br" || name == "hr" || (isClosing && Self.blocks.contains(name))
        }
    }

    /// `text` with `& < > " '` as character entities, `'` as `&#39;` as
    /// Mastodon writes it: the sandbox's pages and the HTML of `content`.
    public static func escaped(_ text: String) -> String {
        XMLText.escaped(text, apostrophe: "&#39;")
    }

    /// `text` with `&amp;`, `&lt;`, `&#39;`, `&#x1F600;` and the like decoded;
    /// an unknown or malformed reference stays as it was.
    public static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                  let decoded = decode(rest[afterAmpersand..<semicolon])
            else {
                output += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            output.unicodeScalars.append(decoded)
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }

    private static let named: [Substring: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "middot": "·", "bull": "•", "copy": "©", "reg": "®", "trade": "™",
        "shy": "\u{AD}", "zwj": "\u{200D}", "zwnj": "\u{200C}",
    ]

    private static func decode(_ name: Substring) -> Unicode.Scalar? {
        if let scalar = named[name] { return scalar }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        return value.flatMap(Unicode.Scalar.init)
    }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
