/// The path a `json get` walks: a small jq subset.
///
/// `.` is the whole document; `.key` and `.["any key"]` (a JSON string, escapes
/// allowed) step into an object; `[N]` steps into an array, `[-1]` counting from
/// its end; steps chain (`.statuses[0].user.screen_name`). A final `| length` or
/// `| keys` asks for the value's length or its sorted keys instead of the value.
struct JSONPath: Equatable {
    /// One step into an object or array.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// What to report about the value found, instead of the value itself.
    enum Filter: String, Equatable {
        case length
        case keys
    }

    var steps: [Step]
    var filter: Filter?

    /// Parses `text`; a usage error says what was expected and where.
    static func parse(_ text: String) throws(LanguageError) -> JSONPath {
        var reader = Reader(bytes: Array(text.utf8), text: text)
        return try reader.parse()
    }

    /// How the first `count` steps are written, for messages: `.`, `.[2].user`.
    static func render(_ steps: ArraySlice<Step>) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key):
                if Parser.isValidName(key) {
                    text += "." + key
                } else {
                    text += (text.isEmpty ? "." : "") + "[" + JSONText.quoted(key) + "]"
                }
            case .index(let index):
                text += (text.isEmpty ? "." : "") + "[\(index)]"
            }
        }
        return text.isEmpty ? "." : text
    }

    private struct Reader {
        let bytes: [UInt8]
        let text: String
        var index = 0

        init(bytes: [UInt8], text: String) {
            self.bytes = bytes
            self.text = text
        }

        private func failure(_ expected: String) -> LanguageError {
            let found = index < bytes.count ? "at offset \(index)" : "at the end"
            return .usage("bad path \(JSONText.quoted(text)): expected \(expected) \(found) (paths look like .a[0].b, .[\"key\"], .[-1], then | length or | keys)")
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func skipSpaces() {
            while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
        }

        mutating func parse() throws(LanguageError) -> JSONPath {
            var path = JSONPath(steps: [], filter: nil)
            skipSpaces()
            guard current == UInt8(ascii: ".") else { throw failure("a path starting with .") }
            index += 1
            // After the leading dot: a key name, a bracket, a quoted key, or nothing.
            var afterDot = true
            while let byte = current {
                if afterDot {
                    afterDot = false
                    if Parser.isNameStart(byte) {
                        path.steps.append(.key(identifier()))
                        continue
                    }
                    if byte == UInt8(ascii: "\"") {
                        path.steps.append(.key(try quotedKey()))
                        continue
                    }
                    if byte != UInt8(ascii: "[") {
                        // `.` alone (the whole document) may only come first.
                        guard path.steps.isEmpty else { throw failure("a key after .") }
                        break
                    }
                }
                if byte == UInt8(ascii: "[") {
                    path.steps.append(try bracket())
                } else if byte == UInt8(ascii: ".") {
                    index += 1
                    afterDot = true
                    guard let next = current, Parser.isNameStart(next) || next == UInt8(ascii: "[")
                        || next == UInt8(ascii: "\"")
                    else { throw failure("a key after .") }
                } else {
                    break
                }
            }
            skipSpaces()
            if current == UInt8(ascii: "|") {
                index += 1
                skipSpaces()
                let name = current.map(Parser.isNameStart) == true ? identifier() : ""
                guard let filter = Filter(rawValue: name) else { throw failure("length or keys after |") }
                path.filter = filter
                skipSpaces()
            }
            guard current == nil else { throw failure("the end of the path") }
            return path
        }

        private mutating func identifier() -> String {
            let start = index
            while let byte = current, Parser.isNameContinue(byte) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func quotedKey() throws(LanguageError) -> String {
            let start = index
            let end: Int
            do {
                end = try JSONText.endOfString(bytes, at: start)
            } catch {
                throw failure("a closing \" of a JSON string")
            }
            index = end
            return JSONText.decodeString(bytes[start..<end])
        }

        private mutating func bracket() throws(LanguageError) -> Step {
            index += 1  // [
            skipSpaces()
            let step: Step
            if current == UInt8(ascii: "\"") {
                step = .key(try quotedKey())
            } else {
                let start = index
                if current == UInt8(ascii: "-") { index += 1 }
                while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
                guard let number = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    index = start
                    throw failure("an index or a quoted key after [")
                }
                step = .index(number)
            }
            skipSpaces()
            guard current == UInt8(ascii: "]") else { throw failure("]") }
            index += 1
            return step
        }
    }
}
