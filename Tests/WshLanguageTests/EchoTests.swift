import Testing
@testable import WshLanguage

/// `commandWillRun`, the hook behind wsh's `-x`: every command that runs is
/// reported once its words are expanded, before it acts, one level deeper in each
/// function call, sourced file and `$(…)`; commands that do not run report nothing.
@Suite("Echo (-x)")
struct EchoTests {
    /// A harness whose hook renders each command as `sh -x` would: one `+` per
    /// level, values quoted when they hold a space or are empty.
    private final class Echoing {
        let harness = Harness()
        var lines: [String] = []
        var echoes: [CommandEcho] = []

        init() {
            harness.interpreter.commandWillRun = { [unowned self] command in
                echoes.append(command)
                lines.append(String(repeating: "+", count: command.depth) + " " + command.line(quoting: Echoing.quote))
            }
        }

        static func quote(_ word: String) -> String {
            word.isEmpty || word.contains(" ") ? "'\(word)'" : word
        }

        /// Runs `source`; the echoed lines, and the error's message if it failed.
        func run(_ source: String) -> [String] {
            if let error = harness.run(source) {
                return lines + ["!" + (ErrorReport(error, interactive: false).message ?? "exit")]
            }
            return lines
        }
    }

    private func echoed(_ source: String) -> [String] {
        Echoing().run(source)
    }

    // MARK: The simple forms

    @Test("given echo, set, let and expr when they run then each is echoed with its words expanded")
    func simpleForms() {
        #expect(echoed("echo a; set b 2") == ["+ echo a", "+ set b 2"])
        #expect(
            echoed("set x 3; let y = $x * 2 + 1; expr $y - 1; echo \"$x and $y\" $x")
                == ["+ set x 3", "+ let y = 3 * 2 + 1", "+ expr 7 - 1", "+ echo '3 and 7' 3"])
        // The appended value is shown whole, as a plain `set` shows it.
        #expect(echoed("set t a; set t \"$t$t,\"; set t") == ["+ set t a", "+ set t aa,", "+ set t"])
        #expect(echoed("set n v; set $n 5; set $n; unset $n n") == ["+ set n v", "+ set v 5", "+ set v", "+ unset v n"])
        #expect(echoed("set e ''; echo $e x") == ["+ set e ''", "+ echo '' x"])
    }

    @Test("given assert, exit, global when they run then each is echoed, the message as one word")
    func checksAndExits() {
        #expect(
            echoed("set x 3; assert $x == 3 \"x is three\"; assert $x > 1; global g; exit $x")
                == ["+ set x 3", "+ assert 3 == 3 'x is three'", "+ assert 3 > 1", "+ global g", "+ exit 3", "!exit"])
        #expect(echoed("assert 1 == 2") == ["+ assert 1 == 2", "!test.wsh:1: assert: assertion failed: 1 == 2"])
    }

    @Test("given a call of a host command when it runs then its expanded words are echoed, whatever it does")
    func hostCommands() {
        let echoing = Echoing()
        echoing.harness.interpreter.register(
            CommandSpec(name: "greet", abstract: "Greets.", arguments: [ArgumentSpec("WHO", help: "who")]) {
                $0.writeLine("hi")
            })
        #expect(echoing.run("set w \"two words\"; greet $w; nosuch 1") == [
            "+ set w 'two words'", "+ greet 'two words'", "+ nosuch 1", "!test.wsh:1: nosuch: unknown command",
        ])
    }

    // MARK: Control forms

    @Test("given if, elif and else when a branch is taken then each condition tested is echoed and only the taken body")
    func conditionals() {
        let script = """
            set x 2
            if $x > 5 { echo big } elif $x > 1 { echo mid } else { echo small }
            if $x == 2 { echo two } else { echo other }
            if {$x < 0} { echo negative }
            """
        #expect(echoed(script) == [
            "+ set x 2",
            "+ if 2 > 5", "+ elif 2 > 1", "+ echo mid",
            "+ if 2 == 2", "+ echo two",
            "+ if { 2 < 0 }",
        ])
        #expect(echoed("set x 0; if $x { echo yes } elif $x == 1 { echo one } else { echo no }")
            == ["+ set x 0", "+ if 0", "+ elif 0 == 1", "+ echo no"])
    }

    @Test("given for, while and repeat when they loop then the head is echoed as sh does and each iteration's body")
    func loops() {
        // `for` once, with its items as split; `while` at each test, the last false one too.
        #expect(echoed("set l 'a b'; for i in $l c { echo $i }") == [
            "+ set l 'a b'", "+ for i in a b c", "+ echo a", "+ echo b", "+ echo c",
        ])
        #expect(echoed("set n 0; while $n < 2 { let n = $n + 1 }") == [
            "+ set n 0", "+ while 0 < 2", "+ let n = 0 + 1", "+ while 1 < 2", "+ let n = 1 + 1", "+ while 2 < 2",
        ])
        #expect(echoed("repeat 2 { echo r }; repeat 0 { echo never }") == ["+ repeat 2", "+ echo r", "+ echo r", "+ repeat 0"])
        #expect(echoed("for x in a b c { if $x == a { continue }; if $x == c { break }; echo $x }") == [
            "+ for x in a b c",
            "+ if a == a", "+ continue",
            "+ if b == a", "+ if b == c", "+ echo b",
            "+ if c == a", "+ if c == c", "+ break",
        ])
    }

    @Test("given def and a call when the function runs then its commands are one level deeper")
    func functions() {
        #expect(echoed("def f { echo in $1; return 3 }; f 9; echo $?") == [
            "+ def f", "+ f 9", "++ echo in 9", "++ return 3", "+ echo 3",
        ])
        #expect(echoed("def f { if $1 > 0 { let m = $1 - 1; f $m } }; f 1") == [
            "+ def f", "+ f 1", "++ if 1 > 0", "++ let m = 1 - 1", "++ f 0", "+++ if 0 > 0",
        ])
    }

    @Test("given try and catch when the body fails or not then catch is echoed only when it runs")
    func tryCatch() {
        #expect(echoed("try { nosuch; echo skipped } catch { echo caught $? }") == [
            "+ try", "+ nosuch", "+ catch", "+ echo caught 1",
        ])
        #expect(echoed("try { echo fine } catch { echo never }") == ["+ try", "+ echo fine"])
    }

    @Test("given retry and wait until when they run then retry is echoed with its options once and wait at each check")
    func retryAndWait() {
        let echoing = Echoing()
        echoing.harness.interpreter.sleep = { _ in }
        #expect(echoing.run("retry --times 2 --every 0 { if $attempt < 2 { nosuch } }; set i 1; wait until $i == 1") == [
            "+ retry --times 2 --every 0", "+ if 1 < 2", "+ nosuch", "+ if 2 < 2", "+ set i 1", "+ wait until 1 == 1",
        ])
    }

    @Test("given source and $(…) when commands run inside them then each adds a level")
    func nesting() {
        let echoing = Echoing()
        echoing.harness.interpreter.sourceLoader = { path in
            Array((path == "lib.wsh" ? "set v 1\ndef g { echo g $1 }\nsource inner.wsh\n" : "echo inner\n").utf8)
        }
        #expect(echoing.run("source lib.wsh; g $(expr 1 + 1); def h { echo $(echo deep) }; h") == [
            "+ source lib.wsh", "++ set v 1", "++ def g", "++ source inner.wsh", "+++ echo inner",
            "++ expr 1 + 1", "+ g 2", "++ echo g 2",
            "+ def h", "+ h", "+++ echo deep", "++ echo deep",
        ])
        #expect(echoing.echoes.map(\.depth) == [1, 2, 2, 2, 3, 2, 1, 2, 1, 1, 3, 2])
    }

    // MARK: What the line shows

    @Test("given && and || when an operand is not evaluated then it is shown as written, never run")
    func shortCircuit() {
        #expect(echoed("set a 0; if $a == 1 && $(nosuch) == 2 { echo no }") == ["+ set a 0", "+ if 0 == 1 && $(…) == 2"])
        #expect(echoed("set a 1; if $a == 1 || $b == 2 { echo yes }") == ["+ set a 1", "+ if 1 == 1 || $b == 2", "+ echo yes"])
        let echoing = Echoing()
        _ = echoing.run("set a 1; let t = $a == 1 && \"x y\" == 'x y'")
        #expect(echoing.echoes.last?.words == [
            .value("t"), .syntax("="), .value("1"), .syntax("=="), .value("1"), .syntax("&&"),
            .value("x y"), .syntax("=="), .value("x y"),
        ])
    }

    @Test("given an operator that fails when the command runs then it is echoed before the error; an unset word is not")
    func failures() {
        #expect(echoed("set x 4; let y = $x / 0") == [
            "+ set x 4", "+ let y = 4 / 0", "!test.wsh:1: let: division by zero",
        ])
        #expect(echoed("if abc { echo x }") == ["+ if abc", "!test.wsh:1: if: expected a boolean but got \"abc\""])
        // The word never expanded, so the command never ran: sh shows no line either.
        #expect(echoed("let y = $nope + 1") == ["!test.wsh:1: let: no such variable: $nope"])
        #expect(echoed("echo $nope") == ["!test.wsh:1: echo: no such variable: $nope"])
    }

    // MARK: Turning it on and off

    @Test("given code compiled without a hook then it has no echo instructions, and the same code with one has them")
    func noCostWhenOff() throws {
        let source = "set s 0; set i 0; while $i < 9 { let s = $s + $i % 7; let i = $i + 1 }; echo $s"
        let script = try Parser.parse(source, file: "test.wsh", firstLine: 1)
        let plain = Compiler.compile(script, name: "test.wsh", globals: GlobalVariables())
        let echoing = Compiler.compile(script, name: "test.wsh", globals: GlobalVariables(), echoing: true)
        let echoOpcodes: Set<Opcode> = [.echoOpen, .keepOperand, .echoCommand]
        #expect(!plain.instructions.contains { echoOpcodes.contains($0.opcode) })
        #expect(plain.frameLocalCount == 0)
        #expect(echoing.instructions.filter { $0.opcode == .echoCommand }.count == 6)
    }

    @Test("given scripts when they run with and without the hook then they print the same and end the same")
    func sameBehaviour() {
        let scripts = [
            "set s 0; set i 0; while $i < 100 { let s = $s + $i % 7; let i = $i + 1 }; echo $s",
            "set t \"\"; repeat 5 { set t \"$t-\" }; echo $t",
            "def f { if $1 > 0 { let m = $1 - 1; f $m }; echo $1 }; f 3",
            "set a 0; if $a == 1 && $(echo 1) == 1 { echo no } else { echo else }",
            "for w in $(echo a b) c { echo $w }; set x 1; unset x; try { echo $x } catch { echo $error }",
            "let z = 7 / 2; expr $z * 2.5; assert $z == 3 \"z\"; exit 4",
        ]
        for script in scripts {
            let plain = Harness()
            let plainError = plain.run(script)
            let echoing = Echoing()
            let echoingError = echoing.harness.run(script)
            #expect(echoing.harness.output == plain.output, "\(script)")
            #expect(echoingError?.status == plainError?.status, "\(script)")
            #expect(!echoing.lines.isEmpty)
        }
    }

    @Test("given functions defined before the hook is set when they are called then their commands are echoed")
    func hookSetLater() {
        let harness = Harness()
        harness.run("def f { echo f $1 }")
        var lines: [String] = []
        harness.interpreter.commandWillRun = { lines.append(([$0.name] + $0.words.map(\.text)).joined(separator: " ")) }
        harness.run("f 1")
        #expect(lines == ["f 1", "echo f 1"])
        harness.interpreter.commandWillRun = nil
        harness.run("f 2")
        #expect(harness.output == "f 1\nf 2\n")
    }

    @Test("given an operator that fails before the command's later words are computed when it is echoed then those show as … (a fuzzer's crash)")
    func failureBeforeLaterWords() {
        // The failing `-` is echoed with the words computed so far; the message,
        // not yet pushed, is never read from past the top of the stack.
        let lines = echoed("assert 02 -f$$$$$$$$ == 1 \"msg\";; set $--timeout $x")
        #expect(lines.first?.hasPrefix("+ assert 2 - ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix(" …") == true, "\(lines)")
        #expect(lines.last?.contains("expected a number for -") == true, "\(lines)")
        #expect(echoed("set a 1; expr $a + x + 2") .last?.contains("expected a number") == true)
    }
}
