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
    public var positional: [String]
    /// The flags that were given, by long name.
    public var flags: Set<String>
    /// The valued options that were given, by long name (the last one wins).
    public var options: [String: String]
    /// The positional words grouped by the argument they bind to.
    public var byArgument: [String: [String]]
    /// Every valued option given, in order, repeats included (`--media a --alt x --media b`).
    public var givenOptions: [GivenOption] = []

    /// One `--name VALUE` as given.
    public struct GivenOption: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// Creates parsed arguments; ``ArgumentBinder`` makes these from words.
    public init(
        positional: [String] = [], flags: Set<String> = [], options: [String: String] = [:],
        byArgument: [String: [String]] = [:]
    ) {
        self.positional = positional
        self.flags = flags
        self.options = options
        self.byArgument = byArgument
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

    /// Every value of a repeatable `--name VALUE`, in order.
    public func optionValues(_ name: String) -> [String] { givenOptions.filter { $0.name == name }.map(\.value) }

    /// The first word bound to the positional argument `name`, or nil.
    public subscript(_ name: String) -> String? { byArgument[name]?.first }

    /// All words bound to the positional argument `name` (for variadic arguments).
    public func values(_ name: String) -> [String] { byArgument[name] ?? [] }
}
