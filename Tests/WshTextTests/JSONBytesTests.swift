import Testing
import WshText

/// The byte reader the fast paths share: strict syntax, escapes as
/// JSONDecoder decodes them, and the key table.
@Suite("JSONBytes: a strict reader over a body's bytes")
struct JSONBytesTests {
    /// Runs `read` over `text`'s UTF-8 bytes (or `bytes`).
    func read<T>(_ text: String, bytes: [UInt8]? = nil, _ read: (inout JSONBytes) throws(JSONBytes.Declined) -> T) -> T? {
        (bytes ?? Array(text.utf8)).withUnsafeBytes { JSONBytes.read($0, read) }
    }

    func accepts(_ text: String) -> Bool {
        read(text) { r throws(JSONBytes.Declined) in try r.skipValue() } != nil
    }

    @Test("strict JSON is read whole; anything else declines")
    func syntax() {
        for valid in ["{}", "[]", " [ ] ", #"{"a":[1,-2.5e3,0,-0.5,1E+2,true,false,null,"x\u00e9\"\\\/\b\f\n\r\t"]}"#,
                      #"{"键": {"": []}}"#, "\n\t{\r}\n"] {
            #expect(accepts(valid), "\(valid)")
        }
        for invalid in [#"{"a":01}"#, "[1,]", #"{"a" 1}"#, #"["\x"]"#, "[1 2]", #"{"a":1}}"#, "nul", "-", "1.", "1e",
                        "[.5]", "[+1]", #"{"a":1,}"#, "{,}", #"["\u12"]"#, "", " ", "[", #"["abc"#, "{} x", "[tru]"] {
            #expect(!accepts(invalid), "\(invalid)")
        }
        // Depth: 100 levels are read, 101 left to JSONDecoder.
        #expect(accepts(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
        #expect(!accepts(String(repeating: "[", count: 101) + String(repeating: "]", count: 101)))
    }

    @Test("strings decode their escapes as JSONDecoder does, and decline what it rejects")
    func strings() {
        func string(_ text: String, bytes: [UInt8]? = nil) -> String? {
            read(text, bytes: bytes) { r throws(JSONBytes.Declined) in try r.string() }
        }
        #expect(string(#""a\"b\\c\/d\u00e9\u4E2D\ud83d\ude00\u0000\n""#) == "a\"b\\c/dé中😀\u{0}\n")
        #expect(string(#""<a href=\"x\">y<\/a>""#) == #"<a href="x">y</a>"#)
        #expect(string(#""今天天气不错 😀""#) == "今天天气不错 😀")
        #expect(string(#""0123456789abcdef0123456789""#) == "0123456789abcdef0123456789")
        // A lone surrogate, a high one without its low one, an invalid escape.
        for declined in [#""\ud83d""#, #""a\udc00b""#, #""\ud83d\u0041""#, #""\q""#, #""\u00G0""#] {
            #expect(string(declined) == nil, "\(declined)")
        }
        // A control character, invalid UTF-8 (plain and between escapes), a surrogate in UTF-8.
        for bytes: [UInt8] in [[0x22, 0x61, 0x01, 0x22], [0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22],
                               [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22]] {
            #expect(string("", bytes: bytes) == nil, "\(bytes)")
        }
    }

    @Test("numbers: plain integers to Int64, the rest left to the caller")
    func numbers() {
        func int(_ text: String) -> Int64?? {
            read(text) { r throws(JSONBytes.Declined) in try r.number().int64 }
        }
        #expect(int("9007199254740993") == .some(9_007_199_254_740_993))
        #expect(int("-9223372036854775808") == .some(Int64.min))
        #expect(int("9223372036854775807") == .some(Int64.max))
        for other in ["9223372036854775808", "-9223372036854775809", "-0", "1.0", "1e3", "99999999999999999999999"] {
            #expect(int(other) == .some(nil), "\(other)")
        }
        // Every length from 1 to 20 digits, every digit in every place, read eight at a time or one by one,
        // with what may follow a number (an array's next element, its end, a fraction).
        let digits = Array("9876543210123456789")
        for length in 1...19 {
            for shift in 0..<10 {
                var text = String((0..<length).map { digits[($0 + shift) % digits.count] })
                if text.first == "0" { text = "1" + text.dropFirst() }
                let expected = Int64(text)
                #expect(int(text) == .some(expected), "\(text)")
                let list = read("[\(text),\(text)]") { r throws(JSONBytes.Declined) -> [Int64?] in
                    try r.enterArray()
                    var first = true
                    var values: [Int64?] = []
                    while try r.nextElement(&first) { values.append(try r.number().int64) }
                    return values
                }
                #expect(list == .some([expected, expected]), "[\(text),\(text)]")
                #expect(int(text + ".5") == .some(nil))
                #expect(int("-" + text) == .some(Int64("-" + text)), "-\(text)")
            }
        }
        #expect(int("18446744073709551615") == .some(nil))
        #expect(int("12345678:") == nil)
        #expect(int("0123456789") == nil)
    }

    @Test("keys match their table by length and bytes, long and short, and an escaped key declines")
    func keys() {
        let keys = JSONKeys(["id", "idstr", "screen_name", "followers_count", "following_count", "abcdefgh_1", "abcdefgh_2", "a"])
        func fields(_ text: String) -> [Int?]? {
            read(text) { r throws(JSONBytes.Declined) in
                var found: [Int?] = []
                try r.enterObject()
                var first = true
                while let key = try r.nextKey(&first) {
                    found.append(r.match(key, keys))
                    try r.skipValue()
                }
                return found
            }
        }
        #expect(fields(#"{"id":1,"idstr":2,"screen_name":3,"followers_count":4,"following_count":5,"abcdefgh_2":6,"abcdefgh_1":7,"a":8}"#)
                == [0, 1, 2, 3, 4, 6, 5, 7])
        #expect(fields(#"{"i":1,"ids":2,"screen_nam":3,"followers_counts":4,"abcdefgh_3":5,"":6,"键":7}"#)
                == [nil, nil, nil, nil, nil, nil, nil])
        #expect(fields(#"{"\u0069d":1}"#) == nil)
    }

    @Test("loose skipping ends where strict skipping does, wherever the brackets, quotes and escapes fall in eight-byte words")
    func looseSkipAtEveryAlignment() {
        let pieces = [#"[1, 22, 333]"#, #""a]b}c{d[""#, #""\\""#, #""x\"]\"y""#, #"{"k": [true, null, -1.5e3]}"#,
                      #""键]""#, "{}", "[]", #""""#, "12345678901234567890"]
        for padding in 0..<17 {
            // Brackets after runs of every length up to two words.
            let digits = String(repeating: "7", count: padding)
            let pieces = pieces + ["[" + digits + "]", "[[" + (digits.isEmpty ? "0" : digits) + ", [" + digits + "]]]"]
            for count in 1...pieces.count {
                let inner = (0..<count).map { pieces[($0 * 7 + padding) % pieces.count] }
                let text = "{" + #""p": ""# + String(repeating: "x", count: padding) + #"", "a": ["#
                    + inner.joined(separator: ", ") + #"], "b": {"c": "#  + inner.joined(separator: #", "d": "#)
                    + "}, " + #""z": 1}"#
                let names: [StaticString] = ["p", "a", "b", "z"]
                let keys = read(text) { r throws(JSONBytes.Declined) -> [Int?] in
                    try r.enterObject()
                    var first = true
                    var keys: [Int?] = []
                    while let key = try r.nextKey(&first) {
                        keys.append(names.firstIndex { r.key(key, is: $0) })
                        let next = r.peek()
                        if next == UInt8(ascii: "[") || next == UInt8(ascii: "{") { try r.skipContainerLoosely() } else { try r.skipValue() }
                    }
                    return keys
                }
                #expect(keys == [0, 1, 2, 3], "\(text)")
            }
        }
    }

    @Test("loose skipping finds a container's end by its brackets and strings; a repeat is found by its bytes")
    func looseAndRepeats() {
        let text = #"{"a": [1, "]}\"", {"b": "{"}], "user": {"id": 1}, "again": {"id": 1}, "other": {"id": 2}}"#
        let result = read(text) { r throws(JSONBytes.Declined) -> [Bool] in
            try r.enterObject()
            var first = true
            var repeats: [Bool] = []
            var user: JSONBytes.Span?
            while let key = try r.nextKey(&first) {
                if r.key(key, is: "a") {
                    try r.skipContainerLoosely()
                } else if let user, r.repeats(user) {
                    repeats.append(true)
                    r.skip(repeating: user)
                } else {
                    _ = r.peek()
                    let start = r.position
                    try r.skipValue()
                    if user == nil { user = JSONBytes.Span(start: start, end: r.position) } else { repeats.append(false) }
                }
            }
            return repeats
        }
        #expect(result == [true, false])
    }
}
