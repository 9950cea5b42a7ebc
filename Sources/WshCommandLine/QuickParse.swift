/// The everyday command lines, read without argument-parser.
///
/// It accepts only forms whose meaning under `Arguments` is plain — each
/// option at most once, values that do not start with `-`, no `=` forms, no
/// help or version — and returns nil for anything else, so that
/// `Arguments` parses it and words any error. Tests hold the two to the same
/// result on every line this accepts.
enum QuickParse {
    static func options(_ arguments: [String]) -> Options? {
        var options = Options()
        // An array, not a Set: a Set<String> instantiates its metadata by name at
        // start-up, a scan of every protocol conformance in the binary.
        var seen: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            guard word.hasPrefix("-") else {
                // The first positional word starts the script and its arguments,
                // which are passed through untouched.
                options.script = Array(arguments[index...])
                break
            }
            guard !seen.contains(word) else { return nil }
            seen.append(word)
            switch word {
            case "--json": options.json = true
            case "--no-color": options.noColor = true
            case "--offline": options.offline = true
            case "-c", "--api", "--dialect", "--token-file", "--token-command", "--cacert", "--record", "--replay",
                 "--timeout", "--present", "--archive":
                index += 1
                guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                let value = arguments[index]
                guard !excludesOne(of: seen, word) else { return nil }
                switch word {
                case "-c": options.command = value
                case "--present": options.present = value
                case "--api":
                    guard Options.isAPIBase(value) else { return nil }
                    options.api = value
                case "--dialect":
                    guard Options.dialects.contains(value) else { return nil }
                    options.dialect = value
                case "--token-file": options.tokenFile = value
                case "--token-command": options.tokenCommand = value
                case "--cacert":
                    guard CABundleFile.problem(value) == nil else { return nil }
                    options.cacert = value
                case "--record": options.record = value
                case "--replay": options.replay = value
                case "--archive": options.archive = value
                default:
                    guard let seconds = Double(value), Options.isTimeout(seconds) else { return nil }
                    options.timeout = seconds
                }
            default:
                return nil
            }
            index += 1
        }
        return options
    }

    /// The options `Arguments` refuses together ("give -c or --present, not both").
    private static let exclusive = [("-c", "--present"), ("--token-file", "--token-command"), ("--record", "--replay")]

    /// Whether `word` and an option among `seen` are one of the `exclusive` pairs.
    private static func excludesOne(of seen: [String], _ word: String) -> Bool {
        exclusive.contains { ($0.0 == word && seen.contains($0.1)) || ($0.1 == word && seen.contains($0.0)) }
    }
}
