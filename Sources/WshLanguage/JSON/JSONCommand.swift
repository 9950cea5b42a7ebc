/// `json get PATH [TEXT]` and `json valid [TEXT]`: values out of JSON text, or out
/// of the document the last host command left in `$result`.
enum JSONCommand {
    static let synopsis = "json get PATH [TEXT] | json valid [TEXT]"

    static var spec: CommandSpec {
        CommandSpec(
            name: "json", abstract: "Read a value out of JSON text, or check that text is JSON.",
            discussion: """
                json get PATH [TEXT] prints the value at PATH: strings as plain text, numbers
                as written, true/false, null as an empty line, arrays and objects as compact
                JSON. PATH is a jq subset: . (all), .key, .["any key"], [N], [-1] (from the
                end), chained (.statuses[0].user.name), then optionally | length or | keys.
                A missing path fails (status 1) naming where it stopped.
                json valid [TEXT] succeeds when TEXT is one JSON value and fails (status 1)
                otherwise, printing nothing; test it with try: try { json valid $t }; if $? == 0 { … }
                Without TEXT both read $result, the JSON the last command left (the host
                decides which commands leave one).
                """,
            arguments: [
                ArgumentSpec("ACTION", help: "get or valid"),
                ArgumentSpec("ARGS", help: "PATH and TEXT for get, TEXT for valid", arity: .variadic),
            ],
            completion: { request in request.argumentIndex == 0 ? ["get", "valid"] : [] },
            action: .host { context in try run(context) }, customSynopsis: synopsis)
    }

    private static func run(_ context: CommandContext) throws(LanguageError) {
        let words = context.arguments.values("ARGS")
        let interpreter = context.interpreter
        switch context.arguments["ACTION"] {
        case "get":
            guard words.count == 1 || words.count == 2 else { throw usage(words.isEmpty ? "missing PATH" : "too many words") }
            let path = try JSONPath.parse(words[0])
            let value = words.count == 2
                ? try get(path, in: words[1]).output
                : try interpreter.withResultDocument { text, isKnownValid throws(LanguageError) in
                    try get(path, in: text, isKnownValid: isKnownValid).output
                }
            context.writeLine(value)
        case "valid":
            guard words.count <= 1 else { throw usage("too many words") }
            if let text = words.first {
                try validate(text)
            } else {
                try interpreter.withResultDocument { text, isKnownValid throws(LanguageError) in
                    if !isKnownValid { try validate(text) }
                }
            }
        case let other:
            throw usage("unknown action \"\(other ?? "")\": get or valid")
        }
    }

    private static func usage(_ problem: String) -> LanguageError {
        .usage("\(problem) (usage: \(synopsis))")
    }

    /// The text `json get` prints for `path` in `text`, and the bytes the scanner
    /// covered (linear in the text's size).
    static func get(_ path: JSONPath, in text: String, isKnownValid: Bool = false) throws(LanguageError) -> (output: String, work: Int) {
        try withBytes(text) { bytes throws(LanguageError) in
            var scanner = JSONScanner(bytes)
            if !isKnownValid { try check(&scanner) }
            let start = try scanner.locate(path.steps)
            let output: String
            switch path.filter {
            case nil:
                output = scanner.render(at: start)
            case .length?:
                guard let length = scanner.length(at: start) else {
                    throw .commandFailed("\(JSONPath.render(path.steps[...])) has no length: it is \(scanner.kind(at: start))")
                }
                output = String(length)
            case .keys?:
                guard let keys = scanner.keys(at: start) else {
                    throw .commandFailed("\(JSONPath.render(path.steps[...])) has no keys: it is \(scanner.kind(at: start))")
                }
                output = keys
            }
            return (output, scanner.work)
        }
    }

    /// Fails with a one-line "not JSON: …" unless `text` is one JSON value.
    static func validate(_ text: String) throws(LanguageError) {
        try withBytes(text) { bytes throws(LanguageError) in
            var scanner = JSONScanner(bytes)
            try check(&scanner)
        }
    }

    private static func check(_ scanner: inout JSONScanner) throws(LanguageError) {
        guard !scanner.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw .commandFailed("not JSON: the text is empty")
        }
        do {
            try scanner.validate()
        } catch {
            throw .commandFailed("not JSON: \(error.problem) at \(scanner.location(of: error.offset))")
        }
    }

    /// Runs `body` on the text's UTF-8, in place when the string is stored contiguously.
    private static func withBytes<T>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(LanguageError) -> T
    ) throws(LanguageError) -> T {
        // `withContiguousStorageIfAvailable` only rethrows untyped errors: the failure rides out in a Result.
        let result = text.utf8.withContiguousStorageIfAvailable { bytes in Result { () throws(LanguageError) in try body(bytes) } }
        if let result { return try result.get() }
        return try Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
