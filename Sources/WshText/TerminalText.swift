/// The one sanitizer for text that reaches a terminal.
///
/// Everything a server sends (bodies, error bodies, HTML error pages,
/// headers) is untrusted: printed as it came, `ESC ] 0 ; title BEL` retitles
/// the terminal, `ESC [ 2 J` wipes it, OSC 52 writes the clipboard, and a
/// right-to-left override (U+202E) makes a row lie about its text. Every
/// piece of such text passes `sanitize` before a View, message, trace or
/// `$error` shows it, and the shell's output passes `sanitize(_, .output)`
/// once more on its way out, so nothing that forgot the first pass can drive
/// the terminal either.
///
/// What is removed, whole (never leaving a remnant such as `[31m`):
/// - escape sequences: CSI (`ESC [` … final byte), OSC, DCS, SOS, PM and
///   APC strings (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` up to BEL or
///   ST), their one-byte C1 forms (U+009B, U+009D, U+0090, U+0098, U+009E,
///   U+009F), and two-character and nF escapes;
/// - every other C0 control, DEL and C1 control;
/// - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069), which reorder what follows them on screen.
///
/// Tab and line breaks are kept only where the policy allows them.
public enum TerminalText {
    /// What a View allows besides printable text.
    public struct Policy: Sendable, Equatable {
        /// Keep line feeds and tabs (CR LF and the Unicode line separators
        /// become a line feed); otherwise each becomes one space.
        public var keepsLineBreaks: Bool
        /// Keep SGR sequences (`ESC [ 1 ; 31 m`: colour and weight only),
        /// which the shell's own Views write. Never for server text.
        public var keepsStyles: Bool
        /// Keep a carriage return, for the shell's own progress lines.
        public var keepsCarriageReturns: Bool

        /// One line: a list row, a name, an error message.
        public static let singleLine = Policy(keepsLineBreaks: false, keepsStyles: false, keepsCarriageReturns: false)
        /// Several lines: a status's full text, a pretty JSON body.
        public static let multiline = Policy(keepsLineBreaks: true, keepsStyles: false, keepsCarriageReturns: false)
        /// The shell's own output on its way to stdout or stderr: styles it
        /// wrote itself survive, nothing else that drives a terminal does.
        public static let output = Policy(keepsLineBreaks: true, keepsStyles: true, keepsCarriageReturns: true)
    }

    /// `text` without terminal control sequences, controls or bidi controls.
    public static func sanitize(_ text: String, _ policy: Policy = .singleLine) -> String {
        // The common case, printable text, costs one scan of the bytes and no copy.
        guard needsWork(text.utf8, policy) else { return text }
        var scanner = Scanner(scalars: Array(text.unicodeScalars), policy: policy)
        return scanner.run()
    }

    /// Sanitizes optional text; nil and empty both give "".
    public static func sanitize(_ text: String?, _ policy: Policy = .singleLine) -> String {
        guard let text else { return "" }
        return sanitize(text, policy)
    }

    /// Whether any byte of `utf8` may need removing: C0 controls (other than
    /// those the policy keeps), DEL, and the lead bytes of C1 controls
    /// (C2 80–9F), bidi controls (D8 9C, E2 80 8E/8F/A8–AE, E2 81 A6–A9).
    static func needsWork(_ utf8: String.UTF8View, _ policy: Policy) -> Bool {
        if let answer = utf8.withContiguousStorageIfAvailable({ needsWork($0, policy) }) { return answer }
        return Array(utf8).withUnsafeBufferPointer { needsWork($0, policy) }
    }

    static func needsWork(_ bytes: UnsafeBufferPointer<UInt8>, _ policy: Policy) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none is a control, DEL, or the first
            // byte of a sequence that may need work (C2, D8, E2), nor follows one.
            if index + 8 <= bytes.count, !isLead(previous), !isLead(beforePrevious) {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                if JSONBytes.byteBelow0x20(word) == 0, !hasByte(0x7F, word), !hasByte(0xC2, word), !hasByte(0xD8, word),
                   !hasByte(0xE2, word) {
                    index += 8
                    previous = UInt8(truncatingIfNeeded: word >> 56)
                    beforePrevious = UInt8(truncatingIfNeeded: word >> 48)
                    continue
                }
            }
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x0A, 0x09:
                if !policy.keepsLineBreaks { return true }
            case 0x0D:
                return true
            case 0x00..<0x20, 0x7F:
                return true
            case 0x80...0x9F where previous == 0xC2:
                return true
            case 0x9C where previous == 0xD8:
                return true
            case 0x8E, 0x8F, 0xA8...0xAE:
                if previous == 0x80 && beforePrevious == 0xE2 { return true }
            case 0xA6...0xA9:
                if previous == 0x81 && beforePrevious == 0xE2 { return true }
            default:
                break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    @inline(__always)
    private static func isLead(_ byte: UInt8) -> Bool { byte == 0xC2 || byte == 0xD8 || byte == 0xE2 }

    /// Whether a byte of `word` is `byte` (JSONBytes's test for a zero byte, on the word XORed with it).
    @inline(__always)
    private static func hasByte(_ byte: UInt8, _ word: UInt64) -> Bool {
        JSONBytes.zeroByte(word ^ (0x0101_0101_0101_0101 &* UInt64(byte))) != 0
    }

    /// Walks the scalars once, dropping sequences whole.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        let policy: Policy
        var index = 0
        var output = String.UnicodeScalarView()

        init(scalars: [Unicode.Scalar], policy: Policy) {
            self.scalars = scalars
            self.policy = policy
        }

        mutating func run() -> String {
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                switch scalar.value {
                case 0x0A, 0x2028, 0x2029:
                    lineBreak()
                case 0x09:
                    output.append(policy.keepsLineBreaks ? scalar : " ")
                case 0x0D:
                    if policy.keepsCarriageReturns && peek != 0x0A {
                        output.append(scalar)
                    } else if peek != 0x0A {
                        lineBreak()            // a lone CR ends a line too
                    }                          // CR LF: the LF makes the break
                case 0x1B:
                    escape(start: index - 1)
                case 0x9B:
                    controlSequence(start: nil)
                case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                    controlString()
                case 0x00..<0x20, 0x7F...0x9F:
                    continue                   // other controls: dropped
                case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                    continue                   // bidi controls: dropped
                default:
                    output.append(scalar)
                }
            }
            return String(output)
        }

        private var peek: UInt32? { index < scalars.count ? scalars[index].value : nil }

        private mutating func lineBreak() {
            output.append(policy.keepsLineBreaks ? "\n" : " ")
        }

        /// After ESC at `start`: the kind of sequence is in the next scalar.
        private mutating func escape(start: Int) {
            guard let next = peek else { return }
            switch next {
            case 0x5B:                                  // [  CSI
                index += 1
                controlSequence(start: start)
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F:          // ] P X ^ _  OSC DCS SOS PM APC
                index += 1
                controlString()
            case 0x20...0x2F:                           // nF: intermediates, then a final byte
                while let byte = peek, (0x20...0x2F).contains(byte) { index += 1 }
                if let byte = peek, (0x30...0x7E).contains(byte) { index += 1 }
            case 0x30...0x7E:                           // a two-character escape
                index += 1
            default:
                break                                   // a lone ESC: dropped, the next scalar stays
            }
        }

        /// CSI parameters (0x30–0x3F) and intermediates (0x20–0x2F) up to a
        /// final byte (0x40–0x7E). Anything else ends the sequence early and
        /// is read again as ordinary text. `start` is the ESC of a 7-bit CSI,
        /// whose SGR form the output policy may keep.
        private mutating func controlSequence(start: Int?) {
            let parameters = index
            while let byte = peek, (0x20...0x3F).contains(byte) { index += 1 }
            guard let final = peek, (0x40...0x7E).contains(final) else { return }
            index += 1
            if policy.keepsStyles, let start, final == 0x6D,
               scalars[parameters..<(index - 1)].allSatisfy({ ("0"..."9").contains($0) || $0 == ";" }) {
                // A scalar at a time: the view's `append(contentsOf:)` copied the whole output so far each
                // time, and a list of 20 000 coloured rows took minutes to print.
                for scalar in scalars[start..<index] { output.append(scalar) }
            }
        }

        /// A control string up to BEL, ST (`ESC \` or U+009C), or the end of
        /// the text. Another ESC ends it, as terminals do, and starts anew.
        private mutating func controlString() {
            while let byte = peek {
                index += 1
                switch byte {
                case 0x07, 0x9C:
                    return
                case 0x1B:
                    if peek == 0x5C { index += 1 } else { escape(start: index - 1) }
                    return
                default:
                    continue
                }
            }
        }
    }
}
