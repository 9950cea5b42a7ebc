import WshLanguage
import WshShell

/// wsh(1): the synopsis and options from argument-parser's declaration, the
/// commands from the shell's own command table (the one `help` reads), and
/// hand-written sections on the language, files, environment and exit status.
enum WshPage {
    static func render(_ tool: CommandInfo, date: String) -> String {
        let shell = Shell(configuration: Shell.Configuration(), console: .standard(colorAllowed: false))
        let table = shell.interpreter.commands.all
        // What a bare interpreter knows is the language's own; the rest is wsh's.
        let language = Set(Interpreter(output: { _ in }, diagnostics: { _ in }).commands.all.map(\.name))

        var page = Roff()
        page.title("wsh", section: 1, date: date, source: "wsh \(Shell.version)", manual: "User Commands")
        page.nameSection(tool)
        page.synopsisSection(tool)
        description(&page, tool)
        page.optionsSection(tool)
        languageSection(&page, builtIns: table.filter { language.contains($0.name) })
        page.section("Commands")
        page.paragraphs("""
            `help` lists the commands at the prompt and `help NAME` describes one; that help \
            and this list are rendered from the same command table. `--json` on a command, or \
            wsh's own `--json`, prints what jq(1) reads.
            """)
        for spec in table where !language.contains(spec.name) { command(&page, spec) }
        trailingSections(&page)
        return page.source
    }

    private static func description(_ page: inout Roff, _ tool: CommandInfo) {
        page.section("Description")
        page.paragraphs("""
            wsh is a line-editing shell for the Weibo API. Its small, Tcl-flavoured command \
            language drives the ViewModels of a timeline client (`fetch`, `list`, `detail 3`, \
            `undo`, `clear`) with an operation history like a pocket calculator's, and the same \
            language runs saved `.wsh` scripts in automation with exit codes, `--json` output \
            and errors that name `FILE:LINE`.
            """)
        if let discussion = tool.discussion { page.paragraphs(discussion) }
        page.paragraphs("wsh reads its commands from one of four places, through the same loop:")
        page.tagged(Roff.bold("wsh") + " on a terminal", """
            The prompt: libedit line editing, a history file, and TAB completion of commands, \
            options, row numbers, screen names and `source` paths. The rc file runs first.
            """)
        page.tagged(Roff.bold("wsh") + " < " + Roff.italic("file"), "Standard input, read in batch.")
        page.tagged(Roff.bold("wsh") + " " + Roff.italic("file") + " " + Roff.italic("arg") + " ...", """
            A script; its arguments are `$1`...`$9`, `$#` and `$@`. A first line \
            `#!/usr/bin/env wsh` is allowed, so a script can be run by name.
            """)
        page.tagged(Roff.bold("wsh -c") + " " + Roff.italic("commands") + " " + Roff.italic("arg") + " ...",
                    "The commands given, with the arguments as `$1`....")
        page.paragraphs("""
            Scripts, `-c` and batch input stop at the first failing command outside \
            `try { } catch { }` and print `FILE:LINE: command: message` on standard error \
            (`-c` and `<stdin>` name themselves so). An interactive session prints the message \
            and goes on. Ctrl-C clears the line at the prompt, and stops a running request or \
            loop within moments; Ctrl-D leaves.

            What a command was asked to show (lists, details, history, `echo`, JSON) goes to \
            standard output; notes, traces and errors go to standard error. Colour is used only \
            on a terminal, never with `NO_COLOR` or `--no-color`. Text from the API is stripped \
            of terminal control sequences.
            """)
    }

    private static func languageSection(_ page: inout Roff, builtIns: [CommandSpec]) {
        page.section("The command language")
        page.paragraphs("""
            A script is commands separated by newlines or `;`. A command is words separated by \
            spaces or tabs; the first word names the command. In a bare word `$var`, `${var}` \
            and `$(command)` expand, and `\\x` is a literal `x`. `'single'` quotes are literal \
            text; `"double"` quotes expand variables and `$(...)` and know the escapes `\\t \\n \
            \\\\ \\" \\$`. A `{ block }` is code, run by the control forms. A `#` where a command \
            starts comments out the rest of the line, as does a `#` followed by a space later \
            on (`fetch 5 # note`); any other `#` is text, so `post hello #wsh#` keeps its topic. \
            A `\\` at the end of a line continues the command.

            `set NAME VALUE` and `let NAME = EXPR` set variables, `unset NAME` removes one. \
            `$?` is the last command's status; `$1`...`$9`, `$#` and `$@` are the arguments of \
            the script or of the current function call, `$0` its name. Inside a function, \
            `set`, `let` and `for` create variables local to the call. wsh's commands set \
            `$count`.

            `if`, `elif`, `while`, `repeat`, `assert`, `expr` and `let` take an expression: \
            `||`, `&&`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `/`, `%`, the unary \
            `!`, `-` and `+`, and parentheses. Values are 64-bit integers, decimals or strings; \
            strings that read as numbers are numbers. Integer overflow and division by zero \
            are errors. Numbers are true when non-zero; `true`, `yes`, `on` and `false`, `no`, \
            `off` and the empty string are booleans.

                if COND { ... } elif COND { ... } else { ... }
                while COND { ... }
                for NAME in WORDS... { ... }
                repeat COUNT { ... }
                def NAME { ... }        # call as NAME ARGS...
                try { ... } catch { ... }   # in catch: $? and $error

            `try` catches failed commands, usage and syntax errors raised while running, not \
            interrupts or `exit`. The language is described in full in docs/LANGUAGE.md in \
            wsh's source.
            """)
        page.subsection("Built-in commands and control forms")
        for spec in builtIns { command(&page, spec) }
    }

    /// One command: its synopsis as the tag, then abstract, discussion, the
    /// notes for the manual (what help says once the API is known), arguments,
    /// options and aliases.
    private static func command(_ page: inout Roff, _ spec: CommandSpec) {
        let rest = spec.synopsis.hasPrefix(spec.name) ? String(spec.synopsis.dropFirst(spec.name.count)) : ""
        var description = spec.abstract
        if !spec.discussion.isEmpty { description += "\n\n" + spec.discussion }
        if let notes = spec.manualNotes { description += "\n\n" + notes }
        if !spec.aliases.isEmpty { description += "\n\nAlso called " + spec.aliases.map { "`\($0)`" }.joined(separator: ", ") + "." }
        page.tagged(Roff.bold(spec.name) + Roff.escape(rest), description)
        let details = spec.arguments.map { (Roff.italic($0.name), $0.help) }
            + spec.options.map { option in
                let names = (option.short.map { "-\($0), " } ?? "") + "--" + option.name
                return (Roff.bold(names) + (option.valueName.map { " " + Roff.italic($0) } ?? ""), option.help)
            }
        guard !details.isEmpty else { return }
        page.nested { list in
            for (tag, help) in details { list.tagged(tag, help) }
        }
    }

    private static func trailingSections(_ page: inout Roff) {
        page.section("Files")
        page.tagged(Roff.italic("$XDG_STATE_HOME") + Roff.escape("/wsh/history"), """
            The prompt's history (default `~/.local/state/wsh/history`), mode 0600 in a 0700 \
            folder (a looser folder is made 0700, with a note). Each line typed is appended once as it is entered; a known access token in \
            it is stored masked. A file or folder there that is a symbolic link is not followed: \
            the session says so once and keeps no history file.
            """)
        page.tagged(Roff.italic("$XDG_CONFIG_HOME") + Roff.escape("/wsh/wshrc") + ", " + Roff.escape("~/.wshrc"), """
            Commands run before the prompt of an interactive session, from the first of these \
            that exists (`$XDG_CONFIG_HOME` defaults to `~/.config`). Scripts, `-c` and batch \
            input do not read it; its errors are reported, not fatal.
            """)
        page.tagged(Roff.italic("$XDG_CONFIG_HOME") + Roff.escape("/wsh/accounts.json"),
                    "Reserved for saved accounts.")

        page.section("Environment")
        page.tagged(Roff.bold("WSH_ACCESS_TOKEN"), """
            The access token for a real API (`--api`, `connect URL`) when no `--token-file` is \
            given. It is sent as an `Authorization: OAuth2` header, never in a URL, and shown \
            as `***` in every message, trace and history line. The embedded sandbox needs none.
            """)
        page.tagged(Roff.bold("CURL_CA_BUNDLE") + ", " + Roff.bold("SSL_CERT_FILE"), """
            A PEM file of CA certificates to trust for https in place of the system's, as for \
            curl: `--cacert` wins, then `CURL_CA_BUNDLE`, then `SSL_CERT_FILE`; empty counts as unset.
            """)
        page.tagged(Roff.bold("NO_COLOR"), "When set and not empty, output is never coloured.")
        page.tagged(Roff.bold("XDG_STATE_HOME") + ", " + Roff.bold("XDG_CONFIG_HOME"), """
            Where the history and the rc file live (see FILES); only absolute paths count.
            """)
        page.tagged(Roff.bold("HOME"), "The base of the default paths.")

        page.section("Exit status")
        page.tagged(Roff.bold("0"), "Success.")
        page.tagged(Roff.bold("1"), "A command failed (an unknown command, an API or network error, a failed `assert`).")
        page.tagged(Roff.bold("2"), "A usage or syntax error, an unknown option, or a script that cannot be read.")
        page.tagged(Roff.bold("130"), "Interrupted (Ctrl-C outside the prompt).")
        page.tagged(Roff.italic("N"), "The script ran `exit N`.")

        page.section("Examples")
        page.paragraphs("""
            Against the embedded sandbox, from a script or CI:

                wsh -c 'fetch 5; list --json' | jq '.[].user.screen_name'
                wsh examples/automation.wsh && echo "API healthy"

            Against the real API:

                export WSH_ACCESS_TOKEN=...
                wsh --api https://api.weibo.com/2/
            """)

        page.section("See also")
        page.text(Roff.bold("wsh-sandbox") + "(1), " + Roff.bold("jq") + "(1), " + Roff.bold("curl") + "(1)")
    }
}
