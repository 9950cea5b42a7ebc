import WshText

/// `trace diagram FILE` → `FILE.svg`: a `TraceDiagram` as a standalone SVG
/// a browser or a slide shows as it is — a lifeline per layer, named at its
/// top and bottom, an arrow per call, a note where a layer answered alone.
struct TraceSVGView {
    /// Pixels between two lifelines.
    static let column = 190
    /// Pixels from one step to the next.
    static let row = 34
    static let margin = 40
    static let header = 56
    /// The width of one character of the 12 px monospace labels, for placing them.
    static let characterWidth = 7.3

    func render(_ diagram: TraceDiagram) -> String {
        let layers = TraceDiagram.Layer.allCases
        let width = Self.margin * 2 + Self.column * (layers.count - 1) + 140
        let height = Self.header * 2 + Self.row * (diagram.steps.count + 1)
        func x(_ layer: TraceDiagram.Layer) -> Int {
            Self.margin + 70 + Self.column * layers.firstIndex(of: layer)!
        }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" \
            orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>
            <rect width="100%" height="100%" fill="#ffffff"/>

            """
        let bottom = height - Self.header
        for layer in layers {
            let x = x(layer)
            out += "<line x1=\"\(x)\" y1=\"\(Self.header - 8)\" x2=\"\(x)\" y2=\"\(bottom + 8)\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n"
            for y in [12, bottom + 8] {
                out += "<rect x=\"\(x - 70)\" y=\"\(y)\" width=\"140\" height=\"28\" rx=\"4\" fill=\"#e8eefc\" stroke=\"#3b5bdb\"/>\n"
                out += "<text x=\"\(x)\" y=\"\(y + 19)\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"14\">\(Self.escape(layer.rawValue))</text>\n"
            }
        }
        for (index, step) in diagram.steps.enumerated() {
            let y = Self.header + Self.row * (index + 1)
            switch step {
            case .message(let from, let to, let text, let answer):
                let (x1, x2) = (x(from), x(to))
                let dash = answer ? " stroke-dasharray=\"6 4\"" : ""
                out += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(x2)\" y2=\"\(y)\" stroke=\"#333\"\(dash) marker-end=\"url(#arrow)\"/>\n"
                out += label(text, centre: (x1 + x2) / 2, y: y - 6, width: width)
            case .note(let layer, let text):
                let textWidth = Int(Double(text.count) * Self.characterWidth) + 16
                let left = min(max(x(layer) - textWidth / 2, 4), width - textWidth - 4)
                out += "<rect x=\"\(left)\" y=\"\(y - 16)\" width=\"\(textWidth)\" height=\"24\" fill=\"#fff3bf\" stroke=\"#e0a800\"/>\n"
                out += "<text x=\"\(left + 8)\" y=\"\(y)\">\(Self.escape(text))</text>\n"
            case .banner(let text):
                let left = x(layers.first!) - 70, right = x(layers.last!) + 70
                out += "<rect x=\"\(left)\" y=\"\(y - 16)\" width=\"\(right - left)\" height=\"24\" fill=\"#f1f3f5\" stroke=\"#adb5bd\"/>\n"
                out += "<text x=\"\((left + right) / 2)\" y=\"\(y)\" text-anchor=\"middle\" font-weight=\"bold\">\(Self.escape(text))</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// A label above an arrow, centred on it but kept inside the picture.
    private func label(_ text: String, centre: Int, y: Int, width: Int) -> String {
        let half = Int(Double(text.count) * Self.characterWidth / 2)
        let x = min(max(centre, half + 4), width - half - 4)
        // A white halo keeps the label readable where it crosses a lifeline.
        return "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"middle\" paint-order=\"stroke\" stroke=\"#ffffff\" "
            + "stroke-width=\"4\">\(Self.escape(text))</text>\n"
    }

    /// XML text and attribute escaping: the one in WshText.
    static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
