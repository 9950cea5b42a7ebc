import Foundation

/// A man(7) page being written. Every piece of text given to it is escaped;
/// in text marked *inline*, words in `backticks` are set in bold.
struct Roff {
    private(set) var source = ""

    /// `.TH`: the page's title line.
    mutating func title(_ name: String, section: Int, date: String, source: String, manual: String) {
        line(".TH \(quoted(name.uppercased())) \(section) \(quoted(date)) \(quoted(source)) \(quoted(manual))")
    }

    /// `.SH`: a section heading.
    mutating func section(_ name: String) {
        line(".SH \(quoted(name.uppercased()))")
    }

    /// `.SS`: a subsection heading.
    mutating func subsection(_ name: String) {
        line(".SS \(quoted(name))")
    }

    /// Paragraphs of inline text; a blank line starts a new paragraph and
    /// indented lines are shown as they are (examples).
    mutating func paragraphs(_ text: String) {
        line(".PP")
        body(text, paragraphMacro: ".PP")
    }

    /// `.TP`: a tag (already formatted, see `bold`/`italic`/`escape`) and its
    /// description, which may hold paragraphs and indented examples.
    mutating func tagged(_ tag: String, _ description: String) {
        line(".TP")
        line(Roff.protectLine(tag))
        body(description, paragraphMacro: ".IP")
    }

    /// A list nested in the current tagged paragraph.
    mutating func nested(_ fill: (inout Roff) -> Void) {
        line(".RS")
        fill(&self)
        line(".RE")
    }

    /// Lines shown as they are, indented; inside a tagged paragraph, from
    /// its text's margin.
    mutating func example(_ lines: [String], inTaggedParagraph: Bool = false) {
        if inTaggedParagraph { line(".RS") }
        line(".RS 4")
        line(".nf")
        for text in lines { line(Roff.protectLine(Roff.escape(text))) }
        line(".fi")
        line(".RE")
        if inTaggedParagraph { line(".RE") }
    }

    /// `.br`: ends the output line here.
    mutating func lineBreak() {
        line(".br")
    }

    /// A formatted text line (see `bold`, `italic`, `inline`).
    mutating func text(_ formatted: String) {
        line(Roff.protectLine(formatted))
    }

    /// Text lines filled into paragraphs (a blank line starts the next), and
    /// runs of indented lines set as examples, a paragraph of their own.
    private mutating func body(_ text: String, paragraphMacro: String) {
        var example: [String] = []
        var needsBreak = false
        var atStart = true
        func flushExample(_ roff: inout Roff) {
            guard !example.isEmpty else { return }
            if !atStart { roff.line(paragraphMacro) }
            let indent = example.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            roff.example(example.map { String($0.dropFirst(indent)) }, inTaggedParagraph: paragraphMacro == ".IP")
            example = []
            needsBreak = true
            atStart = false
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let content = String(raw)
            if content.hasPrefix(" ") {
                example.append(content)
                continue
            }
            flushExample(&self)
            if content.trimmingCharacters(in: .whitespaces).isEmpty {
                needsBreak = !atStart
                continue
            }
            if needsBreak {
                line(paragraphMacro)
                needsBreak = false
            }
            line(Roff.protectLine(Roff.inline(content)))
            atStart = false
        }
        flushExample(&self)
    }

    private mutating func line(_ text: String) {
        source += text + "\n"
    }

    private func quoted(_ text: String) -> String {
        "\"" + Roff.escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }

    /// `text` in bold.
    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    /// `text` in italics (a value to fill in).
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// Text with `code` in bold.
    static func inline(_ text: String) -> String {
        var result = ""
        var inCode = false
        for piece in text.split(separator: "`", omittingEmptySubsequences: false) {
            result += inCode ? bold(String(piece)) : escape(String(piece))
            inCode.toggle()
        }
        return result
    }

    /// Escapes what roff would read as markup: backslashes, hyphens (set as
    /// minus signs, so options copy as typed) and every non-ASCII character
    /// (as `\[uXXXX]`, so no input encoding is assumed).
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\t": result += " "
            case _ where scalar.value > 0x7E || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A text line must not start with a control character (`.` or `'`).
    static func protectLine(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}
