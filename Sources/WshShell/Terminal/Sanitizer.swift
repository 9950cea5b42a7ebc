/// Makes text from the API safe to print.
///
/// A status could carry `ESC ] 0 ; title BEL` or `ESC [ 2 J`: printed as is,
/// it would retitle or wipe the user's terminal. Escape sequences are removed
/// whole (CSI, OSC, DCS and two-byte escapes), and every other C0 control,
/// DEL and C1 control is dropped.
public enum Sanitizer {
    /// `text` without terminal control sequences. Newlines and tabs are kept
    /// when `keepNewlines` is true; otherwise each becomes one space.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        // The common case, printable text, costs one scan and no copy.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x0A, 0x09:
                output.append(keepNewlines ? scalar : " ")
            case 0x0D:
                if !keepNewlines { output.append(" ") }
            case 0x1B:
                skipEscape(&scalars)
            case 0x9B:
                skipUntilFinal(&scalars)          // C1 CSI
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:
                skipString(&scalars)              // C1 OSC, DCS, SOS, PM, APC
            default:
                if !isControl(scalar) { output.append(scalar) }
            }
        }
        return String(output)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
    }

    /// After ESC: CSI runs to a final byte, OSC/DCS/SOS/PM/APC to a terminator,
    /// anything else is a two-character escape.
    static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipUntilFinal(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        default:
            // nF escapes carry intermediate bytes (0x20–0x2F) before the final one.
            if (0x20...0x2F).contains(next.value) {
                while let more = scalars.next(), (0x20...0x2F).contains(more.value) {}
            }
        }
    }

    /// CSI parameters and intermediates, up to a final byte in 0x40–0x7E.
    static func skipUntilFinal(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || scalar.value > 0x7F { return }
        }
    }

    /// A control string, up to BEL, ST (ESC \) or C1 ST.
    static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
