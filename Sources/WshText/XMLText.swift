/// Text safe inside an XML element or attribute: what wsh writes as XML
/// (the JUnit report of `wsh --test`, the SVG of `trace diagram`).
public enum XMLText {
    /// `text` with `& < > " '` as character entities; `'` as `apostrophe`
    /// (`&apos;` in XML, `&#39;` in HTML, as `HTMLText` writes it).
    public static func escaped(_ text: String, apostrophe: String = "&apos;") -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var entities = Self.entities
        entities["'"] = apostrophe
        return text.escaped(with: entities)
    }

    static let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"]
}
