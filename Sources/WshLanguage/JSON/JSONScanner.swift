/// Reads one JSON document at the byte level without building a tree: checks it,
/// walks to a path skipping what is not on the way, and renders what it finds.
///
/// Every pass moves forward only, so the work is linear in the document's size;
/// ``work`` counts the bytes the passes covered, for tests that prove it.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes covered by all passes so far.
    private(set) var work = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var count: Int { bytes.count }

    // MARK: Checking

    /// Checks that the bytes are exactly one JSON value (with optional white space
    /// around it). Iterative, so deep nesting cannot exhaust the native stack.
    mutating func validate() throws(JSONText.SyntaxError) {
        var containers: [UInt8] = []
        var index = skipSpace(0)
        defer { work += index }
        values: while true {
            guard index < count else { throw unexpected(index, expected: "a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let open = bytes[index]
                index = skipSpace(index + 1)
                if index < count, bytes[index] == Self.close(of: open) {
                    // An empty object or array: a whole value.
                    index += 1
                } else {
                    containers.append(open)
                    if open == UInt8(ascii: "{") { index = try memberKey(index) }
                    continue values
                }
            case UInt8(ascii: "\""):
                index = try JSONText.endOfString(bytes, at: index)
            case UInt8(ascii: "t"): index = try literal("true", at: index)
            case UInt8(ascii: "f"): index = try literal("false", at: index)
            case UInt8(ascii: "n"): index = try literal("null", at: index)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                index = try endOfNumber(index)
            default:
                throw unexpected(index, expected: "a value")
            }
            // After a value: a comma, the end of its container, or the end of the text.
            while true {
                index = skipSpace(index)
                guard let open = containers.last else { break values }
                let close = Self.close(of: open)
                guard index < count else { throw unexpected(index, expected: "',' or '\(Character(Unicode.Scalar(close)))'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index = skipSpace(index + 1)
                    if open == UInt8(ascii: "{") { index = try memberKey(index) }
                    continue values
                }
                guard bytes[index] == close else {
                    throw unexpected(index, expected: "',' or '\(Character(Unicode.Scalar(close)))'")
                }
                containers.removeLast()
                index += 1
            }
        }
        guard index == count else { throw unexpected(index, expected: "the end of the text") }
    }

    /// The byte that closes the object or array `open` opens.
    private static func close(of open: UInt8) -> UInt8 {
        open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
    }

    /// Past `"key" :` and the space after it.
    private func memberKey(_ start: Int) throws(JSONText.SyntaxError) -> Int {
        guard start < count, bytes[start] == UInt8(ascii: "\"") else { throw unexpected(start, expected: "a key in quotes") }
        var index = skipSpace(try JSONText.endOfString(bytes, at: start))
        guard index < count, bytes[index] == UInt8(ascii: ":") else { throw unexpected(index, expected: "':'") }
        index = skipSpace(index + 1)
        return index
    }

    private func literal(_ word: StaticString, at start: Int) throws(JSONText.SyntaxError) -> Int {
        let length = word.utf8CodeUnitCount
        guard start + length <= count else { throw unexpected(start, expected: "a value") }
        for offset in 0..<length where bytes[start + offset] != word.utf8Start[offset] {
            throw unexpected(start, expected: "a value")
        }
        return start + length
    }

    private func endOfNumber(_ start: Int) throws(JSONText.SyntaxError) -> Int {
        var index = start
        func digits() -> Int {
            let first = index
            while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw unexpected(index, expected: "a digit")
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw unexpected(index, expected: "a digit") }
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw unexpected(index, expected: "a digit") }
        }
        return index
    }

    private func unexpected(_ index: Int, expected: String) -> JSONText.SyntaxError {
        guard index < count else { return JSONText.SyntaxError(problem: "expected \(expected), found the end", offset: index) }
        let byte = bytes[index]
        let found = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return JSONText.SyntaxError(problem: "expected \(expected), found \(found)", offset: index)
    }

    /// "line L, column C" of a byte offset, for messages.
    func location(of offset: Int) -> String {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return "line \(line), column \(offset - lineStart + 1)"
    }

    // MARK: Walking (the document is valid)

    /// The offset where the value at `steps` starts; a failure names the path up to
    /// where it stopped and why.
    mutating func locate(_ steps: [JSONPath.Step]) throws(LanguageError) -> Int {
        var index = skipSpace(0)
        var extra = 0
        defer { work += index + extra }
        for (depth, step) in steps.enumerated() {
            let at = JSONPath.render(steps[..<depth])
            switch step {
            case .key(let key):
                guard bytes[index] == UInt8(ascii: "{") else {
                    throw .commandFailed("no key \(JSONText.quoted(key)) at \(at): it is \(kind(at: index))")
                }
                index = skipSpace(index + 1)
                var found = false
                while bytes[index] != UInt8(ascii: "}") {
                    let keyEnd = skipString(index)
                    let matches = keyMatches(index..<keyEnd, key)
                    index = skipSpace(skipSpace(keyEnd) + 1)  // past ':'
                    if matches {
                        found = true
                        break
                    }
                    index = nextElement(skipValue(index))
                }
                guard found else { throw .commandFailed("no key \(JSONText.quoted(key)) at \(at)") }
            case .index(let wanted):
                guard bytes[index] == UInt8(ascii: "[") else {
                    throw .commandFailed("no index \(wanted) at \(at): it is \(kind(at: index))")
                }
                var target = wanted
                if wanted < 0 {
                    let (elements, end) = countElements(index)
                    extra += end - index
                    target = elements + wanted
                    guard target >= 0 else {
                        throw .commandFailed("no index \(wanted) at \(at): the array has \(elements) element\(elements == 1 ? "" : "s")")
                    }
                }
                index = skipSpace(index + 1)
                var position = 0
                while bytes[index] != UInt8(ascii: "]") && position < target {
                    index = nextElement(skipValue(index))
                    position += 1
                }
                guard bytes[index] != UInt8(ascii: "]") else {
                    throw .commandFailed("no index \(wanted) at \(at): the array has \(position) element\(position == 1 ? "" : "s")")
                }
            }
        }
        return index
    }

    /// The value at `start` as `json get` prints it: strings decoded, numbers as
    /// written, `null` empty, arrays and objects as compact JSON.
    mutating func render(at start: Int) -> String {
        let end = skipValue(start)
        work += end - start
        switch bytes[start] {
        case UInt8(ascii: "\""): return JSONText.decodeString(bytes[start..<end])
        case UInt8(ascii: "n"): return ""
        case UInt8(ascii: "{"), UInt8(ascii: "["): return compact(start..<end)
        default: return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    /// `| length`: elements of an array, members of an object, Unicode scalars of a
    /// string, 0 for null; nil for numbers and booleans.
    mutating func length(at start: Int) -> Int? {
        switch bytes[start] {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let (elements, end) = countElements(start)
            work += end - start
            return elements
        case UInt8(ascii: "\""):
            let end = skipValue(start)
            work += end - start
            return JSONText.decodeString(bytes[start..<end]).unicodeScalars.count
        case UInt8(ascii: "n"): return 0
        default: return nil
        }
    }

    /// `| keys`: an object's keys sorted by code point, or an array's indexes, as a
    /// compact JSON array; nil for other values.
    mutating func keys(at start: Int) -> String? {
        switch bytes[start] {
        case UInt8(ascii: "["):
            let (elements, end) = countElements(start)
            work += end - start
            return "[" + (0..<elements).map(String.init).joined(separator: ",") + "]"
        case UInt8(ascii: "{"):
            var keys: [String] = []
            var index = skipSpace(start + 1)
            while bytes[index] != UInt8(ascii: "}") {
                let keyEnd = skipString(index)
                keys.append(JSONText.decodeString(bytes[index..<keyEnd]))
                index = nextElement(skipValue(skipSpace(skipSpace(keyEnd) + 1)))
            }
            work += index + 1 - start
            keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return "[" + keys.map(JSONText.quoted).joined(separator: ",") + "]"
        default: return nil
        }
    }

    /// "an object", "a string", … for messages.
    func kind(at index: Int) -> String {
        switch bytes[index] {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }

    // MARK: Skipping (the document is valid)

    private func skipSpace(_ start: Int) -> Int {
        var index = start
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return index
            }
        }
        return index
    }

    /// Past the string that starts at `start`.
    private func skipString(_ start: Int) -> Int {
        var index = start + 1
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// Past the value that starts at `start`.
    private func skipValue(_ start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            repeat {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = skipString(index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0
            return index
        default:
            var index = start
            while index < count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "),
                    UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// From just past an element: past the comma after it, at the next element or
    /// at the container's end.
    private func nextElement(_ start: Int) -> Int {
        let index = skipSpace(start)
        return index < count && bytes[index] == UInt8(ascii: ",") ? skipSpace(index + 1) : index
    }

    /// How many elements (or members) the container at `start` has, and where it ends.
    private func countElements(_ start: Int) -> (Int, Int) {
        let isObject = bytes[start] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var index = skipSpace(start + 1)
        var elements = 0
        while bytes[index] != close {
            if isObject { index = skipSpace(skipSpace(skipString(index)) + 1) }
            index = nextElement(skipValue(index))
            elements += 1
        }
        return (elements, index + 1)
    }

    private func keyMatches(_ literal: Range<Int>, _ key: String) -> Bool {
        let inner = bytes[(literal.lowerBound + 1)..<(literal.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return inner.elementsEqual(key.utf8) }
        return JSONText.decodeString(bytes[literal]) == key
    }

    /// The bytes of a container without the white space between tokens.
    private func compact(_ range: Range<Int>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = skipString(index)
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): break
            default: output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
