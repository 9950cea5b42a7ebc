import FoundationEssentials
import Glibc
import WshLanguage

/// How the process was asked to run: which line source the one loop reads.
public enum Invocation: Equatable {
    /// `wsh -c 'CMDS' [ARGS…]`
    case command(String, arguments: [String])
    /// `wsh FILE [ARGS…]`
    case script(path: String, arguments: [String])
    /// `wsh`: the prompt on a terminal, batch stdin otherwise.
    case standardInput
    /// `wsh --present LESSON [ARGS…]`: command by command on a terminal, a script otherwise.
    case present(path: String, arguments: [String])
}

extension Shell {
    /// Runs the shell as `invocation` asks and returns the exit status.
    ///
    /// Interactivity is decided once, from whether stdin is a terminal; the rc
    /// file runs only then.
    public func start(_ invocation: Invocation, stdinIsTerminal: Bool = isatty(STDIN_FILENO) != 0) -> Int32 {
        let interactive: Bool
        switch invocation {
        case .standardInput, .present: interactive = stdinIsTerminal
        default: interactive = false
        }
        Interrupts.install(interactive: interactive)
        // `source FILE` and the rc file read as scripts do: FIFOs too, a BOM skipped.
        interpreter.sourceLoader = { path in
            do {
                return try ScriptFile.contents(atPath: path)
            } catch {
                throw LanguageError.commandFailed(String(describing: error))
            }
        }
        if case .present = invocation {} else if let failure = startWebIfAsked() { return failure }
        switch invocation {
        case .command(let text, let arguments):
            interpreter.scriptArguments = arguments
            // The argument's own bytes, so invalid UTF-8 is refused rather than run as U+FFFD.
            return finishing(run(source: TextLineSource(name: "-c", bytes: CommandLineBytes.argument(decodingTo: text))))
        case .script(path: "-", let arguments):
            interpreter.scriptArguments = arguments
            return finishing(run(source: StreamLineSource()))
        case .present(let path, let arguments) where !stdinIsTerminal && configuration.webPort == nil:
            // No terminal (CI, a pipe) and no page to step it: the lesson runs straight through, as a script.
            return start(.script(path: path, arguments: arguments), stdinIsTerminal: false)
        case .present(let path, let arguments):
            let text: String
            do {
                text = String(decoding: try ScriptFile.contents(atPath: path), as: UTF8.self)
            } catch {
                console.note("wsh: \(error)")
                return 2
            }
            interpreter.scriptArguments = arguments
            presenting = true
            if let failure = startWebIfAsked() { return failure }
            console.note(console.diagnosticStyle.dim(stdinIsTerminal
                ? "presenting \(path): Enter or Space runs, b steps back, s skips, q ends"
                : "presenting \(path) from the page: Next runs, Back steps back"))
            let presenter = PresenterSource(
                name: path, text: text, style: console.diagnosticStyle,
                readKey: { [unowned self] in
                    TerminalKey.read(terminal: stdinIsTerminal, page: { web?.keys.readEnd }, wake: { web?.replay.wake.readEnd })
                },
                show: { [unowned self] in console.diagnostic($0) },
                stopShown: { [unowned self] stop in
                    presenterStop = stop
                    stream.publish(.lesson(stop))
                })
            presenter.waitsAtEnd = web != nil
            return finishing(run(source: presenter))
        case .script(let path, let arguments):
            let bytes: [UInt8]
            do {
                bytes = try ScriptFile.contents(atPath: path)
            } catch {
                console.note("wsh: \(error)")
                return 2
            }
            interpreter.scriptArguments = arguments
            return finishing(run(source: TextLineSource(name: path, bytes: bytes)))
        case .standardInput where stdinIsTerminal:
            if let rc = ShellPaths.startupFile() { runStartupFile(at: rc) }
            let prompt: LineSource
            do {
                prompt = try EditLineSource(
                    historyPath: ShellPaths.historyFile(),
                    redact: { [unowned self] in redactForHistory($0) },
                    completer: { [unowned self] in completions(forLine: $0) },
                    warn: { [unowned self] in console.note("wsh: \($0)") })
            } catch {
                console.note("wsh: \(error); no line editing or history this session")
                prompt = StreamLineSource(isInteractive: true)
            }
            console.note(console.diagnosticStyle.dim("wsh \(Shell.version) — type help, or Ctrl-D to leave"))
            return finishing(run(source: prompt))
        case .standardInput:
            return finishing(run(source: StreamLineSource()))
        }
    }

    /// `status`, once the page (if served) has been sent the session's end:
    /// its streams close after their last events instead of being cut.
    private func finishing(_ status: Int32) -> Int32 {
        stopWeb()
        return status
    }

    /// `--web [PORT]`: serves the classroom page before anything runs; the
    /// status to exit with when it cannot (a port in use), nil once it serves.
    private func startWebIfAsked() -> Int32? {
        guard let port = configuration.webPort, web == nil else { return nil }
        do {
            try startWeb(port: port)
            return nil
        } catch {
            console.note("wsh: --web: \(error)")
            return 1
        }
    }

    /// The version `--version` prints.
    public static let version = "0.1.0"
}

/// The process's arguments as the bytes they were given in.
enum CommandLineBytes {
    /// The bytes of the argument that `text` was decoded from; `text`'s own
    /// UTF-8 when no argument decodes to it. Swift decodes arguments with
    /// invalid UTF-8 replaced by U+FFFD, which would hide that they were not text.
    static func argument(decodingTo text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard text.unicodeScalars.contains("\u{FFFD}") else { return utf8 }
        var candidates: [[UInt8]] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                  count: strlen(pointer)))
            if String(decoding: bytes, as: UTF8.self) == text { candidates.append(bytes) }
        }
        // Valid text that really holds U+FFFD wins over an invalid argument that looks the same.
        return candidates.contains(utf8) || candidates.isEmpty ? utf8 : candidates[0]
    }
}

/// Where wsh keeps its files, following the XDG base directories.
///
/// Each lookup takes the variables from `environment` when one is given (tests do)
/// and otherwise reads the process's own with `getenv`: these run at start-up, where
/// ProcessInfo's dictionary of every variable costs more than the rest of `echo hi`.
public enum ShellPaths {
    static func lookup(_ environment: [String: String]?) -> (String) -> String? {
        if let environment { return { environment[$0] } }
        return { name in getenv(name).map { String(cString: $0) } }
    }

    /// `$XDG_STATE_HOME/wsh/history`, default `~/.local/state/wsh/history`;
    /// the folder is created 0700. Nil when there is no home.
    public static func historyFile(environment: [String: String]? = nil) -> String? {
        let variable = lookup(environment)
        let base: String
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") {
            base = state
        } else if let home = variable("HOME"), !home.isEmpty {
            base = home + "/.local/state"
        } else {
            return nil
        }
        let folder = base + "/wsh"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return folder + "/history"
    }

    /// `$XDG_CONFIG_HOME/wsh/wshrc` if it exists, else `~/.wshrc` if it exists.
    public static func startupFile(environment: [String: String]? = nil) -> String? {
        let variable = lookup(environment)
        var candidates: [String] = []
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            candidates.append(config + "/wsh/wshrc")
        } else if let home = variable("HOME") {
            candidates.append(home + "/.config/wsh/wshrc")
        }
        if let home = variable("HOME") { candidates.append(home + "/.wshrc") }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
