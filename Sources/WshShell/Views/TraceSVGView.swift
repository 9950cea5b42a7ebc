import WshText

/// `trace diagram FILE` → `FILE.svg`: a `TraceDiagram` as a standalone SVG
/// a browser or a slide shows as it is — a lifeline per layer, named at its
/// top and bottom, an arrow per call, a note where a layer answered alone.
///
/// No text crosses a lifeline or leaves the frame: a label wraps between the
/// two lifelines it sits between, a note within its lifeline's column, a
/// banner within the frame, and each row is as tall as its lines.
struct TraceSVGView {
    /// Pixels between two lifelines.
    static let column = 190
    static let margin = 24
    static let header = 56
    /// The width of the box naming a lifeline.
    static let nameWidth = 140
    /// The width of a note: its lifeline's column, less a gap to the next column.
    static let noteWidth = column - padding
    /// Pixels between a label and the lifelines beside it, and between a box and its text.
    static let padding = 8
    /// Pixels from one line of 12 px text to the next.
    static let lineHeight = 15
    /// The width of one column of the 12 px monospace labels, for placing them:
    /// a little more than DejaVu Sans Mono's 7.2, so a fallback font still fits.
    /// A wide character (CJK, emoji) takes two columns, as on a terminal.
    static let characterWidth = 7.3

    func render(_ diagram: TraceDiagram) -> String {
        let layers = diagram.lifelines
        // The widest thing centred on a lifeline, a name or a note, sets the margins.
        let reach = max(Self.nameWidth, Self.noteWidth) / 2
        let width = (Self.margin + reach) * 2 + Self.column * (layers.count - 1)
        func x(_ layer: TraceDiagram.Layer) -> Int {
            Self.margin + reach + Self.column * layers.firstIndex(of: layer)!
        }
        var steps = ""
        // The top of the next row; a row is as tall as its lines.
        var top = Self.header + 4
        for step in diagram.steps {
            switch step {
            case .message(let from, let to, let text, let answer):
                let (low, high) = labelSpan(from: from, to: to, in: layers, x: x)
                let lines = Self.wrap(text, columns: Self.columns(in: high - low - 2 * Self.padding))
                let y = top + Self.lineHeight * lines.count + 8
                let dash = answer ? " stroke-dasharray=\"6 4\"" : ""
                steps += "<line x1=\"\(x(from))\" y1=\"\(y)\" x2=\"\(x(to))\" y2=\"\(y)\" stroke=\"#333\"\(dash) marker-end=\"url(#arrow)\"/>\n"
                steps += self.text(lines, centre: (low + high) / 2, baseline: top + Self.lineHeight)
                top = y + 11
            case .note(let layer, let text):
                steps += box(text, left: x(layer) - Self.noteWidth / 2, width: Self.noteWidth, top: &top,
                             colours: "fill=\"#fff3bf\" stroke=\"#e0a800\"", bold: false)
            case .banner(let text):
                let left = x(layers.first!) - reach
                steps += box(text, left: left, width: x(layers.last!) + reach - left, top: &top,
                             colours: "fill=\"#f1f3f5\" stroke=\"#adb5bd\"", bold: true)
            }
        }
        let bottom = top + 4
        let height = bottom + Self.header
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" \
            orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>
            <rect width="100%" height="100%" fill="#ffffff"/>

            """
        for layer in layers {
            let x = x(layer)
            out += "<line x1=\"\(x)\" y1=\"\(Self.header - 8)\" x2=\"\(x)\" y2=\"\(bottom + 8)\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n"
            for y in [12, bottom + 8] {
                out += "<rect x=\"\(x - Self.nameWidth / 2)\" y=\"\(y)\" width=\"\(Self.nameWidth)\" height=\"28\" rx=\"4\" "
                    + "fill=\"#e8eefc\" stroke=\"#3b5bdb\"/>\n"
                out += "<text x=\"\(x)\" y=\"\(y + 19)\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"14\">\(Self.escape(layer.rawValue))</text>\n"
            }
        }
        return out + steps + "</svg>\n"
    }

    /// The x of the two lifelines a message's label sits between: the arrow's
    /// ends when they are neighbours, else the sender and its neighbour toward
    /// the receiver, so that the label crosses no lifeline the arrow passes.
    private func labelSpan(from: TraceDiagram.Layer, to: TraceDiagram.Layer, in layers: [TraceDiagram.Layer],
                           x: (TraceDiagram.Layer) -> Int) -> (Int, Int) {
        let (start, end) = (layers.firstIndex(of: from)!, layers.firstIndex(of: to)!)
        // A message to itself has no span: its label takes the column beside the lifeline.
        let direction = end > start ? 1 : end < start ? -1 : start + 1 < layers.count ? 1 : -1
        let (a, b) = (x(from), x(layers[start + direction]))
        return (min(a, b), max(a, b))
    }

    /// A note or banner: `text` wrapped in a box `width` wide from `left`,
    /// starting at `top`, which moves to below the box.
    private func box(_ text: String, left: Int, width: Int, top: inout Int, colours: String, bold: Bool) -> String {
        let lines = Self.wrap(text, columns: Self.columns(in: width - 2 * Self.padding))
        let height = Self.lineHeight * lines.count + 9
        var out = "<rect x=\"\(left)\" y=\"\(top + 5)\" width=\"\(width)\" height=\"\(height)\" \(colours)/>\n"
        out += self.text(lines, centre: left + width / 2, baseline: top + 5 + 16, bold: bold)
        top += height + 10
        return out
    }

    /// `lines` one under another from `baseline`, each centred on `centre`.
    /// Each is placed by its left edge, not `text-anchor="middle"`, so that
    /// the space a line ends with at a break does not shift it.
    private func text(_ lines: [String], centre: Int, baseline: Int, bold: Bool = false) -> String {
        var out = bold ? "<text font-weight=\"bold\">" : "<text>"
        for (index, line) in lines.enumerated() {
            let extent = Self.pixels(line)
            let left = Int((Double(centre) - extent / 2).rounded(.down))
            out += "<tspan x=\"\(left)\" y=\"\(baseline + Self.lineHeight * index)\">\(Self.escape(line))</tspan>"
        }
        return out + "</text>\n"
    }

    /// How many columns of text fit in `pixels`; never under two, the width of one wide character.
    static func columns(in pixels: Int) -> Int {
        max(2, Int(Double(pixels) / characterWidth))
    }

    /// The pixels `line` is drawn across: its columns without the spaces it ends with.
    static func pixels(_ line: String) -> Double {
        var visible = Substring(line)
        while visible.last == " " { visible.removeLast() }
        return Double(DisplayWidth.of(visible)) * characterWidth
    }

    /// `text` in lines of at most `columns` columns (wide characters two),
    /// every character kept, so the lines joined are `text` and a reader who
    /// copies them copies it whole. A line breaks only between `pieces` (the
    /// classroom page's rule), and inside a piece only when the piece alone is
    /// wider than a line.
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        // The columns of `line`, with the spaces it ends with.
        var used = 0
        for piece in pieces(text) {
            let width = DisplayWidth.of(piece)
            // The spaces a piece ends with may hang past the line's end: they are drawn as nothing.
            let visible = DisplayWidth.of(String(piece.reversed().drop { $0 == " " }.reversed()))
            if used + visible > columns, !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            if visible <= columns {
                line += piece
                used += width
                continue
            }
            // A piece wider than a line: as many characters as fit, line by line.
            for character in piece {
                let width = DisplayWidth.of(character)
                if used + width > columns, !line.isEmpty, character != " " {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += width
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` cut where a label may break: after a space, `/` or `,` (the
    /// spaces after them stay with them); before `.` (not between two digits),
    /// `?`, `&` or `(`; between the words of a camelCase name; around a wide
    /// character. The classroom page's `pieces` (classroom.js) is the same
    /// rule, so the page and the SVG break a label at the same places.
    static func pieces(_ text: String) -> [String] {
        let characters = Array(text)
        var pieces: [String] = []
        var piece = ""
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let digits = previous.map(Self.isDigit) == true && next.map(Self.isDigit) == true
            let camel = previous.map { [.lowercaseLetter, .decimalNumber].contains(Self.category($0)) } == true
                && Self.category(character) == .uppercaseLetter
            let wide = DisplayWidth.of(character) == 2 || (previous.map { DisplayWidth.of($0) == 2 } == true && character != " ")
            if !piece.isEmpty && ("?&(".contains(character) || character == "." && !digits || camel || wide) {
                pieces.append(piece)
                piece = ""
            }
            piece.append(character)
            if character == " " || ("/,".contains(character) && next != " " && next != "/") {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty || pieces.isEmpty { pieces.append(piece) }
        return pieces
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    private static func category(_ character: Character) -> Unicode.GeneralCategory? {
        character.unicodeScalars.first?.properties.generalCategory
    }

    /// XML text and attribute escaping: the one in WshText.
    static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
