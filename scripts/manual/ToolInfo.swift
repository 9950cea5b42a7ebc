/// The part of swift-argument-parser's `--experimental-dump-help` JSON
/// (`ToolInfoV0`) that a man page needs. argument-parser does not export
/// its `ArgumentParserToolInfo` module, so these mirror its field names.
struct ToolInfo: Decodable {
    var command: CommandInfo
}

/// One command: its name, help text and arguments.
struct CommandInfo: Decodable {
    var commandName: String
    var abstract: String?
    var discussion: String?
    var arguments: [ArgumentInfo]?
}

/// One option, flag or positional argument.
struct ArgumentInfo: Decodable {
    enum Kind: String, Decodable {
        case positional, option, flag
    }

    struct Name: Decodable {
        var kind: String
        var name: String

        /// The name as typed: `--api`, `-c`, `-long`.
        var spelled: String {
            switch kind {
            case "long": "--" + name
            case "short": "-" + name
            default: "-" + name
            }
        }
    }

    var kind: Kind
    var shouldDisplay: Bool
    var isOptional: Bool
    var isRepeating: Bool
    var names: [Name]?
    var valueName: String?
    var defaultValue: String?
    var abstract: String?
    var discussion: String?
}
