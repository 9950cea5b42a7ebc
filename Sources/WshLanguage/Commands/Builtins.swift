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
                "Inside catch, $? is the failed status and $error the message. Interrupts and exit are not caught."),
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
        CommandSpec(name: name, abstract: abstract, discussion: discussion, synopsis: synopsis, action: .syntax)
    }
}
