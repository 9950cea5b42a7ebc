import Foundation
import Testing
@testable import WshLanguage

/// A clock and sleep that never really wait: each requested wait is recorded and
/// moves the clock on.
final class FakeTime {
    var waits: [Duration] = []
    var elapsed: Duration = .zero
    let start = ContinuousClock.now
    /// Runs after each wait, e.g. to press Ctrl-C.
    var afterWait: () -> Void = {}

    init(_ interpreter: Interpreter) {
        interpreter.sleep = { [unowned self] duration in
            waits.append(duration)
            elapsed += duration
            afterWait()
        }
        interpreter.now = { [unowned self] in start.advanced(by: elapsed) }
    }
}

/// A host command that fails `failures` times, then succeeds; counts its calls.
private final class Flaky {
    var calls = 0
    let failures: Int
    let error: LanguageError

    init(failures: Int, error: LanguageError = .commandFailed("network down")) {
        self.failures = failures
        self.error = error
    }

    var spec: CommandSpec {
        CommandSpec(name: "flaky", abstract: "Fails, then works.") { [unowned self] context in
            calls += 1
            if calls <= failures { throw error }
            context.writeLine("ok on call \(calls)")
        }
    }
}

@Suite("Scripting")
struct ScriptingTests {
    // MARK: env

    @Test("given env when a name is set, unset with or without a default then it prints or fails naming it")
    func environment() {
        let harness = Harness()
        harness.interpreter.environment = { $0 == "CI" ? "true" : nil }
        #expect(harness.run("env CI; env MISSING fallback; echo \"[$(env MISSING '')]\"") == nil)
        #expect(harness.output == "true\nfallback\n[]\n")
        #expect(harness.failure("env MISSING") == "test.wsh:1: env: MISSING is not set (give a DEFAULT: env MISSING DEFAULT)")
        #expect(harness.run("env MISSING")?.status == 1)
        #expect(harness.run("env")?.status == 2)
    }

    @Test("given the real environment when env reads PATH then it matches the process's")
    func realEnvironment() {
        #expect(outputOf("env PATH") == (getenv("PATH").map { String(cString: $0) } ?? "") + "\n")
    }

    @Test("given a host that turns env off when a script calls it then it fails saying so")
    func environmentTurnedOff() {
        let harness = Harness()
        harness.interpreter.environment = { _ in "secret" }
        harness.interpreter.allowsEnvironment = false
        #expect(harness.failure("env HOME") == "test.wsh:1: env: reading the environment is turned off by the host")
        #expect(harness.failure("env HOME default") == "test.wsh:1: env: reading the environment is turned off by the host")
        #expect(harness.output == "")
    }

    // MARK: global

    @Test("given global in a helper when it counts then the script-scope variable changes")
    func globalCounter() {
        #expect(outputOf("set n 0; def bump { global n; let n = $n + 1 }; repeat 5 { bump }; echo $n") == "5\n")
        #expect(outputOf("def init { global total seen; set total 10; set seen yes }; init; echo $total $seen") == "10 yes\n")
        #expect(outputOf("set w 0; def add { global w; for w in 1 2 3 { } }; add; echo $w") == "3\n")
        #expect(outputOf("def note { global log; set log \"$log $1\" }; set log start; note a; note b; echo $log") == "start a b\n")
    }

    @Test("given a helper without global when it sets a name then the script's variable is untouched")
    func localStaysLocal() {
        #expect(outputOf("set n 0; def bump { let n = $n + 1; echo inner $n }; bump; echo $n") == "inner 1\n0\n")
        // global binds for the rest of its function only, not in other functions.
        #expect(outputOf("set n 0; def a { global n; set n 1 }; def b { set n 2 }; a; b; echo $n") == "1\n")
        // Names set through `set $name` and read by host commands follow the binding too.
        #expect(outputOf("set n 0; def f { global n; set $1 7 }; f n; echo $n") == "7\n")
    }

    @Test("given global outside a function or with bad names then it is a no-op or a usage error")
    func globalOutsideFunctions() {
        #expect(outputOf("set n 1; global n; echo $n") == "1\n")
        #expect(Harness().run("global")?.status == 2)
        #expect(Harness().failure("def f { global 'a b' }; f") == "test.wsh:1: global: invalid variable name \"'a b'\"")
        #expect(Harness().failure("def f { global result }; f") == "test.wsh:1: global: $result is read-only")
    }

    // MARK: retry

    @Test("given a command that fails twice when retried then the third try succeeds after two waits")
    func retrySucceeds() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        let flaky = Flaky(failures: 2)
        harness.interpreter.register(flaky.spec)
        #expect(harness.run("retry { echo try $attempt; flaky }; echo $? $attempt") == nil)
        #expect(flaky.calls == 3)
        #expect(harness.output == "try 1\ntry 2\ntry 3\nok on call 3\n0 3\n")
        #expect(time.waits == [.seconds(1), .seconds(1)])
    }

    @Test("given --times and a decimal --every when retried then they bound the tries and set the waits")
    func retryOptions() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        let flaky = Flaky(failures: 4)
        harness.interpreter.register(flaky.spec)
        #expect(harness.run("set n 5; retry --times $n --every=0.25 { flaky }") == nil)
        #expect(flaky.calls == 5)
        #expect(time.waits == Array(repeating: .milliseconds(250), count: 4))
        #expect(Harness().failure("retry --times 0 { echo }")?.hasSuffix("--times must be a positive integer, not \"0\"") == true)
        #expect(Harness().failure("retry --every soon { echo }")?.hasSuffix("--every must be a number of seconds, not \"soon\"") == true)
        #expect(Harness().failure("retry --often 2 { echo }") == "test.wsh:1: retry: unknown option --often (usage: retry [--times N] [--every SECONDS] { … })")
        #expect(Harness().run("retry")?.status == 2)
    }

    @Test("given a command that always fails when retried then the last failure is raised after N tries")
    func retryGivesUp() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        let flaky = Flaky(failures: .max, error: .commandFailed("server error", code: "500"))
        harness.interpreter.register(flaky.spec)
        #expect(harness.failure("retry --times 4 { flaky }") == "test.wsh:1: flaky: server error")
        #expect(flaky.calls == 4)
        #expect(time.waits.count == 3)
        #expect(harness.interpreter.lastStatus == 1)
        #expect(harness.run("try { retry --times 2 { flaky } } catch { echo $? $errcode $error $attempt }") == nil)
        #expect(harness.output == "1 500 server error 2\n")
    }

    @Test("given a failure with a retry-after hint when retried then the hint replaces --every")
    func retryAfterHint() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        let flaky = Flaky(failures: 1, error: .commandFailed("rate limited", code: "10023", retryAfter: .seconds(30)))
        harness.interpreter.register(flaky.spec)
        #expect(harness.run("retry --every 2 { flaky }") == nil)
        #expect(time.waits == [.seconds(30)])
    }

    @Test("given usage errors in the block when retried then they are raised at once")
    func retryUsageNotRetried() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        #expect(harness.run("retry { echo $attempt; exit 300 }")?.status == 2)
        #expect(harness.output == "1\n")
        #expect(time.waits.isEmpty)
    }

    @Test("given retry inside loops and functions when the block breaks, continues or returns then state unwinds")
    func retryControlFlow() {
        #expect(outputOf("set i 0; while 1 { let i = $i + 1; retry { if $i == 3 { break } } }; echo $i") == "3\n")
        #expect(outputOf("for w in a b c { retry { if $w == b { continue }; echo $w } }; echo end") == "a\nc\nend\n")
        #expect(outputOf("def f { retry { return 4 } }; f; echo $?") == "4\n")
        #expect(outputOf("retry { retry { echo $attempt } }") == "1\n")
        #expect(outputOf("def g { retry { echo local $attempt } }; g; echo \"[${attempt}]\"")
            == "local 1\n!test.wsh:1: echo: no such variable: $attempt")
    }

    // MARK: wait until

    @Test("given a condition that becomes true when waited on then it polls until then")
    func waitUntilTrue() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        var polls = 0
        harness.interpreter.register(CommandSpec(name: "ready", abstract: "Ready on the third poll.") { context in
            polls += 1
            context.writeLine(polls >= 3 ? "yes" : "no")
        })
        #expect(harness.run("wait until $(ready) == yes --every 0.5; echo $?") == nil)
        #expect(polls == 3)
        #expect(time.waits == [.milliseconds(500), .milliseconds(500)])
        #expect(harness.output == "0\n")
    }

    @Test("given a variable a host command changes when waited on then the condition sees each change")
    func waitUntilVariable() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        harness.interpreter.setVariable("count", to: 0)
        time.afterWait = { [unowned harness] in
            let count = harness.interpreter.variable("count")?.intValue ?? 0
            harness.interpreter.setVariable("count", to: .int(count + 1))
        }
        #expect(harness.run("wait until $count >= 4 --timeout 10") == nil)
        #expect(time.waits.count == 4)
    }

    @Test("given a condition that never holds when waited on then it times out with status 1")
    func waitUntilTimeout() {
        let harness = Harness()
        let time = FakeTime(harness.interpreter)
        #expect(harness.failure("wait until 1 == 2 --timeout 2.5 --every 1") == "test.wsh:1: wait until: timed out after 2.5 s")
        #expect(time.waits == [.seconds(1), .seconds(1), .milliseconds(500)])
        #expect(harness.run("wait until 0 --timeout 0")?.status == 1)
        #expect(harness.run("try { wait until 0 --timeout 1 } catch { echo $? $error }") == nil)
        #expect(harness.output == "1 timed out after 1 s\n")
        #expect(Harness().run("wait for 1")?.status == 2)
        #expect(Harness().run("wait until --timeout 1")?.status == 2)
        #expect(Harness().failure("wait until 'x' --timeout 1")?.contains("x") == true)
    }

    // MARK: Interrupts

    @Test("given Ctrl-C while retry or wait waits then they stop with status 130 that try cannot catch")
    func interruptStopsWaiting() {
        for script in ["try { retry --times 100 { flaky } } catch { echo caught }", "try { wait until 0 } catch { echo caught }"] {
            let harness = Harness()
            let time = FakeTime(harness.interpreter)
            var interrupted = false
            harness.interpreter.interruptRequested = { interrupted }
            time.afterWait = { interrupted = true }
            let flaky = Flaky(failures: .max)
            harness.interpreter.register(flaky.spec)
            #expect(harness.run(script)?.status == 130, "\(script)")
            #expect(flaky.calls <= 1)
            #expect(time.waits.count == 1)
            #expect(harness.output == "")
        }
    }

    @Test("given the default sleep when Ctrl-C comes during a long wait then it returns at once")
    func defaultSleepSeesInterrupts() {
        let harness = Harness()
        var interrupted = false
        harness.interpreter.interruptRequested = { interrupted }
        harness.interpreter.register(CommandSpec(name: "boom", abstract: "Fails and presses Ctrl-C.") { _ in
            interrupted = true
            throw LanguageError.commandFailed("boom")
        })
        let started = ContinuousClock.now
        #expect(harness.run("retry --every 600 { boom }")?.status == 130)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    // MARK: Errors as data

    @Test("given a host failure with a code when caught then $errcode holds it, empty otherwise")
    func errorCode() {
        let harness = Harness()
        harness.interpreter.register(CommandSpec(name: "post", abstract: "Post.") { _ in
            throw LanguageError.commandFailed("repeated content", code: "20019")
        })
        #expect(harness.run("try { post } catch { echo \"$? [$errcode] $error\" }; try { assert 0 } catch { echo \"[$errcode]\" }") == nil)
        #expect(harness.output == "1 [20019] repeated content\n[]\n")
    }
}
