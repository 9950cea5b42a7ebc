/// One command's declaration: its name, help, arguments, options, completion and
/// handler. `help` and usage errors are rendered from it, so they cannot drift.
///
/// Handlers run on the interpreter's thread; a spec is therefore not `Sendable`.
public struct CommandSpec {
    /// What runs when the command is called.
    enum Action {
        case host((CommandContext) throws -> Void)
        /// Compiled by the language itself (`if`, `set`, …); listed for `help`.
        case syntax
        case help
        case source
    }

    /// The name the command is called by.
    public var name: String
    /// Other names for the same command.
    public var aliases: [String] = []
    /// One line saying what the command does, shown by `help`.
    public var abstract: String
    /// Longer help shown by `help NAME`; may span lines.
    public var discussion = ""
    /// Positional arguments in order.
    public var arguments: [ArgumentSpec] = []
    /// Options and flags.
    public var options: [OptionSpec] = []
    /// Suggests words for an argument being completed; options complete by themselves.
    public var completion: CompletionProvider?
    /// Help that depends on the host's state now (wsh: what the connected API
    /// offers), shown by `help NAME` after the discussion; nil or "" for none.
    public var currentNotes: (() -> String?)?
    /// What `currentNotes` would say in each case, for the manual page, which
    /// knows no host state (wsh: each API's limits); nil when there is nothing.
    public var manualNotes: String? { makeManualNotes?() }
    /// Makes ``manualNotes`` when the manual page asks, not when the command is
    /// registered: every run registers every command, few print the manual.
    public var makeManualNotes: (() -> String)?
    /// Why the command cannot be used now, in a few words the `help` list
    /// shows after its abstract (wsh: `not on weibo`); nil when it can.
    public var unavailable: (() -> String?)?
    var action: Action
    /// Overrides the generated synopsis (see ``synopsis``).
    var customSynopsis: String?

    /// The usage line: `name ARG [OPTIONAL] [REST…] [--flag] [--page N]`.
    public var synopsis: String {
        if let customSynopsis { return customSynopsis }
        let parts = [name] + arguments.map(\.synopsis) + options.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }
}

// In an extension, so that the module keeps Swift's memberwise initializer,
// which the language's own entries use (`action: .syntax`, `.help`, `.source`).
extension CommandSpec {
    /// Declares a host command.
    ///
    /// - Parameters:
    ///   - synopsis: overrides the generated `name ARG [OPTIONAL] [--flag] [--opt V]`.
    ///   - handler: runs the command; throw ``LanguageError/commandFailed(_:)`` or
    ///     ``LanguageError/usage(_:)`` to fail. Other errors count as failures.
    public init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], synopsis: String? = nil,
        completion: CompletionProvider? = nil,
        handler: @escaping (CommandContext) throws -> Void
    ) {
        self.init(
            name: name, aliases: aliases, abstract: abstract, discussion: discussion,
            arguments: arguments, options: options, completion: completion,
            action: .host(handler), customSynopsis: synopsis)
    }
}

/// What a completion provider is asked: the command, the words before the one being
/// completed, and that word's prefix.
public struct CompletionRequest: Sendable, Equatable {
    /// The command's name as declared.
    public var command: String
    /// The complete words after the command name, before the word being completed.
    public var previousWords: [String]
    /// The start of the word being completed (may be empty).
    public var prefix: String
    /// The index of the positional argument being completed, options not counted.
    public var argumentIndex: Int
}

/// Returns candidate words for a ``CompletionRequest``; the table filters them by
/// prefix.
public typealias CompletionProvider = (CompletionRequest) -> [String]

/// A positional argument of a command: its name for synopsis and help, and how many
/// words it takes.
public struct ArgumentSpec: Sendable, Equatable {
    /// How many words an argument takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one word.
        case required
        /// Zero or one word.
        case optional
        /// Any number of words, including none; only the last argument may be variadic.
        case variadic
        /// One or more words; only the last argument may be.
        case oneOrMore
    }

    /// The name shown in synopsis and help, by convention upper case: `NAME`.
    public var name: String
    /// One line saying what the argument is.
    public var help: String
    /// How many words it takes.
    public var arity: Arity

    /// Creates an argument.
    public init(_ name: String, help: String = "", arity: Arity = .required) {
        self.name = name
        self.help = help
        self.arity = arity
    }

    var synopsis: String {
        switch arity {
        case .required: name
        case .optional: "[\(name)]"
        case .variadic: "[\(name)…]"
        case .oneOrMore: "\(name)…"
        }
    }
}

/// An option of a command: a flag such as `--json` or a valued option such as
/// `--page 2` (also written `--page=2`).
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes: `json` for `--json`.
    public var name: String
    /// An optional one-letter alias: `j` for `-j`.
    public var short: Character?
    /// The value's placeholder (`N` for `--page N`), or nil for a flag.
    public var valueName: String?
    /// One line saying what the option does.
    public var help: String

    /// Creates a flag, an option without a value.
    public static func flag(_ name: String, short: Character? = nil, help: String = "") -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// Creates an option that takes a value.
    public static func valued(
        _ name: String, valueName: String, short: Character? = nil, help: String = ""
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help)
    }

    /// `--json` or `--page N`.
    var synopsis: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }
}

/// What a command handler gets: its parsed arguments, the output sinks and access to
/// variables.
public struct CommandContext {
    /// The name the command was called by (may be an alias).
    public let name: String
    /// The words after the command name, as given.
    public let words: [String]
    /// The words parsed against the command's options and arguments.
    public let arguments: ParsedArguments
    unowned let interpreter: Interpreter

    /// Writes text to the result stream (stdout, or the `$(…)` capture).
    public func write(_ text: String) { interpreter.write(text) }

    /// Writes a line to the result stream.
    public func writeLine(_ text: String) { interpreter.write(text + "\n") }

    /// Writes a line to the diagnostic stream (stderr): notes and warnings that are
    /// not results.
    public func note(_ text: String) { interpreter.diagnostics(text + "\n") }

    /// Sets a script-scope variable, such as `$count` after a fetch.
    public func setVariable(_ name: String, to value: Value) { interpreter.setVariable(name, to: value) }

    /// Reads a variable as the calling code sees it (local first, then script scope).
    public func variable(_ name: String) -> Value? { interpreter.currentVariable(name) }

    /// Leaves a JSON document in `$result` for `json get PATH` (see
    /// ``Interpreter/setResultDocument(_:)``).
    public func setResultDocument(_ json: String?) {
        interpreter.setResultDocument(json)
    }

    /// Leaves a JSON document in `$result` that is made only if a script reads it
    /// (see ``Interpreter/setResultDocument(lazy:)``).
    public func setResultDocument(lazy produce: @escaping () -> String?) {
        interpreter.setResultDocument(lazy: produce)
    }

    /// Whether the host asked to stop; long-running handlers should check and throw
    /// `LanguageError(.interrupted, "interrupted")`.
    public var isInterruptRequested: Bool { interpreter.interruptRequested() }
}

// MARK: Binding a call's words to the declaration

/// Binds a command's words to its declared options and positional arguments.
public enum ArgumentBinder {
    /// Parses `words` (the words after the command name) against `spec`.
    ///
    /// `--` ends options; a word like `-5` is a positional number, not an option.
    /// Unknown options and missing or extra arguments are usage errors whose one-line
    /// message shows the synopsis.
    public static func bind(_ words: [String], to spec: CommandSpec) throws(LanguageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func usage(_ problem: String) -> LanguageError {
            LanguageError(.usage, "\(problem) (usage: \(spec.synopsis))", command: spec.name)
        }
        while index < words.count {
            let word = words[index]
            index += 1
            guard !optionsEnded, word.hasPrefix("-"), word.count > 1, Value.parseNumber(word) == nil else {
                parsed.positional.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inlineValue: String?
            let option: OptionSpec?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                option = spec.options.first { $0.name == name }
            } else {
                name = String(word.dropFirst())
                option = name.count == 1 ? spec.options.first { $0.short == name.first } : nil
            }
            guard let option else { throw usage("unknown option \(word)") }
            if let valueName = option.valueName {
                if let inlineValue {
                    parsed.options[option.name] = inlineValue
                } else {
                    guard index < words.count else { throw usage("--\(option.name) needs a value \(valueName)") }
                    parsed.options[option.name] = words[index]
                    index += 1
                }
                parsed.givenOptions.append(.init(name: option.name, value: parsed.options[option.name] ?? ""))
            } else {
                guard inlineValue == nil else { throw usage("--\(option.name) takes no value") }
                parsed.flags.insert(option.name)
            }
        }
        try bindPositional(&parsed, spec: spec, usage: usage)
        return parsed
    }

    private static func bindPositional(
        _ parsed: inout ParsedArguments, spec: CommandSpec, usage: (String) -> LanguageError
    ) throws(LanguageError) {
        var remaining = parsed.positional[...]
        let required = spec.arguments.filter { $0.arity == .required || $0.arity == .oneOrMore }.count
        guard remaining.count >= required else {
            var seen = 0
            let missing = spec.arguments.first { argument in
                guard argument.arity == .required || argument.arity == .oneOrMore else { return false }
                seen += 1
                return seen > remaining.count
            }
            throw usage("missing argument \(missing?.name ?? "")")
        }
        var optionalBudget = remaining.count - required
        for argument in spec.arguments {
            switch argument.arity {
            case .required:
                parsed.byArgument[argument.name] = [remaining.removeFirst()]
            case .optional:
                if optionalBudget > 0 {
                    parsed.byArgument[argument.name] = [remaining.removeFirst()]
                    optionalBudget -= 1
                }
            case .variadic, .oneOrMore:
                let take = argument.arity == .oneOrMore ? 1 + optionalBudget : optionalBudget
                parsed.byArgument[argument.name] = Array(remaining.prefix(take))
                remaining = remaining.dropFirst(take)
                optionalBudget = 0
            }
        }
        if let extra = remaining.first {
            throw usage("unexpected argument \"\(extra)\"")
        }
    }
}

/// A command's words after option parsing: flags, option values and positional
/// arguments by name.
public struct ParsedArguments: Sendable, Equatable {
    /// The positional words in order, options removed.
    public var positional: [String] = []
    /// The flags that were given, by long name.
    public var flags: Set<String> = []
    /// The valued options that were given, by long name (the last one wins).
    public var options: [String: String] = [:]
    /// The positional words grouped by the argument they bind to.
    public var byArgument: [String: [String]] = [:]
    /// Every valued option given, in order, repeats included (`--media a --alt x --media b`).
    public var givenOptions: [GivenOption] = []

    /// One `--name VALUE` as given.
    public struct GivenOption: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name VALUE`, or nil when it was not given.
    public func option(_ name: String) -> String? { options[name] }

    /// The value of `--name VALUE` as an integer; a usage error names the option when
    /// the value is not an integer.
    public func intOption(_ name: String) throws(LanguageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text) else {
            throw .usage("--\(name) expects an integer but got \"\(text)\"")
        }
        return value
    }

    /// The first word bound to the positional argument `name`, or nil.
    public subscript(_ name: String) -> String? { byArgument[name]?.first }

    /// All words bound to the positional argument `name` (for variadic arguments).
    public func values(_ name: String) -> [String] { byArgument[name] ?? [] }
}
