import Foundation
import Testing
@testable import WshLanguage

/// The fast paths of the machine — operands read in place, fused compare-and-jump,
/// loops checked at the bottom, in-place appends, calls that keep their words on the
/// stack — behave exactly as the plain instructions did.
@Suite("Machine")
struct MachineTests {
    /// The instructions of one compiled chunk.
    private func compiled(_ source: String) throws -> CodeUnit {
        let script = try Parser.parse(source, file: "test.wsh", firstLine: 1)
        return Compiler.compile(script, name: "test.wsh", globals: GlobalVariables())
    }

    // MARK: Shapes

    @Test("given the standard loop when compiled then an iteration is four instructions")
    func loopShape() throws {
        let unit = try compiled("set s 0; set i 0; while $i < 1000000 { let s = $s + $i % 7; let i = $i + 1 }")
        let code = unit.instructions
        let back = try #require(code.firstIndex { $0.opcode == .loopCompareJump })
        // body: `$i % 7` pushed, `$s + it` into s, `$i + 1` into i; then the check.
        #expect(back - code[back].target == 3)
        #expect(code[code[back].target..<back].allSatisfy { $0.opcode == .binary })
        #expect(!code.contains { $0.opcode == .loadGlobal || $0.opcode == .loopCheck || $0.opcode == .jumpIfFalse })
    }

    @Test("given an operation whose result the next one takes when frozen then the machine runs the two as one step")
    func pairedOperationsShape() throws {
        let unit = try compiled("set s 0; set i 0; while $i < 1000000 { let s = $s + $i % 7; let i = $i + 1 }")
        let code = Array(unit.frozenCode)
        let back = try #require(code.firstIndex { $0.opcode == .loopCompareJump })
        let body = code[code[back].target..<back].map(\.opcode)
        // `$s + $i % 7` into s in one step, and `let i = $i + 1` runs the back edge itself.
        #expect(body == [.accumulateIntoNext, .binary, .stepThenLoopJump])
        // The compiled code stays as it was; only what the machine reads changes.
        #expect(!unit.instructions.contains { $0.opcode.isFrozenPair })
        // Other shapes keep the general pairs: a sum into another variable, a step
        // by a variable, a condition that reads another variable first.
        let other = Array(
            try compiled("set s 0; set i 0; set n 9; while $i < $n { let t = $s + $i % 7; let i = $i + $s }").frozenCode)
        #expect(other.contains { $0.opcode == .binaryIntoNext } && other.contains { $0.opcode == .binaryThenLoopJump })
        let reversed = Array(try compiled("set i 0; set n 9; while $n > $i { let i = $i + 1 }").frozenCode)
        #expect(reversed.contains { $0.opcode == .binaryThenLoopJump })
    }

    @Test("given if with a comparison when compiled then the comparison jumps itself")
    func ifShape() throws {
        let unit = try compiled("set x 1; if $x < 2 { echo a } else { echo b }")
        #expect(unit.instructions.contains { $0.opcode == .compareJumpIfFalse })
        #expect(!unit.instructions.contains { $0.opcode == .jumpIfFalse })
    }

    // MARK: Step limit and interrupts

    @Test("given a step limit when fused loops run then every check counts as before")
    func stepLimitCounts() {
        // A loop of N iterations takes N + 1 steps (the last check fails), a call one.
        let cases: [(String, Bool)] = [
            ("set i 0; while $i < 9 { let i = $i + 1 }", true),
            ("set i 0; while $i < 10 { let i = $i + 1 }", false),
            ("for x in 1 2 3 4 5 6 7 8 9 { }", true),
            ("for x in 1 2 3 4 5 6 7 8 9 10 { }", false),
            ("repeat 9 { }", true),
            ("repeat 10 { }", false),
            ("def f { }; repeat 4 { f }; f", true),
            ("def f { }; repeat 4 { f }; f; f", false),
            ("set i 0; while $i < 9 && 1 { let i = $i + 1 }", true),
            ("set i 0; while $i < 10 && 1 { let i = $i + 1 }", false),
        ]
        for (script, fits) in cases {
            let harness = Harness()
            harness.interpreter.stepLimit = 10
            let error = harness.run(script)
            if fits {
                #expect(error == nil, "\(script)")
            } else {
                #expect(error?.kind == .stepLimitExceeded, "\(script)")
            }
        }
    }

    @Test("given a step limit when an endless fused loop runs then it stops, uncaught")
    func stepLimitStopsFusedLoop() {
        for script in [
            "set i 0; try { while $i >= 0 { let i = $i + 1 } } catch { echo no }",
            "set i 0; try { while 1 { let i = $i + 1 } } catch { echo no }",
            "set i 0; try { repeat 100000000 { let i = $i + 1 } } catch { echo no }",
            "def f { while $1 < 2 { } }; try { f 1 } catch { echo no }",
        ] {
            let harness = Harness()
            harness.interpreter.stepLimit = 5000
            #expect(harness.run(script)?.kind == .stepLimitExceeded, "\(script)")
            #expect(harness.output == "")
        }
    }

    @Test("given Ctrl-C when a fused loop runs then it stops promptly with status 130")
    func interruptStopsFusedLoop() {
        for script in [
            "set i 0; while $i < 1000000000 { let i = $i + 1 }",
            "set i 0; try { while $i >= 0 { let i = $i + 1 } } catch { echo caught }",
            "set i 0; repeat 1000000000 { let i = $i + 1 }",
            "set i 0; set k 0; while $k < 1 { let i = $i + 1 }",
        ] {
            let harness = Harness()
            var checks = 0
            harness.interpreter.interruptRequested = {
                checks += 1
                return checks > 3
            }
            let error = harness.run(script)
            #expect(error?.kind == .interrupted, "\(script)")
            #expect(error?.status == 130)
            #expect(harness.output == "")
            // Asked at least every `interruptInterval` iterations.
            let iterations = harness.interpreter.variable("i")?.intValue ?? .max
            #expect(iterations <= 4 * Registers.interruptInterval, "\(script)")
        }
    }

    @Test("given Ctrl-C when a loop calls a function then the call sees it at once")
    func interruptAtCalls() {
        let harness = Harness()
        var checks = 0
        harness.interpreter.interruptRequested = {
            checks += 1
            return checks > 3
        }
        harness.run("set n 0; def f { global n; let n = $n + 1 }; while 1 { f }")
        // Each call asks (the loop's own checks are rarer).
        #expect(harness.interpreter.variable("n")?.intValue ?? .max <= 3)
    }

    // MARK: Errors

    @Test("given an unset variable in a fused operand then the error names it, left first")
    func unsetOperands() {
        #expect(outputOf("set i 1; let s = $s + $i % 7") == "!test.wsh:1: let: no such variable: $s")
        #expect(outputOf("set s 1; let s = $s + $i % 7") == "!test.wsh:1: let: no such variable: $i")
        #expect(outputOf("let s = $s + $i % 7") == "!test.wsh:1: let: no such variable: $s")
        #expect(outputOf("set a 1; let x = $a + ($b + $c % 2)") == "!test.wsh:1: let: no such variable: $b")
        #expect(outputOf("let x = $a + ($b + $c % 2)") == "!test.wsh:1: let: no such variable: $a")
        #expect(outputOf("set c 1; let x = $a + ($b + $c % 0)") == "!test.wsh:1: let: no such variable: $a")
        #expect(outputOf("set a 1; set c 1; let x = $a + $c % 0") == "!test.wsh:1: let: division by zero")
        #expect(outputOf("let x = 1 + $y") == "!test.wsh:1: let: no such variable: $y")
        #expect(outputOf("set i 0\nwhile $i < $n {\n  let i = $i + 1\n}") == "!test.wsh:2: while: no such variable: $n")
        #expect(outputOf("set i 0\nwhile $i < 3 {\n  let i = $i + $step\n}") == "!test.wsh:3: let: no such variable: $step")
        #expect(outputOf("if $flag == 1 { echo yes }") == "!test.wsh:1: if: no such variable: $flag")
        #expect(outputOf("def f { let x = $y + $z % 2 }; f") == "!test.wsh:1: let: no such variable: $y")
        #expect(outputOf("def f { let x = $1 + $z % 2 }; f 1") == "!test.wsh:1: let: no such variable: $z")
        // A command in the right operand still runs after the left is read.
        #expect(outputOf("let x = $a + $(echo 1)") == "!test.wsh:1: let: no such variable: $a")
    }

    @Test("given overflow in a fused operation then it fails as before and assigns nothing")
    func overflowInFusedOperations() {
        #expect(
            outputOf("set x 9223372036854775807; let x = $x + 1")
                == "!test.wsh:1: let: integer overflow in 9223372036854775807 + 1")
        #expect(
            outputOf("set x 9223372036854775807; try { let x = $x + 1 } catch { }; echo $x")
                == "9223372036854775807\n")
        #expect(
            outputOf("set i 9223372036854775805; while $i > 0 { let i = $i + 1 }")
                == "!test.wsh:1: let: integer overflow in 9223372036854775807 + 1")
        #expect(
            outputOf("set m -9223372036854775808; let z = $m % -1")
                == "!test.wsh:1: let: integer overflow in -9223372036854775808 % -1")
        #expect(outputOf("set x 1e308; let x = $x * 10") == "!test.wsh:1: let: decimal overflow in 1e308 * 10")
        #expect(outputOf("set x 5; let y = $x % 0") == "!test.wsh:1: let: division by zero")
        #expect(
            outputOf("set x abc; let y = $x + 1") == "!test.wsh:1: let: expected a number for + but got \"abc\"")
        // Integers too large for an operand go through the constant table.
        #expect(outputOf("set i 5; let j = $i - 100000000000; echo $j") == "-99999999995\n")
    }

    @Test("given an operation whose result the next one takes when either fails or is no integer then it behaves as two")
    func pairedOperations() {
        #expect(
            outputOf("set s 9223372036854775807; set i 1; let s = $s + $i % 7")
                == "!test.wsh:1: let: integer overflow in 9223372036854775807 + 1")
        #expect(
            outputOf("set s 9223372036854775807; set i 1; try { let s = $s + $i % 7 } catch { }; echo $s")
                == "9223372036854775807\n")
        #expect(
            outputOf("set i 9223372036854775807; let s = 1 + $i * 2")
                == "!test.wsh:1: let: integer overflow in 9223372036854775807 * 2")
        #expect(outputOf("set s 1; set i 7; let s = $s + $i % 0") == "!test.wsh:1: let: division by zero")
        #expect(outputOf("set s 1.5; set i 9; let s = $s + $i % 7; echo $s") == "3.5\n")
        #expect(outputOf("set s 1; set i 2.5; let s = $s + $i * 2; echo $s") == "6.0\n")
        #expect(outputOf("set s x; set i 3; let s = $s + $i % 7") == "!test.wsh:1: let: expected a number for + but got \"x\"")
        #expect(outputOf("set i 3; let x = $i * 2 - 1 * 3; echo $x") == "3\n")
        #expect(outputOf("set t 0; set i 0; while $i < 5 { let t = $t + $i * $i; let i = $i + 1 }; echo $t") == "30\n")
        #expect(outputOf("def f { let x = $1 - $2 * 3; echo $x }; f 10 2") == "4\n")
        #expect(outputOf("set a 0; set b 4; let x = $b - ($a || $b * 2); echo $x") == "3\n")
        // An assignment that runs the loop's back edge: its errors and the check's are their own.
        #expect(
            outputOf("set i 0\nwhile $i > -1 {\n  let i = $i + 4611686018427387904\n}")
                == "!test.wsh:3: let: integer overflow in 4611686018427387904 + 4611686018427387904")
        #expect(outputOf("set i 0\nwhile $i < $n {\n  let i = $i + 1\n}") == "!test.wsh:2: while: no such variable: $n")
        #expect(outputOf("set i 0; while $i < 2.5 { let i = $i + 0.5 }; echo $i") == "2.5\n")
        #expect(outputOf("set i 0; set n 0; while $i < 10 { let i = $i + 1; if $i > 5 { continue }; let n = $n + 1 }; echo $i $n") == "10 5\n")
    }

    @Test("given a sum or a step on integer variables when run in place then errors, types and $? are as before")
    func inPlacePairs() {
        // Overflow, division by zero and a non-number: the same message, at the same
        // command, and the variable keeps its value.
        #expect(
            outputOf("set s 9223372036854775807; set i 1; while $i < 3 { let s = $s + $i % 7; let i = $i + 1 }")
                == "!test.wsh:1: let: integer overflow in 9223372036854775807 + 1")
        #expect(
            outputOf("set s 5; set i 1; try { while $i < 3 { let s = $s + $i % 0; let i = $i + 1 } } catch { echo $error }; echo $s $i")
                == "division by zero\n5 1\n")
        #expect(
            outputOf("set i 9223372036854775806\nwhile $i > 0 {\n  let i = $i + 1\n}")
                == "!test.wsh:3: let: integer overflow in 9223372036854775807 + 1")
        #expect(
            outputOf("set i -9223372036854775700; try { while $i < 1 { let i = $i - 100 } } catch { echo $error }; echo $i")
                == "integer overflow in -9223372036854775800 - 100\n-9223372036854775800\n")
        #expect(
            outputOf("set s x; set i 0; while $i < 3 { let s = $s + $i % 7; let i = $i + 1 }")
                == "!test.wsh:1: let: expected a number for + but got \"x\"")
        // Decimals and number strings go the general way and give what they gave.
        #expect(
            outputOf("set s 0.5; set i 0; while $i < 4 { let s = $s + $i % 3; let i = $i + 1 }; echo $s $i")
                == "3.5 4\n")
        #expect(
            outputOf("set s \"3\"; set i \"0\"; while $i < 4 { let s = $s + $i % 3; let i = $i + 1 }; echo $s $i")
                == "6 4\n")
        #expect(outputOf("set i 0.5; while $i < 3 { let i = $i + 1 }; echo $i") == "3.5\n")
        // A variable that changes type inside the loop, both ways.
        #expect(
            outputOf("set s 0; set i 0; while $i < 6 { let s = $s + $i % 4; if $i == 2 { let s = $s * 1.5 }; if $i == 4 { set s 7 }; let i = $i + 1 }; echo $s")
                == "8\n")
        #expect(
            outputOf("set i 0; while $i < 6 { let i = $i + 1; if $i == 2 { set i 2.5 }; if $i == 3.5 { set i \"4\" } }; echo $i")
                == "6\n")
        // The bound read from a variable, a decimal, a string; a step that is not +1.
        #expect(outputOf("set n 3; set i 0; while $i < $n { let i = $i + 1 }; echo $i") == "3\n")
        #expect(outputOf("set n 2.5; set i 0; while $i < $n { let i = $i + 1 }; echo $i") == "3\n")
        #expect(outputOf("set n abc; set i 0; while $i < $n { if $i > 5 { break }; let i = $i + 1 }; echo $i") == "6\n")
        #expect(
            outputOf("set i 20; set c 0; while $i >= 0 { let c = $c + $i % 3; let i = $i - 3 }; echo $i $c")
                == "-1 14\n")
        #expect(outputOf("set i 1; while $i <= 100 { let i = $i * 3 }; echo $i") == "243\n")
        // The same variable on both sides of the sum.
        #expect(outputOf("set s 1; set i 0; while $i < 3 { let s = $s + $s % 5; let i = $i + 1 }; echo $s") == "8\n")
        // `$?` after the in-place assignments is 0, as after `let`.
        #expect(
            outputOf("def f { return 3 }; set s 0; set i 0; while $i < 2 { f; let s = $s + $i % 7; echo $?; f; let i = $i + 1 }; echo $?")
                == "0\n0\n0\n")
        // Locals in a function, an unset local reading the script-scope value, and
        // a local that shadows it.
        #expect(
            outputOf("def f { set s 0; set i 0; while $i < 5 { let s = $s + $i % 3; let i = $i + 1 }; echo $s $i }; f")
                == "4 5\n")
        #expect(
            outputOf("set s 10; set i 2; def f { while $i < 5 { let s = $s + $i % 3; let i = $i + 1 }; echo $s $i }; f; echo $s $i")
                == "13 5\n10 2\n")
        #expect(
            outputOf("def f { set i 0; while $i < 3 { let i = $i + 1 } ; echo $i }; set i 100; f; echo $i")
                == "3\n100\n")
        // An unset variable is reported as before.
        #expect(
            outputOf("set i 0; while $i < 3 { let s = $s + $i % 7; let i = $i + 1 }")
                == "!test.wsh:1: let: no such variable: $s")
        // `continue` jumps to the back edge, which then runs alone.
        #expect(
            outputOf("set i 0; set n 0; while $i < 6 { let i = $i + 1; if $i % 2 == 0 { continue }; let n = $n + $i % 4 }; echo $i $n")
                == "6 5\n")
    }

    // MARK: Values that change type
    // MARK: Values that change type

    @Test("given a loop variable that becomes a string or decimal mid-loop then it computes the same")
    func changingTypes() {
        #expect(
            outputOf(
                "set i 0; set s 0; while $i < 10 { let s = $s + $i; if $i == 4 { set i \"5\" } else { let i = $i + 1 } }; echo $s $i"
            ) == "45 10\n")
        #expect(outputOf("set i 0; while $i < 3 { let i = $i + 1; if $i == 2 { set i abc } }; echo $i") == "abc\n")
        #expect(outputOf("set x 1; while $x < 100 { let x = $x * 2.5 }; echo $x") == "244.140625\n")
        #expect(outputOf("set x 3; while $x < 5.5 { let x = $x + 1 }; echo $x") == "6\n")
        #expect(outputOf("set a 10; set b 9x; if $a < $b { echo lt } else { echo ge }") == "lt\n")
        #expect(
            outputOf("set i 0; while $i < 3 { let i = $i + 1; if $i == 2 { set i x } }; let j = $i + 1")
                == "!test.wsh:1: let: expected a number for + but got \"x\"")
    }

    // MARK: Loops checked at the bottom

    @Test("given continue and break in rotated loops then they go where they did")
    func continueAndBreak() {
        #expect(outputOf("set i 0; while $i < 5 { let i = $i + 1; if $i == 2 { continue }; echo $i }") == "1\n3\n4\n5\n")
        #expect(outputOf("set i 0; while 1 { let i = $i + 1; if $i > 3 { break } }; echo $i") == "4\n")
        #expect(outputOf("for x in a b c { if $x == b { continue }; echo $x }; echo $x") == "a\nc\nc\n")
        #expect(outputOf("for x in a b c { if $x == b { break }; echo $x }") == "a\n")
        #expect(outputOf("set n 0; repeat 5 { let n = $n + 1; if $n == 3 { continue }; echo $n }") == "1\n2\n4\n5\n")
        #expect(outputOf("set n 0; repeat 5 { let n = $n + 1; if $n == 3 { break } }; echo $n") == "3\n")
        #expect(
            outputOf("for x in 1 2 { for y in a b c { if $y == b { break }; echo $x$y } }") == "1a\n2a\n")
        #expect(outputOf("repeat 0 { echo no }; while 0 { echo no }; for x in { echo no }; echo done") == "done\n")
        #expect(
            outputOf("set i 0; while $i < 3 { try { let i = $i + 1; if $i == 2 { nope } } catch { echo caught } }; echo $i")
                == "caught\n3\n")
    }

    // MARK: Appending

    @Test("given set NAME \"$NAME…\" when run then it appends as a new string would")
    func appends() {
        #expect(outputOf("set t \"\"; set i 0; while $i < 5 { set t \"$t$i,\"; let i = $i + 1 }; echo $t") == "0,1,2,3,4,\n")
        #expect(outputOf("set t ab; set u $t; set t \"$t!\"; echo $t $u") == "ab! ab\n")
        #expect(outputOf("set t x; set t $t$t; set t \"$t$t\"; echo $t") == "xxxx\n")
        #expect(outputOf("set t 5; set t \"$t.5\"; let y = $t + 1; echo $y") == "6.5\n")
        #expect(outputOf("set t 2.5; set t ${t}0; echo $t") == "2.50\n")
        #expect(outputOf("set t a; set t \"$t$(echo b)\"; echo $t") == "ab\n")
        #expect(outputOf("set t \"$t!\"") == "!test.wsh:1: set: no such variable: $t")
        #expect(outputOf("set t a; try { set t \"$t$nope\" } catch { echo $error }; echo $t") == "no such variable: $nope\na\n")
        #expect(outputOf("set t \"$t$nope\"") == "!test.wsh:1: set: no such variable: $t")
        #expect(outputOf("set t \"$t$(echo ran)\"") == "!test.wsh:1: set: no such variable: $t")
        // A function appends to its local, starting from the script-scope value.
        #expect(outputOf("def f { set t \"$t!\"; set t \"$t!\"; echo $t }; set t hi; f; echo $t") == "hi!!\nhi\n")
        #expect(outputOf("def f { global t; set t \"$t!\" }; set t hi; f; f; echo $t") == "hi!!\n")
        #expect(outputOf("set t a; set t \"$t$1$#\"; echo $t") == "a0\n")
        #expect(outputOf("echo $?; set t a; set t ${t}b; echo $? $t") == "0\n0 ab\n")
    }

    @Test("given the string limit when an append would pass it then it fails and keeps the value")
    func appendLimit() {
        let harness = Harness()
        harness.interpreter.maxStringLength = 10
        let error = harness.run("set t 12345678; try { set t \"$t$t\" } catch { }; echo $t; set t \"${t}90\"; echo $t")
        #expect(error == nil)
        #expect(harness.interpreter.variable("error")?.description == "string longer than 10 bytes")
        #expect(harness.output == "12345678\n1234567890\n")
    }

    @Test("given 20 000 appends when run then the string grows in place, in linear time")
    func appendsAreLinear() {
        let harness = Harness()
        let started = ContinuousClock.now
        let word = String(repeating: "x", count: 500)
        harness.run("set t \"\"; repeat 20000 { set t \"${t}\(word)\" }; set t \"$t.\"; expr $t == $t")
        // Copying the string on every append would move 100 GB.
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(harness.output == "1\n")
        #expect(harness.interpreter.variable("t")?.description.utf8.count == 10_000_001)
    }

    // MARK: Calls

    @Test("given a function called with values then $1, $# and $@ read as the words would")
    func callArguments() {
        #expect(outputOf("def f { echo $1 $# \"$@\"; let y = $1 + 1; echo $y }; set i 41; f $i \"a b\"") == "41 2 41 a b\n42\n")
        #expect(outputOf("def f { echo $1$2 $3.; set x $1; echo $x }; f 2.5 007") == "2.5007 .\n2.5\n")
        #expect(outputOf("def f { let y = $1 * 2; echo $y }; f 1e3") == "2000.0\n")
        #expect(outputOf("def f { return $1 }; f 3; echo $?") == "3\n")
        #expect(outputOf("def f { g $@ }; def g { echo $# $2 }; f a b c") == "1 \n")
        #expect(outputOf("def f { source x }; f") == "!test.wsh:1: source: cannot read x")
    }

    @Test("given functions redefined or called by computed names then calls find the current one")
    func callCache() {
        #expect(outputOf("def f { echo F }; repeat 2 { f; def f { echo G } }") == "F\nG\n")
        #expect(outputOf("set n f; def f { echo F }; $n; def f { echo G }; $n") == "F\nG\n")
        #expect(outputOf("def g { def g { echo new }; echo old }; g; g") == "old\nnew\n")
        #expect(outputOf("def g { def f { def g { echo x }; echo still }; f; echo back }; g; g") == "still\nback\nx\n")
        let harness = Harness()
        harness.interpreter.register(CommandSpec(name: "hello", abstract: "Says hello.") { $0.writeLine("host") })
        harness.run("repeat 2 { hello; def hello { echo function } }")
        #expect(harness.output == "host\nfunction\n")
    }

    @Test("given the command hook when functions are called then it gets their words as text")
    func hookSeesWords() {
        let harness = Harness()
        var seen: [String] = []
        harness.interpreter.commandWillRun = { command in
            seen.append(([command.name] + command.words.map(\.text)).joined(separator: "|"))
        }
        harness.run("def f { echo $1 }; set i 7; f $i \"a b\" 2.5; set n f; $n x")
        #expect(seen == ["def|f", "set|i|7", "f|7|a b|2.5", "echo|7", "set|n|f", "f|x", "echo|x"])
        #expect(harness.output == "7\nx\n")
    }

    @Test("given a hook that defines the function it is told about then that call runs it")
    func hookDefinesFunction() {
        let harness = Harness()
        let interpreter = harness.interpreter
        interpreter.commandWillRun = { command in
            if command.name == "late" { try? interpreter.execute("def late { echo defined as $1 }") }
        }
        harness.run("def late { echo old }; late first; late second")
        #expect(harness.output == "defined as first\ndefined as second\n")
    }

    @Test("given recursion when it runs deep or fails inside then frames unwind cleanly")
    func recursion() {
        #expect(
            outputOf("def f { let n = $1 - 1; if $n > 0 { f $n }; echo $1 }; f 3") == "1\n2\n3\n")
        #expect(outputOf("def f { f $1 }; f 1").hasSuffix("recursion too deep (more than 1000 nested calls)"))
        #expect(
            outputOf("def f { if $1 == 0 { nope }; let m = $1 - 1; f $m }; try { f 50 } catch { echo caught }; set k 1; echo $k")
                == "caught\n1\n")
        #expect(outputOf("def f { try { g } catch { echo in f $? } }; def g { exit 3 }; f; echo after") == "!exit")
    }
}
