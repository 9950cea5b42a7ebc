import FoundationEssentials

/// The commands an interpreter knows, built-ins and syntax forms included, by name
/// and alias. `help`, usage errors and completion all read this table.
public struct CommandTable {
    /// A name in the table: a command, or an alias of one.
    ///
    /// One dictionary holds both. (A second `[String: String]` for the aliases
    /// shared its growth code with swift-argument-parser's, which the release
    /// build compiles differently, and cost start-up a scan of every protocol
    /// conformance in the binary.)
    private enum Entry {
        case command(CommandSpec)
        case alias(of: String)
    }

    private var entries: [String: Entry] = [:]

    /// Creates an empty table.
    public init() {}

    /// Adds or replaces a command (and its aliases).
    public mutating func register(_ spec: CommandSpec) {
        if case .command(let old)? = entries[spec.name] {
            for alias in old.aliases {
                if case .alias(let target)? = entries[alias], target == spec.name { entries[alias] = nil }
            }
        }
        entries[spec.name] = .command(spec)
        // A command's own name wins over another command's alias.
        for alias in spec.aliases {
            if case .command? = entries[alias] { continue }
            entries[alias] = .alias(of: spec.name)
        }
    }

    /// The command called `name`, directly or by alias.
    public func lookup(_ name: String) -> CommandSpec? {
        switch entries[name] {
        case .command(let spec)?: spec
        case .alias(let target)?: if case .command(let spec)? = entries[target] { spec } else { nil }
        case nil: nil
        }
    }

    /// Every command, sorted by name.
    public var all: [CommandSpec] {
        entries.values.compactMap { entry in
            if case .command(let spec) = entry { spec } else { nil }
        }.sorted { $0.name < $1.name }
    }

    /// Names and aliases starting with `prefix`, sorted, for TAB completion.
    public func names(withPrefix prefix: String) -> [String] {
        entries.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Candidates for the word being completed after `command previousWords…`:
    /// option names when `prefix` starts with `-`, otherwise the command's completion
    /// provider's words, filtered by `prefix`.
    public func completions(forCommand command: String, previousWords: [String], prefix: String) -> [String] {
        guard let spec = lookup(command) else { return [] }
        if prefix.hasPrefix("-") {
            return spec.options.map { "--\($0.name)" }.filter { $0.hasPrefix(prefix) }
        }
        // Count positional words before this one, skipping options and their values.
        var argumentIndex = 0
        var index = 0
        while index < previousWords.count {
            let word = previousWords[index]
            index += 1
            if word.hasPrefix("--"), let option = spec.options.first(where: { "--\($0.name)" == word }) {
                if option.valueName != nil { index += 1 }
            } else if !word.hasPrefix("-") {
                argumentIndex += 1
            }
        }
        if let previous = previousWords.last, let option = spec.options.first(where: { "--\($0.name)" == previous }),
            option.valueName != nil
        {
            argumentIndex = -1  // completing an option's value
        }
        guard let provider = spec.completion else { return [] }
        let request = CompletionRequest(
            command: spec.name, previousWords: previousWords, prefix: prefix, argumentIndex: argumentIndex)
        return provider(request).filter { $0.hasPrefix(prefix) }
    }

    /// The `help` listing: one line per command with its abstract.
    public func renderHelp() -> String {
        let all = self.all
        let width = all.map(\.name.count).max() ?? 0
        var text = "Commands (help NAME for details):\n"
        for spec in all {
            text += "  " + padded(spec.name, to: width)
            text += "  " + spec.abstract + (spec.unavailable?().map { " [\($0)]" } ?? "") + "\n"
        }
        return text
    }

    /// `help NAME`: synopsis, abstract, discussion, arguments, options and aliases;
    /// nil when there is no such command.
    public func renderHelp(for name: String) -> String? {
        guard let spec = lookup(name) else { return nil }
        var text = "usage: \(spec.synopsis)\n\n\(spec.abstract)\n"
        if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
        if let notes = spec.currentNotes?(), !notes.isEmpty { text += "\n\(notes)\n" }
        let rows = spec.arguments.map { ($0.name, $0.help) }
        let optionRows = spec.options.map { option in
            (option.short.map { "-\($0), " } ?? "") + option.synopsis
        }
        let width = (rows.map(\.0.count) + optionRows.map(\.count)).max() ?? 0
        if !rows.isEmpty {
            text += "\narguments:\n"
            for (label, help) in rows {
                text += "  " + padded(label, to: width) + "  " + help + "\n"
            }
        }
        if !spec.options.isEmpty {
            text += "\noptions:\n"
            for (label, option) in zip(optionRows, spec.options) {
                text += "  " + padded(label, to: width) + "  " + option.help + "\n"
            }
        }
        if !spec.aliases.isEmpty { text += "\naliases: \(spec.aliases.joined(separator: ", "))\n" }
        return text
    }
}

/// `text` with spaces after it up to `width` characters (never cut).
private func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
