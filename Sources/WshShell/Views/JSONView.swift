import FoundationEssentials
import WshLanguage
import WshText

/// JSON for `--json` and `api`: two-space indent, one value per line, every
/// string from a server passed through the one sanitizer.
enum JSONView {
    /// The JSON of a document the ViewModels built (keys sorted, ending in a
    /// newline). Their strings are sanitized already.
    static func encode<Document: Encodable>(_ document: Document) throws(LanguageError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
        } catch {
            throw .commandFailed("cannot write JSON: \(error)")
        }
    }

    /// `bytes` re-indented, keys in the order the server sent them, or nil
    /// when `bytes` is not one valid JSON value.
    ///
    /// A string's escapes are decoded before it is sanitized, so `\u001b[2J`
    /// cannot survive as `[2J` nor reach a `jq -r` as a real ESC.
    static func pretty(_ bytes: Data) -> String? {
        guard JSONValue.parse(bytes) != nil else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var previous: UInt8 = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "\""):
                let start = index - 1
                var escaped = false
                while index < bytes.endIndex {
                    let inner = bytes[index]
                    index += 1
                    if escaped { escaped = false } else if inner == UInt8(ascii: "\\") { escaped = true } else if inner == UInt8(ascii: "\"") { break }
                }
                output.append(contentsOf: sanitizedString(bytes[start..<index]))
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                if previous == UInt8(ascii: "{") || previous == UInt8(ascii: "[") {
                    // An empty object or array stays on one line: `{}`.
                    while output.last == UInt8(ascii: " ") || output.last == UInt8(ascii: "\n") { output.removeLast() }
                } else {
                    newline()
                }
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
            previous = byte
        }
        return String(decoding: output, as: UTF8.self) + "\n"
    }

    /// One JSON string token, its content sanitized. Tokens with no escape
    /// and no control byte, nearly all of them, are copied as they are.
    private static func sanitizedString(_ token: Data) -> [UInt8] {
        guard token.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x80 }),
              let text = try? JSONDecoder().decode(String.self, from: token)
        else { return Array(token) }
        let clean = TerminalText.sanitize(text, .multiline)
        guard clean != text else { return Array(token) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(clean)).map(Array.init) ?? Array(token)
    }

    /// Text that is not JSON, shown as it came but safe for a terminal.
    static func raw(_ bytes: Data) -> String {
        let text = TerminalText.sanitize(String(decoding: bytes, as: UTF8.self), .multiline)
        return text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
    }
}
