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
