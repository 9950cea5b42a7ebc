/// Pretty JSON for `api` and `--json`: two-space indent, keys in the order
/// the API sent them, control sequences stripped.
enum JSONView {
    /// `bytes` re-indented. Text that is not JSON comes back as it was, cleaned.
    static func pretty(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var previous: UInt8 = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        for byte in bytes {
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
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
        return Sanitizer.clean(String(decoding: output, as: UTF8.self), keepNewlines: true)
    }
}
