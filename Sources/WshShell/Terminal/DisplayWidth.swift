/// How many terminal columns text takes, and how to cut it to fit.
///
/// CJK ideographs, kana, Hangul, full-width forms and emoji take two columns;
/// combining marks, zero-width spaces, joiners and variation selectors take
/// none; a ZWJ sequence such as 👩‍💻 is one glyph of two columns.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    public static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII, the commonest case, is one column a byte.
        if text.utf8.allSatisfy({ $0 &- 0x20 < 0x5F }) { return text.utf8.count }
        // Text of which every scalar is a glyph of its own (no joining scalar
        // anywhere: names, counts, most CJK) is summed scalar by scalar.
        var simple = 0
        for scalar in text.unicodeScalars {
            guard let width = simpleWidth(scalar) else { simple = -1; break }
            simple += width
        }
        if simple >= 0 { return simple }
        var total = 0
        forEachGlyph(Substring(text)) { width, _ in
            total += width
            return true
        }
        return total
    }

    /// The columns `text` takes, glyph by glyph (grapheme clusters).
    static func clusterWidth(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Calls `body` with each glyph's width and the index after it, in order,
    /// until it returns false. A scalar that is a glyph on its own (Latin, CJK,
    /// Hangul syllables, full-width forms, common punctuation) and is not
    /// followed by one that could join it is measured by itself; only where
    /// scalars can join (marks, joiners, variation selectors, emoji, jamo) is
    /// the grapheme cluster found, which costs ten times more.
    static func forEachGlyph(_ text: Substring, _ body: (_ width: Int, _ end: String.Index) -> Bool) {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        guard index < scalars.endIndex else { return }
        var scalar = scalars[index]
        while true {
            let next = scalars.index(after: index)
            let following = next < scalars.endIndex ? scalars[next] : nil
            if let width = simpleWidth(scalar), following.map({ simpleWidth($0) != nil }) ?? true {
                guard body(width, next), let following else { return }
                index = next
                scalar = following
                continue
            }
            // A cluster starts here (a substring's first Character starts at its start).
            let rest = text[index...]
            let end = rest.index(after: rest.startIndex)
            guard body(of(rest[rest.startIndex]), end), end < scalars.endIndex else { return }
            index = end
            scalar = scalars[index]
        }
    }

    /// One scalar's columns when it is a glyph on its own; nil otherwise.
    @inline(__always)
    static func simpleWidth(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        switch v {
        case 0x20..<0x7F: return 1
        case 0..<0x20, 0x7F...0x9F, 0xAD: return 0  // controls, soft hyphen
        case 0xA0..<0x300, 0x370..<0x483, 0x2010...0x2027, 0x2030...0x205E: return 1
        case 0x2100..<0x2C00: return symbolWidth(scalar)
        case 0x3099...0x309A, 0x302A...0x302F: return nil  // combining kana and tone marks
        case 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF60, 0xFFE0...0xFFE6: return 2
        default: return nil
        }
    }

    /// The columns of a symbol (letterlike, arrows, mathematical, technical,
    /// box drawing, shapes, dingbats: none of them joins the scalars around it
    /// but through a joiner or selector, which go glyph by glyph), as
    /// `of(_: Character)` measures it alone: `↻ ✎ ♥` one column, `⌚ ⭐` two.
    private static func symbolWidth(_ scalar: Unicode.Scalar) -> Int {
        scalar.properties.isEmojiPresentation || isWide(scalar.value) ? 2 : (isZeroWidth(scalar) ? 0 : 1)
    }

    /// The columns one grapheme cluster takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // A keycap (1️⃣: an ASCII digit, VS16, U+20E3) is an emoji, and wide.
        if first.isASCII, !scalars.contains(where: { $0.value == 0xFE0F }) {
            return first.value >= 0x20 && first.value != 0x7F ? 1 : 0
        }
        // An emoji presentation anywhere (or a VS16 request) makes a wide glyph.
        if scalars.contains(where: { $0.value == 0xFE0F })
            || scalars.contains(where: { $0.properties.isEmojiPresentation }) {
            return 2
        }
        if isWide(first.value) { return 2 }
        return isZeroWidth(first) ? 0 : 1
    }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        cut(text, to: columns).text
    }

    /// `text` cut to `columns` columns as `truncate` cuts it, then padded
    /// with spaces to them, measured once.
    public static func fit(_ text: String, to columns: Int) -> String {
        let (cut, width) = cut(text, to: columns)
        return width >= columns ? cut : cut + spaces(columns - width)
    }

    /// `truncate`'s text, and the columns it takes.
    private static func cut(_ text: String, to columns: Int) -> (text: String, width: Int) {
        guard columns > 0 else { return ("", 0) }
        if let simple = simpleCut(text, to: columns) { return simple }
        var used = 0
        var fits = text.startIndex  // the end of the glyphs that fit beside the `…`
        var fitsWidth = 0
        var cut = false
        forEachGlyph(text[...]) { width, end in
            used += width
            if used <= columns - 1 {
                fits = end
                fitsWidth = used
            }
            if used > columns { cut = true }
            return !cut
        }
        return cut ? (String(text[..<fits]) + "…", fitsWidth + 1) : (text, used)
    }

    /// `cut` for text whose scalars, up to where it is cut, are glyphs of
    /// their own, read scalar by scalar; nil for any other text. (A scalar
    /// that a joining one follows is never where it is cut: the joining one
    /// is read, and nil returned, before the text goes past `columns`.)
    private static func simpleCut(_ text: String, to columns: Int) -> (text: String, width: Int)? {
        var used = 0
        var fits = 0  // the UTF-8 offset after the glyphs that fit beside the `…`
        var fitsWidth = 0
        var read = 0  // the UTF-8 offset after the last scalar read
        for scalar in text.unicodeScalars {
            guard let width = simpleWidth(scalar) else { return nil }
            read += UTF8.width(scalar)
            used += width
            if used <= columns - 1 {
                fits = read
                fitsWidth = used
            }
            if used > columns {
                return (String(text[..<text.utf8.index(text.utf8.startIndex, offsetBy: fits)]) + "…", fitsWidth + 1)
            }
        }
        return (text, used)
    }

    /// `text` padded with spaces on the right to `columns` columns.
    public static func padRight(_ text: String, to columns: Int) -> String {
        let width = of(text)
        return width >= columns ? text : text + spaces(columns - width)
    }

    /// `text` padded with spaces on the left to `columns` columns.
    public static func padLeft(_ text: String, to columns: Int) -> String {
        let width = of(text)
        return width >= columns ? text : spaces(columns - width) + text
    }

    /// `count` spaces (`String(repeating:count:)` goes a Character at a time).
    static func spaces(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            buffer.initialize(repeating: UInt8(ascii: " "))
            return count
        }
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, abridged to what text uses).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1,
             0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA,
             0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
             0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C,
             0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
             0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
             0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
             0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
             0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4,
             0x1F3F8...0x1F43E, 0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
             0x1F550...0x1F567, 0x1F57A, 0x1F595...0x1F596, 0x1F5A4, 0x1F5FB...0x1F64F,
             0x1F680...0x1F6C5, 0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
             0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0, 0x1F90C...0x1F93A,
             0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
             0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The text without the whitespace it ends in, as a line is written.
    func trimmingTrailingWhitespace() -> String {
        // Most text ends in a byte that is neither whitespace nor part of a
        // longer character (a listing's line ends in a colour's `m`): that is
        // seen without finding the last Character, which costs thousands of
        // instructions on a long line.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        if let last = utf8.last, last < 0x80, !isSpace(last) { return self }
        var bytes = utf8[...]
        // ASCII whitespace after ASCII is a Character of its own (or, CR LF, half of one): dropped by its byte.
        while let last = bytes.last, isSpace(last) {
            if let before = bytes.dropLast().last, before >= 0x80 { break }
            bytes.removeLast()
        }
        if let last = bytes.last, last < 0x80, !isSpace(last) { return String(Substring(bytes)) }
        var text = String(Substring(bytes))
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
