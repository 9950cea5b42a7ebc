/// The help entries of the language's own commands and forms. The compiler runs the
/// forms; these declarations make `help` and completion cover them like any command.
enum Builtins {
    static var specs: [CommandSpec] {
        [
            syntax(
                "if", "Run a block when a condition holds.",
                "if COND { … } [elif COND { … }]… [else { … }]",
                "COND is an expression made of the words before the block, e.g. `if $x == 3 { … }`."),
            syntax("while", "Repeat a block while a condition holds.", "while COND { … }"),
            syntax(
                "for", "Run a block once per word.", "for NAME in WORDS… { … }",
                "Unquoted substitutions are split on whitespace: `for w in $(cmd)`."),
            syntax("repeat", "Run a block COUNT times.", "repeat COUNT { … }"),
            syntax("break", "Leave the innermost loop.", "break"),
            syntax("continue", "Start the next iteration of the innermost loop.", "continue"),
            syntax(
                "def", "Define a function.", "def NAME { … }",
                "Inside, $1…$9, $# and $@ are the call's arguments. Variables set in a function are local to the call; reading falls back to script scope."
            ),
            syntax("return", "Return from a function or sourced file with a status.", "return [STATUS]"),
            syntax(
                "try", "Run a block and handle its failure.", "try { … } [catch { … }]",
                "Inside catch, $? is the failed status, $error the message, $errcode the host's code for the failure and $errkind what it means (wsh: not_found, unauthorized, forbidden, rate_limited, already_done, invalid, server, network; each empty when the host gave none). Interrupts and exit are not caught."),
            CommandSpec(
                name: "retry", abstract: "Run a block until it succeeds, a few times.",
                discussion: """
                    Runs the block; when it fails, waits and runs it again, at most --times times
                    in all. A failure the host marks as rate-limited waits as long as the host says
                    instead of --every. If every try fails, the last failure is raised. Inside the
                    block $attempt is the try's number (1, 2, …); it keeps the last number after.
                    Usage and syntax errors are raised at once; Ctrl-C stops the waiting.
                    """,
                options: [
                    .valued("times", valueName: "N", help: "tries in all (default 3)"),
                    .valued("every", valueName: "SECONDS", help: "wait between tries, decimals allowed (default 1)"),
                ],
                action: .syntax, customSynopsis: "retry [--times N] [--every SECONDS] { … }"),
            CommandSpec(
                name: "wait", abstract: "Wait until a condition holds.",
                discussion: """
                    Evaluates the expression COND now and then every --every seconds until it is
                    true. After --timeout seconds it fails (status 1): "wait until: timed out after
                    S s". COND is re-evaluated each time, so $(command) inside it runs again.
                    Ctrl-C stops the waiting.
                    """,
                options: [
                    .valued("every", valueName: "SECONDS", help: "between checks, decimals allowed (default 1)"),
                    .valued("timeout", valueName: "SECONDS", help: "give up after this long (default 60)"),
                ],
                action: .syntax, customSynopsis: "wait until COND [--every SECONDS] [--timeout SECONDS]"),
            syntax(
                "global", "Use script-scope variables inside a function.", "global NAME…",
                "For the rest of the function, NAME reads and sets the script-scope variable, so a helper can keep a counter: def bump { global n; let n = $n + 1 }. Outside functions it does nothing."
            ),
            CommandSpec(
                name: "env", abstract: "Print an environment variable.",
                discussion: "Prints DEFAULT when NAME is not set; without DEFAULT that is an error naming NAME. A host may turn env off.",
                arguments: [
                    ArgumentSpec("NAME", help: "the variable, e.g. HOME"),
                    ArgumentSpec("DEFAULT", help: "printed when NAME is not set", arity: .optional),
                ],
                action: .host { context in
                    context.writeLine(try context.interpreter.environmentValue(
                        context.arguments["NAME"] ?? "", default: context.arguments["DEFAULT"]))
                }),
            JSONCommand.spec,
            syntax("echo", "Write words as one line.", "echo [WORD…]"),
            syntax("set", "Set a variable, or print it.", "set NAME [VALUE]"),
            syntax("unset", "Remove variables.", "unset NAME…"),
            syntax(
                "let", "Set a variable to an expression's value.", "let NAME = EXPR",
                "Expressions: integers, decimals, strings, + - * / %, == != < <= > >=, && || !, parentheses. Integer overflow and division by zero are errors."
            ),
            syntax("expr", "Print an expression's value.", "expr EXPR"),
            syntax(
                "assert", "Fail unless a condition holds.", "assert COND [MESSAGE]",
                "A quoted last word is the message."),
            syntax("exit", "End the script with a status (default 0).", "exit [STATUS]"),
            CommandSpec(
                name: "help", abstract: "List commands, or describe one.",
                arguments: [ArgumentSpec("COMMAND", help: "the command to describe", arity: .optional)],
                completion: nil, action: .help),
            CommandSpec(
                name: "source", abstract: "Run a script file at script scope.",
                discussion: "Errors name the sourced file and line. Sourcing nests up to a fixed depth.",
                arguments: [ArgumentSpec("FILE", help: "the script to run")], action: .source),
        ]
    }

    private static func syntax(
        _ name: String, _ abstract: String, _ synopsis: String, _ discussion: String = ""
    ) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, discussion: discussion, action: .syntax, customSynopsis: synopsis)
    }
}
