import Testing
@testable import WshLanguage

/// `json get` through a script, with TEXT as a single-quoted word.
private func get(_ path: String, _ text: String) -> String {
    outputOf("json get '\(path)' '\(text)'")
}

private let timeline = """
    [{"id": 1, "user": {"screen_name": "a"}},
     {"id": 2, "user": {"screen_name": "b"}},
     {"id": 3, "user": {"screen_name": "c", "verified": true, "followers": 12345678901234567890123,
      "ratio": 1.50e3, "bio": null, "tags": ["x", "y"], "place": {"city": "Hangzhou"}}}]
    """

@Suite("JSON")
struct JSONTests {
    @Test("given every path form when getting then each reaches its value")
    func pathForms() {
        let object = #"{"statuses": [{"user": {"screen_name": "wsh"}}], "odd key \"q\"": 7, "_k9": 8}"#
        #expect(get(".statuses[0].user.screen_name", object) == "wsh\n")
        #expect(get(#".["odd key \"q\""]"#, object) == "7\n")
        #expect(get(#"."_k9""#, object) == "8\n")
        #expect(get("._k9", object) == "8\n")
        #expect(get(#".statuses[0]["user"].screen_name"#, object) == "wsh\n")
        #expect(get(".[2].user.screen_name", timeline) == "c\n")
        #expect(get(".[-1].id", timeline) == "3\n")
        #expect(get(".[-3].id", timeline) == "1\n")
        #expect(get(".", "[1, 2]") == "[1,2]\n")
        #expect(get(" .[0] ", "[1, 2]") == "1\n")
    }

    @Test("given each kind of value when printed then strings are plain, numbers as written, containers compact")
    func valueForms() {
        #expect(get(".[2].user.verified", timeline) == "true\n")
        #expect(get(".[2].user.ratio", timeline) == "1.50e3\n")
        #expect(get(".[2].user.bio", timeline) == "\n")
        #expect(get(".[2].user.tags", timeline) == #"["x","y"]"# + "\n")
        #expect(get(".[2].user.place", timeline) == #"{"city":"Hangzhou"}"# + "\n")
        #expect(get(".a", #"{"a": "line\nnext \"q\" \\ / \/"}"#) == "line\nnext \"q\" \\ / /\n")
        #expect(get(".a", #"{"a": [ "keep  spaces\t" , {} , [ ] ]}"#) == #"["keep  spaces\t",{},[]]"# + "\n")
        #expect(outputOf("assert $(json get '.[2].user.verified' '\(timeline)') == true; echo ok") == "ok\n")
    }

    @Test("given a big integer when got then its digits are exact, never through Double")
    func bigIntegers() {
        #expect(get(".[2].user.followers", timeline) == "12345678901234567890123\n")
        #expect(get(".id", #"{"id": 4611686018427387905}"#) == "4611686018427387905\n")
        #expect(get(".[0]", "[-0.000000000000000000001]") == "-0.000000000000000000001\n")
    }

    @Test("given unicode escapes when got then they are decoded, pairs included, in values and keys")
    func unicodeEscapes() {
        #expect(get(".a", #"{"a": "caf\u00e9 \ud83d\ude00 \u4e2d"}"#) == "café 😀 中\n")
        #expect(get(".café", #"{"caf\u00e9": 1}"#) == "!test.wsh:1: json: bad path \".café\": expected the end of the path at offset 4 (paths look like .a[0].b, .[\"key\"], .[-1], then | length or | keys)")
        #expect(get(#".["café"]"#, #"{"caf\u00e9": 1}"#) == "1\n")
        #expect(get(".a", #"{"a": "lone \udc00"}"#) == "lone \u{FFFD}\n")
    }

    @Test("given a path that does not exist when got then it fails naming the path and where it stopped")
    func missingPaths() {
        #expect(get(".[2].user.x", timeline) == #"!test.wsh:1: json: no key "x" at .[2].user"#)
        #expect(get(".[5].id", timeline) == "!test.wsh:1: json: no index 5 at .: the array has 3 elements")
        #expect(get(".[-4]", timeline) == "!test.wsh:1: json: no index -4 at .: the array has 3 elements")
        #expect(get(".[0].user.screen_name.x", timeline) == #"!test.wsh:1: json: no key "x" at .[0].user.screen_name: it is a string"#)
        #expect(get(".a[0]", #"{"a": {}}"#) == "!test.wsh:1: json: no index 0 at .a: it is an object")
        #expect(get(#".["a b"].c"#, #"{"a b": {}}"#) == #"!test.wsh:1: json: no key "c" at .["a b"]"#)
        let harness = Harness()
        #expect(harness.run("json get .x '{}'")?.status == 1)
        #expect(harness.run("try { json get .x '{}' } catch { echo $? $error }") == nil)
        #expect(harness.output == "1 no key \"x\" at .\n")
    }

    @Test("given text that is not JSON when read then one line says where it went wrong")
    func notJSON() {
        #expect(get(".", "{\"a\": 1,}") == "!test.wsh:1: json: not JSON: expected a key in quotes, found '}' at line 1, column 9")
        #expect(get(".", "[1, 2] x") == "!test.wsh:1: json: not JSON: expected the end of the text, found 'x' at line 1, column 8")
        #expect(get(".", "{\n  \"a\": tru }") == "!test.wsh:1: json: not JSON: expected a value, found 't' at line 2, column 8")
        #expect(get(".", "\"open") == "!test.wsh:1: json: not JSON: an unterminated string at line 1, column 1")
        #expect(get(".", "[01]") == "!test.wsh:1: json: not JSON: expected ',' or ']', found '1' at line 1, column 3")
        #expect(get(".", "  ") == "!test.wsh:1: json: not JSON: the text is empty")
        #expect(get(".a", "[1") == "!test.wsh:1: json: not JSON: expected ',' or ']', found the end at line 1, column 3")
        #expect(Harness().run("json get . 'nope'")?.status == 1)
    }

    @Test("given a bad path when got then it is a usage error that shows the forms")
    func badPath() {
        let harness = Harness()
        #expect(harness.run("json get 'a' '{}'")?.status == 2)
        #expect(harness.failure("json get '.a[x]' '{}'")?.contains("bad path \".a[x]\": expected an index or a quoted key after [ at offset 3") == true)
        #expect(harness.failure("json get '.a | sort' '{}'")?.contains("expected length or keys after |") == true)
        #expect(harness.failure("json get") == "test.wsh:1: json: missing PATH (usage: json get PATH [TEXT] | json valid [TEXT])")
        #expect(harness.failure("json put . 1")?.contains("unknown action \"put\"") == true)
    }

    @Test("given | length when got then arrays, objects, strings and null have one")
    func length() {
        #expect(get(". | length", timeline) == "3\n")
        #expect(get(".[2].user|length", timeline) == "7\n")
        #expect(get(".a | length", #"{"a": "中文😀\n"}"#) == "4\n")
        #expect(get(".a | length", #"{"a": null}"#) == "0\n")
        #expect(get(".a | length", #"{"a": []}"#) == "0\n")
        #expect(get(".a | length", #"{"a": 5}"#) == "!test.wsh:1: json: .a has no length: it is a number")
    }

    @Test("given | keys when got then object keys come sorted as a JSON array, array keys as indexes")
    func keys() {
        #expect(get(".[2].user.place | keys", timeline) == #"["city"]"# + "\n")
        #expect(get(". | keys", #"{"b": 1, "a": {"x": 2}, "a\"q": 3, "é": 4, "Z": 5}"#) == #"["Z","a","a\"q","b","é"]"# + "\n")
        #expect(get(". | keys", "[5, 6, 7]") == "[0,1,2]\n")
        #expect(get(". | keys", "{}") == "[]\n")
        #expect(get(".a | keys", #"{"a": true}"#) == "!test.wsh:1: json: .a has no keys: it is a boolean")
    }

    @Test("given documents of 1 MB and 4 MB when got then the bytes scanned grow linearly")
    func linearWork() throws {
        func document(statuses: Int) -> String {
            let status = #"{"id": 123456789, "text": "a \"quoted\" \u4e2d text [with] {braces}", "user": {"name": "n", "tags": [1, 2, 3]}}"#
            return "{\"statuses\": [" + Array(repeating: status, count: statuses).joined(separator: ",\n ") + "], \"last\": \"end\"}"
        }
        let small = document(statuses: 10_000)
        let large = document(statuses: 40_000)
        #expect(small.utf8.count > 1_000_000)
        for path in [".last", ".statuses[-1].user.name", ".statuses | length", ". | keys"] {
            let parsed = try JSONPath.parse(path)
            let smallWork = try JSONCommand.get(parsed, in: small).work
            let largeWork = try JSONCommand.get(parsed, in: large).work
            #expect(smallWork <= 3 * small.utf8.count, "\(path)")
            #expect(largeWork <= 3 * large.utf8.count, "\(path)")
            let ratio = Double(largeWork) / Double(smallWork)
            #expect(ratio > 3.5 && ratio < 4.5, "\(path): \(ratio)")
        }
        #expect(try JSONCommand.get(JSONPath.parse(".statuses[-1].user.name"), in: large).output == "n")
        // A document known to be valid skips the check: one pass up to the value.
        let early = try JSONCommand.get(JSONPath.parse(".statuses[0].id"), in: large, isKnownValid: true)
        #expect(early.output == "123456789" && early.work < 100)
    }

    @Test("given deep nesting when checked then it is iterative and does not overflow the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        #expect(outputOf("json valid '\(deep)'; echo ok") == "ok\n")
        #expect(outputOf("json get '. | length' '\(deep)'") == "1\n")
    }

    @Test("given json valid when text is or is not JSON then the status says so and nothing is printed")
    func valid() {
        let harness = Harness()
        #expect(harness.run("json valid '{\"a\": [1, 2.5e-3, true, null, \"s\"]}'") == nil)
        #expect(harness.interpreter.lastStatus == 0)
        #expect(harness.run("json valid '{\"a\": }'")?.status == 1)
        #expect(harness.run("json valid ' 42 '") == nil)
        #expect(harness.run("try { json valid 'nope' }; echo $?; try { json valid '[]' }; echo $?") == nil)
        #expect(harness.output == "1\n0\n")
        #expect(harness.failure("json valid '[1,]'") == "test.wsh:1: json: not JSON: expected a value, found ']' at line 1, column 4")
    }

    @Test("given a lazy $result document when a script reads it then it is made once, and json get reads it")
    func resultDocument() {
        let harness = Harness()
        var made = 0
        harness.interpreter.setResultDocument(lazy: {
            made += 1
            return timeline
        })
        #expect(harness.run("echo ready") == nil)
        #expect(made == 0)
        #expect(harness.run("assert $(json get '.[2].user.verified') == true; json get '.[0].user.screen_name'; json valid") == nil)
        #expect(harness.run("json get '. | length'; set n $result; echo $(json get '.[1].id' $n)") == nil)
        #expect(harness.output == "ready\na\n3\n2\n")
        #expect(made == 1)
        #expect(harness.failure("set result x") == "test.wsh:1: set: $result is read-only")
        #expect(harness.failure("let result = 1") == "test.wsh:1: let: $result is read-only")

        harness.interpreter.setResultDocument(nil)
        #expect(harness.failure("json get .a") == "test.wsh:1: json: no JSON document: give TEXT, or run a command that leaves one in $result")
        #expect(harness.run("echo \"[$result]\"") == nil)
        #expect(harness.output.hasSuffix("[]\n"))
    }

    @Test("given a host command that leaves a document when a script follows it then $result is that document")
    func hostLeavesDocument() {
        let harness = Harness()
        var encoded = 0
        harness.interpreter.register(CommandSpec(
            name: "fetch", abstract: "Fetch.", arguments: [ArgumentSpec("N")]
        ) { context in
            let count = Int(context.words.first ?? "1") ?? 1
            context.setResultDocument(lazy: {
                encoded += 1
                return "[" + (1...count).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
            })
        })
        #expect(harness.run("fetch 5; fetch 3; assert $(json get '. | length') == 3; echo $(json get '.[-1].id')") == nil)
        #expect(harness.output == "3\n")
        #expect(encoded == 1)
        harness.interpreter.setResultDocument("not json")
        #expect(harness.failure("json get .") == "test.wsh:1: json: not JSON: expected a value, found 'n' at line 1, column 1")
    }
}
