/// Text safe inside an XML element or attribute: what wsh writes as XML
/// (the JUnit report of `wsh --test`, the SVG of `trace diagram`).
public enum XMLText {
    /// `text` with `& < > " '` as character entities.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
