import Foundation
import Testing
@testable import WshLanguage

@Suite("Interpreter")
struct InterpreterTests {
    @Test("given set and let when echoed then arithmetic follows precedence")
    func setLetEcho() {
        #expect(outputOf("set x 3; let y = $x * 2 + 1; echo $y") == "7\n")
    }

    @Test("given for over words when run then each word is bound in turn")
    func forLoop() {
        #expect(outputOf("for i in a b c { echo $i }") == "a\nb\nc\n")
        #expect(outputOf("set l 'x y'; for i in $l { echo $i }; for i in \"$l\" { echo $i }") == "x\ny\nx y\n")
    }

    @Test("given if, elif and else when run then exactly one branch runs")
    func ifElifElse() {
        let script = "def f { if $1 == 1 { echo one } elif $1 == 2 { echo two } else { echo many } }; f 1; f 2; f 3"
        #expect(outputOf(script) == "one\ntwo\nmany\n")
        #expect(outputOf("if {3 > 1} { echo braced }") == "braced\n")
        #expect(outputOf("set x 3; if $x==3 { echo glued }") == "glued\n")
    }

    @Test("given while, repeat, break and continue when run then loops stop and skip")
    func loops() {
        #expect(outputOf("set i 0; while $i < 3 { echo $i; let i = $i + 1 }") == "0\n1\n2\n")
        #expect(outputOf("repeat 2 { echo r }") == "r\nr\n")
        let script = "for i in 1 2 3 4 5 { if $i == 2 { continue }; if $i == 4 { break }; echo $i }"
        #expect(outputOf(script) == "1\n3\n")
        #expect(outputOf("set i 0; while 1 { let i = $i + 1; if $i > 2 { break } }; echo $i") == "3\n")
    }

    @Test("given def with arguments when called then $1, $# and $@ are the call's")
    func functions() {
        #expect(outputOf("def f { echo $# $1 $2 \"$@\" }; f a b") == "2 a b a b\n")
        #expect(outputOf("def f { return 3 }; f; echo $?") == "3\n")
        #expect(outputOf("def f { set x local }; set x global; f; echo $x") == "global\n")
        #expect(outputOf("set g 5; def f { let y = $g + 1; echo $y }; f") == "6\n")
    }

    @Test("given recursion when run then it computes through the explicit call stack")
    func recursion() {
        let script = "def fact { if $1 <= 1 { echo 1; return }; let r = $1 * $(fact $($1 - 1)); echo $r }; fact 10"
        #expect(outputOf(script.replacingOccurrences(of: "$($1 - 1)", with: "$(expr $1 - 1)")) == "3628800\n")
    }

    @Test("given unbounded recursion when run then it fails with recursion too deep")
    func unboundedRecursion() {
        let harness = Harness()
        let error = harness.run("def f { f }; f")
        #expect(error?.message.contains("recursion too deep") == true)
        #expect(error?.status == 1)
        // The interpreter is usable afterwards.
        #expect(harness.run("echo ok") == nil)
        #expect(harness.output == "ok\n")
    }

    @Test("given 1000 nested calls when run on a 512 KiB thread then they fit")
    func deepCallsOnSmallStack() async {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let thread = Thread {
                continuation.resume(returning: outputOf(
                    "def f { if $1 < 999 { f $(expr $1 + 1) } else { echo depth $1 } }; f 0"))
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(result == "depth 999\n")
    }

    @Test("given 1000 nested calls when run on the test thread then they fit")
    func deepCallsOnTestThread() {
        #expect(outputOf("def f { if $1 < 999 { f $(expr $1 + 1) } else { echo depth $1 } }; f 0") == "depth 999\n")
    }

    @Test("given try and catch when the body fails then $? and $error describe the failure")
    func tryCatch() {
        #expect(outputOf("try { expr 1 / 0 } catch { echo $? $error }") == "1 division by zero\n")
        #expect(outputOf("try { nosuch } catch { echo $error }; echo after") == "unknown command\nafter\n")
        #expect(outputOf("def f { expr 1 % 0 }; try { f } catch { echo caught }") == "caught\n")
        #expect(outputOf("for i in a b { try { assert 0 } catch { echo $i } }") == "a\nb\n")
    }

    @Test("given command substitution when expanded then output is captured without trailing newline")
    func substitution() {
        #expect(outputOf("set x $(echo a; echo b); echo \"[$x]\"") == "[a\nb]\n")
        #expect(outputOf("echo $(expr 2 + 3)x") == "5x\n")
    }

    @Test("given expressions when evaluated then numbers, strings and logic work")
    func expressions() {
        #expect(outputOf("expr (1 + 2) * 3") == "9\n")
        #expect(outputOf("expr 7 / 2") == "3\n")
        #expect(outputOf("expr 7.0 / 2") == "3.5\n")
        #expect(outputOf("expr -3 + 1") == "-2\n")
        #expect(outputOf("expr 1 < 2 && !(2 < 1) || 0") == "1\n")
        #expect(outputOf("set n alice; expr $n == alice") == "1\n")
        #expect(outputOf("expr \"b\" > \"a\"") == "1\n")
        #expect(outputOf("expr 10 % 3 == 1") == "1\n")
    }

    @Test("given overflow or division by zero when evaluated then it is an error, not a crash")
    func arithmeticErrors() {
        #expect(outputOf("expr 9223372036854775807 + 1").contains("integer overflow"))
        #expect(outputOf("expr -9223372036854775807 - 2").contains("integer overflow"))
        #expect(outputOf("expr 1 / 0").contains("division by zero"))
        #expect(outputOf("expr 1.5 / 0").contains("division by zero"))
        #expect(outputOf("expr abc + 1").contains("expected a number"))
        #expect(outputOf("expr 99999999999999999999999").contains("out of range"))
    }

    @Test("given assert when the condition fails then the message or condition is reported")
    func assertions() {
        #expect(outputOf("assert 1 == 1; echo ok") == "ok\n")
        #expect(outputOf("set x 2; assert $x == 3") == "!test.wsh:1: assert: assertion failed: $x == 3")
        #expect(outputOf("assert 1 == 2 \"numbers differ\"") == "!test.wsh:1: assert: numbers differ")
    }

    @Test("given unset when a variable is read afterwards then it is an error")
    func unsetVariable() {
        #expect(outputOf("set x 1; unset x; echo $x") == "!test.wsh:1: echo: no such variable: $x")
        #expect(outputOf("set x 5; set x") == "5\n")
        #expect(outputOf("set n y; set $n 4; echo $y") == "4\n")
    }

    @Test("given a script whose third line fails when run then it stops there with FILE:3")
    func stopsAtFailure() {
        let harness = Harness()
        let error = harness.run("echo one\necho two\nnosuch arg\necho four", file: "s.wsh")
        #expect(harness.output == "one\ntwo\n")
        #expect(error?.status == 1)
        #expect(error.flatMap { ErrorReport($0, interactive: false).message } == "s.wsh:3: nosuch: unknown command")
        #expect(error.flatMap { ErrorReport($0, interactive: true).message } == "nosuch: unknown command")
    }

    @Test("given a chunk with a first line number when it fails then the line is offset")
    func firstLineOffset() {
        let harness = Harness()
        let error = harness.run("echo a\nexpr 1 / 0", file: "s.wsh", firstLine: 20)
        #expect(error.flatMap { ErrorReport($0, interactive: false).message } == "s.wsh:21: expr: division by zero")
    }

    @Test("given exit N when run then it requests status N without a message")
    func exitStatus() {
        let harness = Harness()
        let error = harness.run("echo a; exit 3; echo b")
        #expect(error?.kind == .exit(3))
        #expect(ErrorReport(error!, interactive: false) == ErrorReport(error!, interactive: true))
        #expect(ErrorReport(error!, interactive: false).status == 3)
        #expect(ErrorReport(error!, interactive: false).message == nil)
        #expect(harness.run("try { exit 4 } catch { echo no }")?.kind == .exit(4))
        #expect(harness.run("exit 300")?.status == 2)
    }

    @Test("given an unclosed quote at the end of input when run then it is a syntax error with status 2")
    func unclosedQuote() {
        let harness = Harness()
        let error = harness.run("echo \"abc")
        #expect(error?.status == 2)
        #expect(error?.isIncompleteInput == true)
        #expect(error.flatMap { ErrorReport($0, interactive: false).message }
            == "test.wsh:1: syntax error: missing close-quote \"")
    }

    @Test("given misuse of built-ins when run then usage errors have status 2 and run in order")
    func builtinUsage() {
        let harness = Harness()
        let error = harness.run("echo before\nlet x 3")
        #expect(harness.output == "before\n")
        #expect(error?.status == 2)
        #expect(error?.position?.line == 2)
        #expect(harness.run("break")?.status == 2)
        #expect(harness.run("else { }")?.status == 2)
    }

    @Test("given the status variable when commands run then $? follows them")
    func statusVariable() {
        #expect(outputOf("try { expr 1 / 0 } ; echo $?") == "1\n")  // try without catch keeps the failed status
        #expect(outputOf("def f { return 7 }; f; echo $?; echo $?") == "7\n0\n")
    }

    @Test("given script arguments when the host sets them then $1, $# and $@ read them")
    func scriptArguments() {
        let harness = Harness()
        harness.interpreter.scriptArguments = ["x", "y"]
        harness.run("echo $# $1 $2 $3. $@")
        #expect(harness.output == "2 x y . x y\n")
    }

    @Test("given an interrupt request when a loop runs then it stops with status 130")
    func interrupt() {
        let harness = Harness()
        var checks = 0
        harness.interpreter.interruptRequested = {
            checks += 1
            return checks > 100
        }
        let error = harness.run("while 1 { }")
        #expect(error?.kind == .interrupted)
        #expect(error?.status == 130)
        #expect(harness.run("try { while 1 { } } catch { echo caught }")?.kind == .interrupted)
    }

    @Test("given a step limit when a script loops forever then it stops with an uncatchable error")
    func stepLimit() {
        let harness = Harness()
        harness.interpreter.stepLimit = 1000
        #expect(harness.run("try { while 1 { } } catch { echo no }")?.kind == .stepLimitExceeded)
        #expect(harness.output == "")
    }

    @Test("given source when a file is read then it runs and its errors name that file and line")
    func source() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.wsh").path
        let bad = directory.appendingPathComponent("bad.wsh").path
        let loop = directory.appendingPathComponent("loop.wsh").path
        try "set fromFile 1\ndef g { echo g }\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "echo fine\n\nexpr 1 / 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try "source \(loop)\n".write(toFile: loop, atomically: true, encoding: .utf8)
        let harness = Harness()
        #expect(harness.run("source \(good); echo $fromFile; g") == nil)
        #expect(harness.output == "1\ng\n")
        #expect(harness.failure("source \(bad)") == "\(bad):3: expr: division by zero")
        #expect(harness.failure("source \(loop)")?.contains("nested deeper") == true)
        #expect(harness.failure("source /nonexistent/x.wsh")?.contains("cannot read") == true)
    }

    @Test("given a host source loader when source runs then the loader supplies the text")
    func sourceLoader() {
        let harness = Harness()
        harness.interpreter.sourceLoader = { path in Array("echo loaded \(path)".utf8) }
        harness.run("source lib.wsh")
        #expect(harness.output == "loaded lib.wsh\n")
    }

    @Test("given invalid UTF-8 and NUL bytes when executed then they are syntax errors")
    func invalidInput() {
        let interpreter = Interpreter()
        #expect(throws: LanguageError.self) { try interpreter.execute(bytes: [0x65, 0x63, 0xFE]) }
        #expect(throws: LanguageError.self) { try interpreter.execute("echo a\u{0}") }
        #expect(interpreter.lastStatus == 2)
    }

    @Test("given a 100 000-line script when run then it finishes quickly")
    func longScript() {
        let script = String(repeating: "let x = $x + 1\n", count: 100_000)
        let harness = Harness()
        harness.interpreter.setVariable("x", to: 0)
        let elapsed = ContinuousClock().measure { harness.run(script) }
        #expect(harness.interpreter.variable("x") == .int(100_000))
        #expect(elapsed < .seconds(20))
    }

    @Test("given a one-megabyte line when run then it finishes quickly")
    func longLine() {
        let harness = Harness()
        let line = "echo " + String(repeating: "abcd ", count: 200_000)
        harness.run(line)
        #expect(harness.output.utf8.count == 1_000_000)
    }

    @Test("given the benchmark loop when run then it prints 2999997")
    func benchmarkLoop() {
        let script = "set s 0; set i 0; while $i < 1000000 { let s = $s + $i % 7; let i = $i + 1 }; echo $s"
        #expect(outputOf(script) == "2999997\n")
    }
}

@Suite("Limits")
struct LimitTests {
    @Test("given parentheses nested through substitutions when compiled then depth is limited")
    func nestedExpressionDepth() {
        var script = "1"
        for _ in 0..<60 { script = "$(expr " + String(repeating: "(", count: 50) + script + String(repeating: ")", count: 50) + ")" }
        let harness = Harness()
        let error = harness.run("expr " + script)
        #expect(error?.message.contains("nested deeper") == true)
    }

    @Test("given strings doubling in a loop when run then the length cap stops them")
    func stringCap() {
        let harness = Harness()
        harness.interpreter.maxStringLength = 1 << 12
        let error = harness.run("set a x; repeat 100 { set a $a$a }")
        #expect(error?.message.contains("longer than") == true)
    }
}

@Suite("Names")
struct NameTests {
    @Test("given an invalid variable name when set then it is a usage error")
    func invalidName() {
        #expect(outputOf("set 1 x") == "!test.wsh:1: set: invalid variable name \"1\"")
        #expect(outputOf("set n 'a b'; set $n x") == "!test.wsh:1: set: invalid variable name \"a b\"")
    }

    @Test("given a language form called through a variable when run then the error names it")
    func indirectForm() {
        #expect(outputOf("set c if; $c 1 { }") == "!test.wsh:1: if: part of the language; write the name literally")
    }
}
