/// `trace diagram FILE` → `FILE.mmd`: a `TraceDiagram` as Mermaid text for
/// slides, every layer a participant in the order of the layers.
struct TraceMermaidView {
    func render(_ diagram: TraceDiagram) -> String {
        let layers = diagram.lifelines
        var lines = ["sequenceDiagram"]
        lines += layers.map { "    participant \($0.rawValue)" }
        for step in diagram.steps {
            switch step {
            case .message(let from, let to, let text, let answer):
                lines.append("    \(from.rawValue)\(answer ? "-->>" : "->>")\(to.rawValue): \(Self.escape(text))")
            case .note(let layer, let text):
                lines.append("    Note over \(layer.rawValue): \(Self.escape(text))")
            case .banner(let text):
                lines.append("    Note over \(layers.first!.rawValue),\(layers.last!.rawValue): \(Self.escape(text))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid reads `;` as a statement end and `#…;` as an entity: write both as entities.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            default: out.append(character)
            }
        }
        return out
    }
}
