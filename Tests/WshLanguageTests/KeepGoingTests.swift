import Testing
@testable import WshLanguage

/// `continueAfterFailure`, the hook behind wsh's `--keep-going`: a command that fails
/// outside any `try` is reported and the run goes on with the next command wherever
/// it is, as `sh` without `set -e` does.
@Suite("Keep going")
struct KeepGoingTests {
    /// A harness that goes on after failures, recording each one's message.
    private final class Going {
        let harness = Harness()
        var failures: [String] = []
        var statuses: [Int32] = []

        init() {
            harness.interpreter.continueAfterFailure = { [unowned self] error in
                failures.append(ErrorReport(error, interactive: false).message ?? "")
                statuses.append(error.status)
            }
        }

        /// Runs `source`: what it printed, then `!` and the message it ended with, if any.
        func run(_ source: String) -> String {
            harness.output = ""
            if let error = harness.run(source) {
                return harness.output + "!" + (ErrorReport(error, interactive: false).message ?? "exit")
            }
            return harness.output
        }
    }

    @Test("given failures between ; when the line runs then every other command runs and each failure is reported")
    func semicolons() {
        let going = Going()
        #expect(going.run("nosuch_cmd; echo after; let x = 1 / 0; echo $?; echo last") == "after\n1\nlast\n")
        #expect(going.failures == ["test.wsh:1: nosuch_cmd: unknown command", "test.wsh:1: let: division by zero"])
        #expect(going.statuses == [1, 1])
        #expect(going.harness.interpreter.lastStatus == 0)
    }

    @Test("given failures inside blocks, loops and functions when they run then the next command in that block runs")
    func nestedBlocks() {
        let going = Going()
        let script = """
            for i in 1 2 { nosuch $i; echo body $i }
            if 1 { let y = $nope; echo in if } else { echo never }
            def f { assert $1 == 0; echo in f $1 }
            f 5; echo after f
            set n 0; while $n < 2 { let n = $n + 1; json get .x '{}'; echo turn $n }
            """
        #expect(going.run(script) == "body 1\nbody 2\nin if\nin f 5\nafter f\nturn 1\nturn 2\n")
        #expect(going.failures == [
            "test.wsh:1: nosuch: unknown command", "test.wsh:1: nosuch: unknown command",
            "test.wsh:2: let: no such variable: $nope",
            "test.wsh:3: assert: assertion failed: $1 == 0",
            "test.wsh:5: json: no key \"x\" at .", "test.wsh:5: json: no key \"x\" at .",
        ])
    }

    @Test("given a failure inside $(…) when it runs then the substitution goes on and so does its command")
    func substitutions() {
        let going = Going()
        #expect(going.run("echo \"[$(nosuch; echo inner)]\" a $(expr 1 / 0) b") == "[inner] a  b\n")
        #expect(going.failures.count == 2)
    }

    @Test("given a failed word or loop condition when the run goes on then the stack and loops are as before it")
    func stateAfterFailure() {
        let going = Going()
        // The half-expanded words of a failed command must not become a call's `$1`.
        #expect(going.run("def f { echo a $nope b; echo \"$# $1 $@\" }; f one two") == "2 one one two\n")
        // A `wait until` that failed leaves no state for the enclosing `for` to take as its own.
        #expect(going.run("for i in 1 2 { wait until $undefined == 1; echo $i }") == "1\n2\n")
        // A failing condition leaves its loop.
        #expect(going.run("set k 0; while $k < $missing { echo never }; echo out") == "out\n")
        // A failure inside a condition's `$(…)` keeps the wait's state, and the loop's around it.
        #expect(going.run("for i in 1 2 { wait until $(nosuch; echo 1) == 1; echo $i }") == "1\n2\n")
        #expect(going.failures.count == 6)
    }

    @Test("given try, catch and retry when a command fails inside them then they still catch first")
    func tryStillCatches() {
        let going = Going()
        going.harness.interpreter.sleep = { _ in }
        let script = """
            try { nosuch; echo skipped } catch { echo caught $? }
            def f { nosuch; echo not in f }
            try { f } catch { echo caught f }
            retry --times 2 --every 0 { echo try $attempt; if $attempt < 2 { nosuch } }
            """
        #expect(going.run(script) == "caught 1\ncaught f\ntry 1\ntry 2\n")
        #expect(going.failures.isEmpty)
    }

    @Test("given exit, a step limit or Ctrl-C when the run keeps going then they still end it")
    func stillEnds() {
        #expect(Going().run("nosuch; exit 3; echo never") == "!exit")
        let limited = Going()
        limited.harness.interpreter.stepLimit = 100
        #expect(limited.run("while 1 { nosuch }").hasSuffix("step limit of 100 exceeded"))
        let interrupted = Going()
        var calls = 0
        interrupted.harness.interpreter.interruptRequested = {
            calls += 1
            return calls > 3
        }
        #expect(interrupted.run("while 1 { nosuch }; echo never") == "!test.wsh:1: nosuch: interrupted")
    }

    @Test("given a mistake found when compiling when the run keeps going then only that command fails")
    func compileErrors() {
        let going = Going()
        #expect(going.run("echo a; else { echo b }; let x 5; echo c") == "a\nc\n")
        #expect(going.failures == [
            "test.wsh:1: else: else without a matching if",
            "test.wsh:1: let: wrong arguments (usage: let NAME = EXPR)",
        ])
        #expect(going.statuses == [2, 2])
    }
}
