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
