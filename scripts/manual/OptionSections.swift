/// The sections a page renders from argument-parser's declarations, so the
/// synopsis and options cannot drift from what the tool accepts.
extension Roff {
    /// `.SH NAME`: `tool \- abstract`.
    mutating func nameSection(_ tool: CommandInfo) {
        section("Name")
        var abstract = tool.abstract ?? ""
        if abstract.hasSuffix(".") { abstract.removeLast() }
        if let first = abstract.first { abstract = first.lowercased() + abstract.dropFirst() }
        text(Roff.escape(tool.commandName) + " \\- " + Roff.escape(abstract))
    }

    /// `.SH SYNOPSIS`: the usage line, one word per declared argument.
    mutating func synopsisSection(_ tool: CommandInfo, extraLines: [String] = []) {
        section("Synopsis")
        let words = (tool.arguments ?? []).filter(\.shouldDisplay).filter { !$0.isHelp }.map(\.synopsisWord)
        text(Roff.bold(tool.commandName) + " " + words.joined(separator: " "))
        for line in extraLines {
            lineBreak()
            text(line)
        }
    }

    /// `.SH OPTIONS`: every displayed option and argument with its help and default.
    mutating func optionsSection(_ tool: CommandInfo) {
        section("Options")
        for argument in (tool.arguments ?? []) where argument.shouldDisplay {
            var description = argument.abstract ?? ""
            if let discussion = argument.discussion, !discussion.isEmpty { description += "\n\n" + discussion }
            if let value = argument.defaultValue, argument.kind == .option {
                description += " (default: `\(value)`)"
            }
            tagged(argument.tag, description)
        }
    }
}

extension ArgumentInfo {
    /// `-h, --help`, which argument-parser adds to every command.
    var isHelp: Bool {
        kind == .flag && (names ?? []).contains { $0.name == "help" }
    }

    /// How the argument reads in the synopsis: `[--api url]`, `[file ...]`.
    var synopsisWord: String {
        let value = Roff.italic(valueName ?? "value")
        var word: String
        switch kind {
        case .positional: word = value
        case .flag: word = Roff.bold(preferredSpelling)
        case .option: word = Roff.bold(preferredSpelling) + " " + value
        }
        if isRepeating { word += " ..." }
        return isOptional ? "[" + word + "]" : word
    }

    /// How the argument is listed under OPTIONS: every name, and the value.
    var tag: String {
        let value = Roff.italic(valueName ?? "value")
        switch kind {
        case .positional: return value + (isRepeating ? " ..." : "")
        case .flag: return spellings.map(Roff.bold).joined(separator: ", ")
        case .option: return spellings.map(Roff.bold).joined(separator: ", ") + " " + value
        }
    }

    private var spellings: [String] { (names ?? []).map(\.spelled) }

    /// The long name if there is one.
    private var preferredSpelling: String {
        (names ?? []).first { $0.kind == "long" }?.spelled ?? spellings.first ?? ""
    }
}
