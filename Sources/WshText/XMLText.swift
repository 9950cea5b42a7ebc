/// Text safe inside an XML element or attribute: what wsh writes as XML
/// (the JUnit report of `wsh --test`, the SVG of `trace diagram`).
public enum XMLText {
    /// `text` with `& < > " '` as character entities; `'` as `apostrophe`
    /// (`&apos;` in XML, `&#39;` in HTML, as `HTMLText` writes it).
    public static func escaped(_ text: String, apostrophe: String = "&apos;") -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += apostrophe
            default: out.append(character)
            }
        }
        return out
    }
}
