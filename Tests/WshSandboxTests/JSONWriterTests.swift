import Testing
@testable import WshSandbox

@Suite("The sandbox's JSON writer")
struct JSONWriterTests {
    static func written(_ escaping: JSONWriter.Escaping = .plain, _ body: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        json.escaping = escaping
        body(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test("strings: quotes, backslashes and controls escaped, the rest as it is")
    func plainStrings() {
        let text = Self.written {
            $0.objectStart()
            $0.member("a", "say \"hi\" \\ bye")
            $0.member("b", "line\nnext\r\ttab \u{1B}[31m red \u{7F}")
            $0.member("c", "你好 😀 café")
            $0.member("d", "")
            $0.member("e", "\"")
            $0.objectEnd()
        }
        #expect(text == #"{"a":"say \"hi\" \\ bye","b":"line\nnext\r\ttab \u001b[31m red "# + "\u{7F}" +
            #"","c":"你好 😀 café","d":"","e":"\""}"#)
    }

    @Test("PHP's escaping: every non-ASCII UTF-16 unit as \\uXXXX, slashes as \\/")
    func phpStrings() {
        let text = Self.written(.php) { $0.member("t", "你好/😀 \"x\"\n") }
        #expect(text == #""t":"\u4f60\u597d\/\ud83d\ude00 \"x\"\n""#)
    }

    @Test("integers of every size and sign, as decimal digits")
    func integers() {
        let text = Self.written {
            $0.arrayStart()
            for value: Int64 in [0, 7, -7, 10, 4_000_000_000_000_001, Int64.max, Int64.min] { $0.int(value) }
            $0.int(UInt64.max)
            $0.int(Int8(-128))
            $0.arrayEnd()
        }
        #expect(text == "[0,7,-7,10,4000000000000001,9223372036854775807,-9223372036854775808,18446744073709551615,-128]")
    }
}
