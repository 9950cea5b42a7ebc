import Testing
@testable import WshLanguage

@Suite("Parser")
struct ParserTests {
    @Test("given words of every form when parsed then each keeps its form and text")
    func wordForms() throws {
        let script = try Parser.parse(#"echo bare 'single $x' "double $x" {block}"#)
        let words = script.commands[0].words
        #expect(words.count == 5)
        #expect(words[1].form == .bare([.literal("bare")]))
        #expect(words[2].form == .singleQuoted("single $x"))
        #expect(words[3].form == .doubleQuoted([.literal("double "), .variable("x")]))
        guard case .block(let text, _) = words[4].form else {
            Issue.record("expected a block")
            return
        }
        #expect(text == "block")
    }

    @Test("given a script when parsed then commands and words carry file, line and column")
    func positions() throws {
        let script = try Parser.parse("echo a\n  set x  1; echo b", file: "f.wsh", firstLine: 10)
        #expect(script.commands.count == 3)
        #expect(script.commands[1].position == SourcePosition(file: "f.wsh", line: 11, column: 3))
        #expect(script.commands[1].words[2].position.column == 10)
        #expect(script.commands[2].position == SourcePosition(file: "f.wsh", line: 11, column: 13))
    }

    @Test("given substitutions when parsed then variables, braces and $( ) become parts")
    func substitutions() throws {
        let script = try Parser.parse(#"echo ${a}b$c$(echo x)$? $1 $#"#)
        let parts = script.commands[0].words[1].form
        guard case .bare(let list) = parts else {
            Issue.record("expected a bare word")
            return
        }
        #expect(list.count == 5)
        #expect(list[0] == .variable("a"))
        #expect(list[1] == .literal("b"))
        #expect(list[2] == .variable("c"))
        #expect(list[4] == .variable("?"))
    }

    @Test("given double-quote escapes when parsed then they become characters")
    func escapes() throws {
        let script = try Parser.parse(#"echo "a\tb\nc\\d\"e\$f""#)
        #expect(script.commands[0].words[1].literalText == "a\tb\nc\\d\"e$f")
    }

    @Test("given comments, semicolons and continuations when parsed then commands split right")
    func separators() throws {
        let script = try Parser.parse("# comment\necho a # trailing\necho b; echo c \\\n  d")
        #expect(script.commands.count == 3)
        #expect(script.commands[2].words.count == 3)
    }

    @Test("given a # after the first word when parsed then it comments only when a space or the line end follows")
    func trailingHash() throws {
        let script = try Parser.parse("#!/usr/bin/env wsh\n#note\npost hello #wsh# 世界 # a comment\necho a #\necho x#y")
        #expect(script.commands.count == 3)
        #expect(script.commands[0].words.map(\.literalText) == ["post", "hello", "#wsh#", "世界"])
        #expect(script.commands[1].words.map(\.literalText) == ["echo", "a"])
        #expect(script.commands[2].words.map(\.literalText) == ["echo", "x#y"])
    }

    @Test("given open quotes, braces, $( or a trailing backslash when checked then input is incomplete")
    func incomplete() {
        #expect(!Parser.isComplete("echo \"abc"))
        #expect(!Parser.isComplete("echo 'abc"))
        #expect(!Parser.isComplete("if 1 {\n echo a"))
        #expect(!Parser.isComplete("echo $(echo a"))
        #expect(!Parser.isComplete("echo a \\"))
        #expect(Parser.isComplete("if 1 {\n echo a\n}"))
        #expect(Parser.isComplete("echo }"))  // an error, but more input would not help
    }

    @Test("given an unclosed quote when parsed then the syntax error points at the quote")
    func unclosedQuotePosition() {
        #expect(throws: LanguageError(
            .syntax, "missing close-quote \"", position: SourcePosition(file: "-", line: 2, column: 6),
            isIncompleteInput: true)) {
            try Parser.parse("echo a\necho \"abc")
        }
    }

    @Test("given invalid UTF-8 or a NUL byte when parsed then it is a syntax error")
    func invalidBytes() {
        #expect(throws: LanguageError.self) { try Parser.parse(bytes: [0x65, 0xFF, 0x0A]) }
        #expect(throws: LanguageError.self) { try Parser.parse(bytes: [0x65, 0xC0, 0x80]) }
        #expect(throws: LanguageError.self) { try Parser.parse(bytes: Array("echo a\u{0}b".utf8)) }
        #expect((try? Parser.parse(bytes: Array("echo 微博 ✓".utf8))) != nil)
    }

    @Test("given blocks nested deeper than the limit when parsed then it is an error, not a crash")
    func nestingLimit() {
        let deep = String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        #expect(throws: LanguageError.self) { try Parser.parse("echo " + deep) }
        let substitutions = String(repeating: "$(", count: 10_000)
        #expect(throws: LanguageError.self) { try Parser.parse("echo " + substitutions) }
    }

    @Test("given a one-megabyte line when parsed then it parses quickly")
    func longLine() throws {
        let line = "echo " + String(repeating: "word ", count: 200_000)
        let clock = ContinuousClock()
        let elapsed = try clock.measure { _ = try Parser.parse(line) }
        #expect(elapsed < .seconds(10))
    }
}
