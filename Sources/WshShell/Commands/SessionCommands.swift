import FoundationEssentials
import WshText
import WshDataController
import WshLanguage
import WshRequest

/// `api`, `connect`, `status`, `ping`, `trace`: the session and raw requests.
extension Shell {
    /// `On weibo, for instance:` and its `api` lines, one a line, indented.
    static func apiExamples(_ dialect: any Dialect, on place: String) -> String {
        (["On \(place), for instance:"] + dialect.apiExamples.map { "  " + $0 }).joined(separator: "\n")
    }

    func sessionCommands() -> [CommandSpec] {
        var raw = CommandSpec(
                name: "api", abstract: "Send a raw API request and print the JSON answer.",
                discussion: """
                    METHOD is get, post, put, patch or delete. PATH is relative to the API base
                    (see the paths below); parameters are KEY=VALUE words,
                    percent-encoded for you (quote the whole word when the value has spaces):
                    the query of a get or delete, the form body of a post, put or patch.
                    --json BODY sends BODY (valid JSON) as the body instead, the parameters
                    then going in the query. The token is added as a header. The answer is
                    printed pretty when it is JSON; an API error, an HTTP error or an answer
                    that is not JSON prints what came and fails the command. Not recorded in
                    the history: undo does not take back what api did.
                    On Mastodon, for instance: `api patch api/v1/accounts/update_credentials
                    --json '{"note": "hi"}'`, `api delete api/v1/statuses/ID`.
                    """,
                arguments: [
                    ArgumentSpec("METHOD", help: "get, post, put, patch or delete"),
                    ArgumentSpec("PATH", help: "path under the API base"),
                    ArgumentSpec("PARAM", help: "KEY=VALUE", arity: .variadic),
                ],
                options: [.valued("json", valueName: "BODY", help: "send BODY (JSON) as the request body")],
                completion: { [unowned self] request in
                    switch request.argumentIndex {
                    case 0: ["get", "post", "put", "patch", "delete"]
                    // The connected API's own paths; every API's while it is not known yet.
                    case 1: connection.knownDialect.map(\.apiPaths) ?? Dialects.all.flatMap(\.apiPaths)
                    default: []
                    }
                },
                handler: { [unowned self] context in try api(context) })
        // Examples in the connected API's own paths (each API's on the manual page).
        raw.currentNotes = { [unowned self] in connection.knownDialect.map { Self.apiExamples($0, on: "this API (\($0.name))") } }
        raw.makeManualNotes = { Dialects.all.map { Self.apiExamples($0, on: $0.name) }.joined(separator: "\n\n") }
        return [
            raw,
            CommandSpec(
                name: "connect", abstract: "Point the session at the sandbox or an API base URL.",
                discussion: """
                    With no argument, shows where the session points. `connect sandbox` uses the
                    embedded sandbox; `connect https://api.weibo.com/2/` the real API with the
                    token from WSH_ACCESS_TOKEN or --token-file; `connect https://mastodon.social`
                    a Mastodon server. --dialect says which API it is (else: weibo for the sandbox
                    and a /2/ base; for another URL wsh asks the server at once, its nodeinfo then
                    api/v1/instance, and says what answers: `mastodon 4.3.1`, `gotosocial 0.17.3`;
                    software with an API of its own is refused and the session stays where it was):
                    `connect sandbox --dialect mastodon` is the sandbox's Mastodon side. Switching
                    clears the history.
                    """,
                arguments: [ArgumentSpec("TARGET", help: "sandbox or a URL", arity: .optional)],
                options: [.valued("dialect", valueName: "NAME", help: "weibo or mastodon")],
                completion: { _ in ["sandbox", "https://api.weibo.com/2/", "https://mastodon.social"] },
                handler: { [unowned self] context in try connect(context) }),
            CommandSpec(
                name: "status", abstract: "Show the connection, rows, history and settings.",
                options: [.json],
                handler: { [unowned self] context in try status(context) }),
            CommandSpec(
                name: "record", abstract: "Record the session's HTTP exchanges to a HAR file, or stop.",
                discussion: """
                    `record on FILE` appends every HTTP exchange from now on to FILE (HAR 1.2,
                    secrets masked, mode 0600, valid after each exchange; an existing FILE is
                    replaced), as `wsh --record FILE` does from the start; `record off` stops,
                    leaving FILE complete. With no argument, says what records (as `status`:
                    off, to FILE, or replaying FILE). Not under --replay. Replay a recording
                    with `wsh --replay FILE` or serve it with `wsh-sandbox --replay FILE`.
                      record on lesson.har; fetch 20; detail 3; record off
                    """,
                arguments: [ArgumentSpec("on|off", help: "start or stop recording", arity: .optional),
                            ArgumentSpec("FILE", help: "with on: the HAR file to write", arity: .optional)],
                completion: { request in request.argumentIndex == 0 ? ["on", "off"] : [] },
                handler: { [unowned self] context in try record(context) }),
            CommandSpec(
                name: "ping", abstract: "Check that the API answers, and how fast.",
                handler: { [unowned self] context in try ping(context) }),
            CommandSpec(
                name: "trace", abstract: "Show each command's path through the layers.",
                discussion: """
                    `trace on` prints, for every command, the ViewModel input, the DataController
                    call, the HTTP request (method, URL, status, bytes, time), the decoded count,
                    the ViewModel change notification and the View rendered. Tokens show as ***.
                    `trace on --json` writes the same path as JSON Lines on stderr, one object per
                    layer event: {"command", "layer", "event", "detail", "ms"}, layer one of Shell,
                    ViewModel, DataController, Request, Model, View; ms null when not timed. Events:
                    Shell command/done/failed, ViewModel input/change, DataController call/cache
                    (answered from the cache, no request), Request request/failed (method, URL,
                    status), Model decoded (count), View rendered/none. `api` shows Request only.
                    `trace off` stops either form. After a fetch, this shows a DataController cache
                    event and no Request event:
                      trace on --json; detail 3
                    `trace diagram FILE` draws the last command traced while trace was on (the
                    shell keeps the last 10) as a sequence diagram: FILE.svg, a picture with a
                    lifeline per layer and the real calls as arrows, and FILE.mmd, the same as
                    Mermaid text for slides. --last N draws the last N traced commands.
                      trace on; fetch 3; detail 1; trace diagram lesson --last 2
                    """,
                arguments: [
                    ArgumentSpec("on|off|diagram", help: "turn tracing on or off, or draw what was traced",
                                 arity: .optional),
                    ArgumentSpec("FILE", help: "with diagram: writes FILE.svg and FILE.mmd", arity: .optional),
                ],
                options: [
                    .flag("json", help: "one JSON object per layer event (with on)"),
                    .valued("last", valueName: "N", help: "with diagram: the last N traced commands (1–10, default 1)"),
                ],
                completion: { request in request.argumentIndex == 0 ? ["on", "off", "diagram"] : [] },
                handler: { [unowned self] context in try trace(context) }),
        ]
    }

    private func record(_ context: CommandContext) throws(LanguageError) {
        let file = context.arguments["FILE"]
        switch context.arguments["on|off"] {
        case nil:
            if file != nil { throw .usage("a FILE goes with on: record on FILE") }
            context.write("recording \(connection.recordingSummary)\n")
        case "on":
            guard let file, !file.isEmpty else { throw .usage("record on needs a FILE: record on FILE.har") }
            do {
                try connection.startRecording(to: file, version: Shell.version)
            } catch {
                throw failure(error)
            }
            context.note("recording to \(file)")
        case "off":
            if file != nil { throw .usage("record off takes no FILE") }
            do {
                let path = try connection.stopRecording()
                context.note("recorded to \(path)")
            } catch {
                throw failure(error)
            }
        case let other?:
            throw .usage("record takes on FILE or off, not '\(other)'")
        }
    }

    private func api(_ context: CommandContext) throws(LanguageError) {
        guard let method = HTTPMethod(rawValue: (context.arguments["METHOD"] ?? "").uppercased()) else {
            throw .usage("METHOD is get, post, put, patch or delete, not '\(context.arguments["METHOD"] ?? "")'")
        }
        var jsonBody: [UInt8]?
        if let text = context.arguments.option("json") {
            guard JSONView.pretty(Data(text.utf8)) != nil else { throw .usage("--json: the body is not valid JSON") }
            guard method.sendsBody else { throw .usage("--json: a \(method.rawValue) sends no body (give post, put or patch)") }
            jsonBody = Array(text.utf8)
        }
        var parameters: [(String, String)] = []
        for word in context.arguments.values("PARAM") {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw .usage("parameters are KEY=VALUE, not '\(word)'")
            }
            parameters.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
        }
        let endpoint = Endpoint(method, context.arguments["PATH"] ?? "", parameters: parameters, jsonBody: jsonBody)
        let client = try client()
        let request = try requestOrFail(client, endpoint)
        let command = ([context.name] + context.words).joined(separator: " ")
        stream.publish(.inputStarted(command: command, input: nil))
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try wait { try await client.http.send(request) }
        } catch {
            publishRaw(command, request, response: nil, failure: error, started: started)
            throw error
        }
        // What came is shown either way: pretty when it is JSON, as it came (sanitized) when not.
        let pretty = response.body.isEmpty ? "" : JSONView.pretty(response.body)
        let shown = pretty ?? JSONView.raw(response.body)
        publishRaw(command, request, response: response, failure: nil, started: started, shown: shown)
        context.write(shown)
        // The sanitized form, so `json get` never prints a control character the server sent.
        if let pretty, !pretty.isEmpty { context.setResultDocument(pretty) }
        do {
            try APIClient.check(response, url: redact(request.url), errors: client.errors)
        } catch {
            throw failure(error)
        }
        if pretty == nil {
            let type = response.headers["content-type"].map { ", \($0)" } ?? ""
            throw .commandFailed("the answer is not valid JSON (HTTP \(response.status), \(response.body.count) bytes\(type))")
        }
    }

    /// `api` on the session's stream: no ViewModel or DataController, the
    /// Request layer alone, and the answer shown as it came (`JSONView`).
    private func publishRaw(_ command: String, _ request: HTTPRequest, response: HTTPResponse?,
                            failure: LanguageError?, started: ContinuousClock.Instant, shown: String = "") {
        let event = TraceEvent(
            call: "(none: api goes straight to the Request layer)", method: request.method.rawValue,
            url: redact(request.url), status: response?.status, bytes: response?.body.count ?? 0,
            milliseconds: (response?.metrics.totalSeconds ?? 0) * 1000,
            newConnections: response?.metrics.newConnections ?? 0, itemCount: 0,
            source: failure.map { .failed($0.message) } ?? .network, route: response?.sandboxRoute)
        stream.publish(.dataController(event))
        if failure == nil {
            stream.publish(.rendered(view: "JSONView", text: TerminalText.sanitize(shown, .multiline), onTerminal: true))
        }
        stream.publish(.inputEnded(InputEnded(
            command: command, show: [], expand: false, notes: [], failure: failure?.message,
            elapsed: ContinuousClock.now - started)))
    }

    /// Subscribes the trace to the session's stream (once): each input's
    /// record is kept for `trace diagram` and drawn on stderr.
    func traceOn() {
        guard traceSubscriber == nil else { return }
        let shell = MainThreadOwned(self)
        let subscriber = TraceSubscriber(finished: { record in
            shell.value.traced.keep(record)
            shell.value.showTrace(record)
        })
        traceSubscriber = subscriber
        stream.subscribe(subscriber)
    }

    /// Stops the trace.
    func traceOff() {
        if let traceSubscriber { stream.unsubscribe(traceSubscriber) }
        traceSubscriber = nil
        tracingJSON = false
    }

    /// Writes one traced command's path on stderr, drawn or as JSON Lines.
    func showTrace(_ record: TraceRecord) {
        if tracingJSON {
            console.diagnostic(TraceJSONView().render(
                command: record.command, input: record.input, entries: record.entries,
                rendered: record.rendered, failure: record.failure, elapsed: record.elapsed))
        } else {
            console.diagnostic(TraceView(style: console.diagnosticStyle).render(
                command: record.command, input: record.input ?? "(none)", entries: record.entries,
                rendered: record.rendered, failure: record.failure, elapsed: record.elapsed))
        }
    }

    private func requestOrFail(_ client: APIClient, _ endpoint: Endpoint) throws(LanguageError) -> HTTPRequest {
        do { return try client.request(for: endpoint) } catch { throw failure(error) }
    }

    private func connect(_ context: CommandContext) throws(LanguageError) {
        guard let word = context.arguments["TARGET"] else {
            context.writeLine(connection.baseURL.map { "\(connection.target) (\($0))" } ?? "\(connection.target)")
            return
        }
        let target: Connection.Target
        if word == "sandbox" {
            target = .sandbox
        } else if word.hasPrefix("http://") || word.hasPrefix("https://") {
            target = .url(word.hasSuffix("/") ? word : word + "/")
        } else {
            throw .usage("TARGET is sandbox or an http(s) URL, not '\(word)'")
        }
        var dialect = Connection.DialectChoice.detect
        if let name = context.arguments.option("dialect") {
            guard let choice = Connection.DialectChoice(rawValue: name), choice != .detect else {
                throw .usage("--dialect is weibo or mastodon, not '\(name)'")
            }
            dialect = choice
        }
        let unreachable: RequestError?
        do {
            unreachable = try connection.connectFindingOut(to: target, dialect: dialect)
        } catch {
            throw .commandFailed("not connected to \(target): \(error.description)")
        }
        resetSession()
        if let unreachable {
            context.note("connected to \(target); it does not answer now (\(unreachable.description)): the first request finds out its API")
        } else {
            context.note("connected to \(target): \(connection.dialectName)")
        }
    }

    private func status(_ context: CommandContext) throws(LanguageError) {
        var facts: [(String, String)] = [
            ("api", connection.target.description),
            ("dialect", connection.dialectName),
            ("base_url", connection.baseURL ?? "(not started)"),
            ("token", tokenDescription),
            ("rows", String(rowCount)),
            ("operations", String(operationCount)),
            ("trace", tracing ? "on" : "off"),
            ("libcurl", connection.isOpen ? (CurlHTTPClient.libraryVersion?.split(separator: " ").first.map(String.init) ?? "unavailable") : "(not loaded)"),
            ("recording", connection.recordingSummary),
        ]
        let profile = connection.profile
        let document = SessionFacts(
            api: facts[0].1, dialect: facts[1].1, baseURL: facts[2].1, token: facts[3].1, rows: rowCount,
            operations: operationCount, trace: facts[6].1, libcurl: facts[7].1, recording: facts[8].1,
            server: profile.map(ServerFacts.init))
        // The server detection found, in one line, and what its API lacks (commands refuse those before any request).
        if let profile {
            facts.insert(("server", profile.description), at: 2)
            if !profile.lacking.isEmpty { facts.insert(("lacks", profile.lacking.joined(separator: ", ")), at: 3) }
        }
        leaveResult(context, document)
        if wantsJSON(context) {
            context.write(try JSONView.encode(document))
        } else {
            let width = facts.map(\.0.count).max() ?? 0
            for (key, value) in facts {
                context.writeLine(console.style.dim(DisplayWidth.padRight(key.replacing("_", with: " "), to: width)) + "  " + value)
            }
        }
    }

    /// Where the token comes from, never its value. Precedence on an API URL:
    /// --token-command or --token-file, else $WSH_ACCESS_TOKEN, else the
    /// active stored account; on the sandbox: its active account, else its own token.
    private var tokenDescription: String {
        do {
            let credential = try connection.credential()
            switch credential.origin {
            case .sandbox: return "sandbox token (***)"
            case .none: return "none (\(connection.tokenSource) is not set and no account is active: run login)"
            default: return "*** from \(credential.origin.description)"
            }
        } catch {
            return "unusable: \(redact(error.description))"
        }
    }

    private func ping(_ context: CommandContext) throws(LanguageError) {
        let client = try client()
        let base = client.configuration.baseURL
        let result = try wait { await Reachability.check(base, using: client.http) }
        guard result.isReachable else {
            throw .commandFailed("\(connection.target): \(result)")
        }
        context.writeLine("\(connection.target): \(result)")
    }

    private func trace(_ context: CommandContext) throws(LanguageError) {
        let json = context.arguments.flag("json")
        let word = context.arguments["on|off|diagram"]
        if word != "diagram" {
            if context.arguments["FILE"] != nil { throw .usage("a FILE goes with diagram: trace diagram FILE") }
            if context.arguments.option("last") != nil { throw .usage("--last goes with diagram: trace diagram FILE --last N") }
        }
        switch word {
        case nil where json: throw .usage("--json goes with on: trace on --json")
        case nil: context.writeLine(tracing ? (tracingJSON ? "on --json" : "on") : "off")
        case "on":
            tracingJSON = json
            traceOn()
        case "off" where json: throw .usage("--json goes with on: trace on --json")
        case "off":
            traceOff()
        case "diagram" where json: throw .usage("--json goes with on: trace on --json")
        case "diagram": try traceDiagram(context)
        case let other?: throw .usage("trace takes on, off or diagram, not '\(other)'")
        }
    }

    /// `trace diagram FILE [--last N]`: FILE.svg and FILE.mmd of the last traced commands.
    private func traceDiagram(_ context: CommandContext) throws(LanguageError) {
        guard let file = context.arguments["FILE"], !file.isEmpty else {
            throw .usage("trace diagram needs a FILE: trace diagram FILE [--last N]")
        }
        let last = try context.arguments.intOption("last") ?? 1
        guard (1...TraceRecord.kept).contains(last) else {
            throw .usage("--last takes 1 to \(TraceRecord.kept), not \(last)")
        }
        guard !traced.isEmpty else {
            throw .usage("nothing was traced yet: trace on first, then run a command")
        }
        // `trace diagram lesson.svg` means the same as `trace diagram lesson`.
        var base = file
        for suffix in [".svg", ".mmd"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        let diagram = TraceDiagram(Array(traced.suffix(last)))
        for (path, text) in [(base + ".svg", TraceSVGView().render(diagram)),
                             (base + ".mmd", TraceMermaidView().render(diagram))] {
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw .commandFailed("cannot write \(path): \(SystemError.reason(error))")
            }
        }
        let count = min(last, traced.count)
        context.note("wrote \(base).svg and \(base).mmd (\(count) command\(count == 1 ? "" : "s"))")
    }

}

/// `status --json`: where the session points and what it holds. `token`
/// says where the token comes from, never its value.
private struct SessionFacts: Encodable {
    var api: String
    var dialect: String
    var baseURL: String
    var token: String
    var rows: Int
    var operations: Int
    var trace: String
    var libcurl: String
    var recording: String
    /// The server detection found; absent until it has run (or for Weibo and the sandbox).
    var server: ServerFacts?

    enum CodingKeys: String, CodingKey {
        case api, dialect, token, rows, operations, trace, libcurl, recording, server
        case baseURL = "base_url"
    }
}

/// `status --json`'s `server`: the profile detection found.
private struct ServerFacts: Encodable {
    var software: String
    var version: String?
    var mastodonVersion: String?
    var mastodonAPIVersion: Int?
    var compatibilityLayer: Bool
    var lacks: [String]
    var summary: String

    init(_ profile: ServerProfile) {
        software = profile.displayName
        version = profile.software.version
        mastodonVersion = profile.mastodonVersion
        mastodonAPIVersion = profile.mastodonAPIVersion
        compatibilityLayer = profile.compatibilityLayer
        lacks = profile.lacking
        summary = profile.description
    }

    enum CodingKeys: String, CodingKey {
        case software, version, lacks, summary
        case mastodonVersion = "mastodon_version"
        case mastodonAPIVersion = "mastodon_api_version"
        case compatibilityLayer = "compatibility_layer"
    }
}
