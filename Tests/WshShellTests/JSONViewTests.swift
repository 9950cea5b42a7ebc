import Foundation
import Testing
@testable import WshShell

/// `JSONView`: how `api` shows a server's answer (`pretty`, `raw`) and how
/// `--json` writes the ViewModels' documents (`encode`).
@Suite("JSONView")
struct JSONViewTests {
    private func pretty(_ text: String) -> String? { JSONView.pretty(Data(text.utf8)) }
    private func raw(_ text: String) -> String { JSONView.raw(Data(text.utf8)) }

    @Test("pretty keeps the server's key order, indents by two and ends in a newline")
    func pretty_keepsKeyOrderAndIndents() {
        let shown = pretty(#"{"zeta":1,"alpha":{"b":true,"a":null},"list":[1,"two",3.5]}"#)
        #expect(shown == """
            {
              "zeta": 1,
              "alpha": {
                "b": true,
                "a": null
              },
              "list": [
                1,
                "two",
                3.5
              ]
            }

            """)
    }

    @Test("pretty keeps empty objects and arrays on one line, at any depth")
    func pretty_emptyContainersStayCompact() {
        #expect(pretty("{}") == "{}\n")
        #expect(pretty("[ ]") == "[]\n")
        #expect(pretty(#"{"a":{},"b":[],"c":[{}]}"#) == """
            {
              "a": {},
              "b": [],
              "c": [
                {}
              ]
            }

            """)
    }

    @Test("pretty drops the server's own whitespace but keeps spaces inside strings")
    func pretty_whitespace() {
        #expect(pretty("{ \"a b\" :\n\t\"x  y\" }") == "{\n  \"a b\": \"x  y\"\n}\n")
    }

    @Test("pretty returns nil for what is not one JSON value")
    func pretty_nilForNonJSON() {
        #expect(pretty("Bad Gateway") == nil)
        #expect(pretty(#"{"a":"#) == nil)
        #expect(pretty("<html><h1>502 Bad Gateway</h1></html>") == nil)
        #expect(pretty("") == nil)
        #expect(pretty(#"{"a":1}{"b":2}"#) == nil)
    }

    @Test("pretty decodes escapes before sanitizing, so no escaped control sequence survives, whole or in part")
    func pretty_sanitizesEscapedControls() throws {
        let shown = try #require(pretty(#"{"text":"\u001b[2Jx","name":"\u009b31mred\u0007"}"#))
        #expect(shown == "{\n  \"text\": \"x\",\n  \"name\": \"red\"\n}\n")
        #expect(!shown.contains("[2J"))
        #expect(!shown.contains("\\u001b") && !shown.contains("\\u009b") && !shown.contains("\\u0007"))
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
    }

    @Test("pretty keeps ordinary escapes and non-ASCII text as the server sent them")
    func pretty_keepsHarmlessStrings() {
        #expect(pretty(#"{"t":"微博 \"q\" a\/b \n"}"#) == "{\n  \"t\": \"微博 \\\"q\\\" a\\/b \\n\"\n}\n")
    }

    @Test("raw keeps text that is not JSON as it came, spaces included, ending in one newline")
    func raw_keepsText() {
        #expect(raw("Bad Gateway") == "Bad Gateway\n")
        #expect(raw("Bad  Gateway\n") == "Bad  Gateway\n")
        #expect(raw("<h1>502 Bad Gateway</h1>\n<p>nginx</p>") == "<h1>502 Bad Gateway</h1>\n<p>nginx</p>\n")
        #expect(raw(#"{"a":"#) == "{\"a\":\n")
        #expect(raw("") == "")
    }

    @Test("raw removes terminal control sequences whole, and nothing around them")
    func raw_removesControlSequences() {
        #expect(raw("Bad \u{1B}[2JGateway") == "Bad Gateway\n")
        #expect(raw("\u{1B}]0;title\u{07}Bad Gateway") == "Bad Gateway\n")
        #expect(raw("a\u{9B}31mb\u{07}c") == "abc\n")
    }

    private struct Document: Encodable {
        var zeta: Int
        var alpha: String
        var url: String
        var missing: String?
        var empty: [Int]
    }

    @Test("encode sorts keys, keeps slashes, leaves out nil and ends in a newline")
    func encode_document() throws {
        let text = try JSONView.encode(Document(zeta: 1, alpha: "微博", url: "https://a/b", missing: nil, empty: []))
        #expect(text.hasSuffix("}\n"))
        #expect(!text.contains("\\/"))
        #expect(!text.contains("missing"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["alpha", "empty", "url", "zeta"])
        #expect(object["alpha"] as? String == "微博")
        #expect(object["url"] as? String == "https://a/b")
        let keyOrder = ["alpha", "empty", "url", "zeta"].map { text.range(of: "\"\($0)\"")!.lowerBound }
        #expect(keyOrder == keyOrder.sorted())
        // Pretty-printed: each key on a line of its own, indented.
        let keyLines = text.split(separator: "\n").filter { $0.contains("\"") }
        #expect(keyLines.count == 4, "one key per line:\n\(text)")
        #expect(keyLines.allSatisfy { $0.hasPrefix("  \"") })
    }

    @Test("encode of an array of documents is a JSON array, one element per block")
    func encode_array() throws {
        let text = try JSONView.encode([Document(zeta: 2, alpha: "a", url: "u", empty: [1])])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        #expect(array[0]["empty"] as? [Int] == [1])
        let empty = try JSONView.encode([Document]())
        #expect((try JSONSerialization.jsonObject(with: Data(empty.utf8)) as? [Any])?.isEmpty == true)
        #expect(empty.hasSuffix("]\n"))
    }
}
