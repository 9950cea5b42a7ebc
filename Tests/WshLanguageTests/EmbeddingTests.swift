import Testing
@testable import WshLanguage

/// A host command like the shell's: `greet NAME [--shout] [--times N]`.
private func greetCommand(log: @escaping (ParsedArguments) -> Void = { _ in }) -> CommandSpec {
    CommandSpec(
        name: "greet", aliases: ["hi"], abstract: "Greet someone.", discussion: "Longer words.",
        arguments: [ArgumentSpec("NAME", help: "who"), ArgumentSpec("EXTRA", help: "more", arity: .variadic)],
        options: [.flag("shout", short: "s", help: "loudly"), .valued("times", valueName: "N", help: "repeat")],
        completion: { request in request.argumentIndex == 0 ? ["alice", "bob", "bert"] : [] },
        handler: { context in
            log(context.arguments)
            let times = try context.arguments.intOption("times") ?? 1
            var text = "hello \(context.arguments["NAME"] ?? "")"
            if context.arguments.flag("shout") { text = text.uppercased() }
            for _ in 0..<times { context.writeLine(text) }
            context.setVariable("count", to: .int(times))
        })
}

@Suite("Embedding")
struct EmbeddingTests {
    @Test("given a registered command when called then it gets parsed arguments and writes output")
    func registeredCommand() {
        let harness = Harness()
        var seen: ParsedArguments?
        harness.interpreter.register(greetCommand { seen = $0 })
        #expect(harness.run("greet bob --shout --times 2 x y; echo $count") == nil)
        #expect(harness.output == "HELLO BOB\nHELLO BOB\n2\n")
        #expect(seen?.values("EXTRA") == ["x", "y"])
        #expect(seen?.option("times") == "2")
    }

    @Test("given commands registered lazily when a script calls none then they are never declared, and when one is called they all work")
    func lazilyRegisteredCommands() {
        let harness = Harness()
        var declared = 0
        harness.interpreter.register(lazily: {
            declared += 1
            return [greetCommand(), CommandSpec(name: "wave", abstract: "Wave.") { $0.writeLine("waves") }]
        })
        #expect(harness.run("set x 1; echo $x; def f { echo in f }; f") == nil)
        #expect(declared == 0)
        #expect(harness.run("hi -s ann; wave; greet bob") == nil)
        #expect(harness.output == "1\nin f\nHELLO ANN\nwaves\nhello bob\n")
        #expect(declared == 1)
        #expect(harness.interpreter.commands.lookup("wave")?.abstract == "Wave.")
        #expect(harness.interpreter.commands.lookup("if") != nil)
    }

    @Test("given a lazily registered command when the same name is registered later then the later one is called")
    func laterRegistrationWins() {
        let harness = Harness()
        harness.interpreter.register(lazily: { [CommandSpec(name: "wave", abstract: "Wave.") { $0.writeLine("first") }] })
        harness.interpreter.register(CommandSpec(name: "wave", abstract: "Wave.") { $0.writeLine("second") })
        #expect(harness.run("wave") == nil)
        #expect(harness.output == "second\n")
    }

    @Test("given an alias, = values and -- when called then options bind the same way")
    func optionSpellings() {
        let harness = Harness()
        harness.interpreter.register(greetCommand())
        harness.run("hi -s --times=1 -- --literal")
        #expect(harness.output == "HELLO --LITERAL\n")
    }

    @Test("given wrong arguments when called then usage errors name the command and synopsis")
    func usageErrors() {
        let harness = Harness()
        harness.interpreter.register(greetCommand())
        let synopsis = "(usage: greet NAME [EXTRA…] [--shout] [--times N])"
        #expect(harness.failure("greet") == "test.wsh:1: greet: missing argument NAME \(synopsis)")
        #expect(harness.failure("greet a --loud") == "test.wsh:1: greet: unknown option --loud \(synopsis)")
        #expect(harness.failure("greet a --times") == "test.wsh:1: greet: --times needs a value N \(synopsis)")
        #expect(harness.run("greet a --times x")?.status == 2)
        #expect(harness.run("greet")?.status == 2)
    }

    @Test("given a command that fails when called then the error has status 1 and its message")
    func hostFailure() {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }
        let harness = Harness()
        harness.interpreter.register(CommandSpec(name: "fetch", abstract: "Fetch.") { _ in
            throw LanguageError.commandFailed("network down")
        })
        harness.interpreter.register(CommandSpec(name: "burn", abstract: "Burn.") { _ in throw Broken() })
        #expect(harness.failure("fetch") == "test.wsh:1: fetch: network down")
        #expect(harness.run("fetch")?.status == 1)
        #expect(harness.failure("burn") == "test.wsh:1: burn: disk on fire")
        #expect(harness.run("try { fetch } catch { echo $error }") == nil)
        #expect(harness.output == "network down\n")
    }

    @Test("given the table when completing then names, options and provider words match the prefix")
    func completion() {
        let interpreter = Interpreter()
        interpreter.register(greetCommand())
        #expect(interpreter.commandNames(withPrefix: "gr") == ["greet"])
        #expect(interpreter.commandNames(withPrefix: "re").contains("repeat"))
        #expect(interpreter.completions(forLine: "greet b") == ["bob", "bert"])
        #expect(interpreter.completions(forLine: "greet --sh") == ["--shout"])
        #expect(interpreter.completions(forLine: "greet bob ") == [])
        #expect(interpreter.completions(forLine: "hel") == ["help"])
        try? interpreter.execute("def helper { }")
        #expect(interpreter.completions(forLine: "hel") == ["help", "helper"])
    }

    @Test("given help when rendered then it lists every command and details one from its declaration")
    func help() {
        let harness = Harness()
        harness.interpreter.register(greetCommand())
        harness.run("help")
        let lines = harness.output.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        #expect(lines.contains { $0.first == "greet" && $0.last?.trimmingPrefix(while: \.isWhitespace) == "Greet someone." })
        #expect(lines.contains { $0.first == "while" })
        #expect(lines.contains { $0.first == "source" })
        harness.output = ""
        harness.run("help hi")
        #expect(harness.output == """
            usage: greet NAME [EXTRA…] [--shout] [--times N]

            Greet someone.

            Longer words.

            arguments:
              NAME         who
              EXTRA        more

            options:
              -s, --shout  loudly
              --times N    repeat

            aliases: hi

            """)
        harness.output = ""
        harness.run("help if")
        #expect(harness.output.hasPrefix("usage: if COND { … } [elif COND { … }]… [else { … }]\n"))
        #expect(harness.failure("help nosuch") == "test.wsh:1: help: no such command: nosuch")
    }

    @Test("given host variables when set and read then scripts and host see the same values")
    func hostVariables() {
        let harness = Harness()
        harness.interpreter.setVariable("count", to: .int(20))
        harness.run("let doubled = $count * 2")
        #expect(harness.interpreter.variable("doubled") == .int(40))
        harness.interpreter.removeVariable("doubled")
        #expect(harness.interpreter.variable("doubled") == nil)
    }

    @Test("given output and diagnostic sinks when commands write then results and notes separate")
    func sinks() {
        let harness = Harness()
        harness.interpreter.register(CommandSpec(name: "both", abstract: "Write both.") { context in
            context.writeLine("result")
            context.note("note")
        })
        harness.run("both; set x $(both)")
        #expect(harness.output == "result\n")
        #expect(harness.diagnostics == "note\nnote\n")
        #expect(harness.interpreter.variable("x") == .string("result"))
    }

    @Test("given errors of each kind when reported then one mapping gives the status")
    func errorMapping() {
        #expect(ErrorReport(LanguageError.commandFailed("x"), interactive: true).status == 1)
        #expect(ErrorReport(LanguageError.usage("x"), interactive: true).status == 2)
        #expect(ErrorReport(LanguageError(.syntax, "x"), interactive: true).status == 2)
        #expect(ErrorReport(LanguageError(.interrupted, "interrupted"), interactive: true).status == 130)
        #expect(ErrorReport(LanguageError(.exit(9), ""), interactive: true).status == 9)
    }
}

@Suite("Host loop")
struct HostLoopTests {
    @Test("given lines fed one by one when the chunk completes then it runs with its first line number")
    func accumulatesIncompleteChunks() {
        let harness = Harness()
        var pending = ""
        var completions: [Bool] = []
        for line in ["echo start", "if 1 {", "  echo inside", "}"] {
            pending += line + "\n"
            completions.append(Parser.isComplete(pending))
            if completions.last == true {
                harness.run(pending)
                pending = ""
            }
        }
        #expect(completions == [true, false, false, true])
        #expect(harness.output == "start\ninside\n")
    }

    @Test("given a failure inside a function when reported then the line is the failing command's")
    func errorLineInsideFunction() {
        let harness = Harness()
        #expect(harness.failure("def f {\n  echo ok\n  expr 1 / 0\n}\nf", file: "lib.wsh") == "lib.wsh:3: expr: division by zero")
    }

    @Test("given a file with arguments when executed then $1 and $# are the arguments")
    func executeFile() throws {
        let harness = Harness()
        harness.interpreter.sourceLoader = { _ in Array("echo $# $1 $2".utf8) }
        try harness.interpreter.executeFile("script.wsh", arguments: ["a", "b"])
        #expect(harness.output == "2 a b\n")
    }

    @Test("given a host command that runs script code when called then nested execution works")
    func reentrantExecute() {
        let harness = Harness()
        let interpreter = harness.interpreter
        interpreter.register(CommandSpec(
            name: "twice", abstract: "Run code twice.", arguments: [ArgumentSpec("CODE")]
        ) { [unowned interpreter] context in
            for _ in 0..<2 { try interpreter.execute(context.arguments["CODE"] ?? "") }
        })
        #expect(harness.run("set n 0; twice { let n = $n + 1 }; echo $n") == nil)
        #expect(harness.output == "2\n")
    }
}
