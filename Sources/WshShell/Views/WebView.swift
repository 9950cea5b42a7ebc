import FoundationEssentials
import Synchronization
import WshRequest
import WshText
import WshViewModel
import WshWeb

/// The classroom page as a subscriber of the session's stream: each event
/// becomes one JSON object in the page's log (`ClassroomLog`), in the
/// vocabulary of `trace on --json` (`layer`, `event`, `detail`, `ms`) plus
/// what a page needs besides: the line typed, the Views with their text, the
/// terminal's text, the state with what changed, the history, and a lesson's
/// narration.
///
/// Every object has `type` and, but for `lesson`, `line`: the number of
/// the line it belongs to (from 1), so a page groups them and shows any line
/// as it was. The objects (`id` is added by the log):
///
/// - `line` `{text, location, at}`: a line about to run (`location` is
///   `prompt`, `-c` or `FILE:LINE`; `at` the local time).
/// - `input` `{step, command, input}`: a ViewModel input begins (`step`
///   counts the inputs of the line from 0; `input` is null for `api`).
/// - `layer` `{step, command, layer, event, detail, ms}`: what `trace on
///   --json` writes, and `Server` `route` lines where the sandbox answered;
///   with `source` `{file, function, line}`, the place in wsh's source that
///   produced it, where known (the DataController's call site, for its call
///   and the requests and Model values it brought; the ViewModel's input and
///   the line that sent its change notification), and for a request
///   `exchange` `{method, url, status, headers, body}` (headers and body
///   only for the last request of a call: its answer, masked and begun).
/// - `view` `{step, view, text, terminal}`: a View rendered; `terminal` is
///   false for a screen a script did not show, rendered for the page.
/// - `output` `{text, stream}`: what the terminal printed, `stdout` or `stderr`.
/// - `state` `{state, diff}` or `{patch, diff}`: the `state --json`
///   document whole, or the members that changed since the last `state`
///   (`WebDocuments`), and what the line changed (`state --diff --json`).
/// - `history` `{operations: [{text, remote, applied}], position}` whole, or
///   `{drop, keep, add, position}`: what changed since the last `history`.
/// - `snapshot` `{state, history}`: both whole as the line starts, every
///   `WebDocuments.snapshotEvery` lines, before its `line`: a keyframe of the
///   log, whose window always begins at one, so a page rebuilds any line's
///   state and history from the events it is sent.
/// - `done` `{status, ms, t}`: the line ended (`t` in milliseconds since 1970).
/// - `lesson` `{file, step, steps, narration, command}`: the presenter's next stop.
/// - `branch` `{branch, from, commands}`, with `line` 0: "Replay from here"
///   began a fresh session (`branch` 2 for the first replay: the session as it
///   began is 1) that replays the earlier branch's lines up to its step `from`,
///   `commands` (masked and cleaned as `line` texts are). It is a keyframe and
///   the numbering starts again: the fresh session's state and history follow
///   whole with `line` 0, then the replayed lines as ordinary lines 1, 2, …, so
///   a page clears what it shows and starts again at a `branch`.
///
/// Texts arrive sanitized (the one sanitizer) and with secrets masked: the
/// View texts and the terminal's come through the same boundary as the
/// terminal's, the layer lines carry the trace's masked URLs.
final class WebView: SessionSubscriber {
    private struct Position {
        var line = 0
        var step = -1
        var command = ""
        var viaViewModel = true
        var rendered: [String] = []
        /// The narration of the lesson's stop shown last, which the next line carries.
        var narration: [String] = []
        /// The state and history sent last, which the next ones are sent against.
        var documents = WebDocuments()
    }

    let log: ClassroomLog
    private let position = Mutex(Position())
    private let knownSecrets = Mutex<[String]>([])

    /// The secrets to mask in what the page is sent; the shell sets them
    /// from its connection as each line starts (a login may add one).
    var secrets: [String] {
        get { knownSecrets.withLock { $0 } }
        set { knownSecrets.withLock { $0 = newValue } }
    }

    init(log: ClassroomLog) {
        self.log = log
    }

    /// The number of the line the page heard last (0 before the first, and again after a `branch`).
    var line: Int { position.withLock { $0.line } }

    func receive(_ event: SessionEvent) {
        position.withLock { position in
            switch event {
            case .line(let line):
                position.line += 1
                position.step = -1
                if let snapshot = position.documents.snapshotIfDue() {
                    append(position, snapshot.merging(["type": "snapshot"]) { $1 }, keyframe: true)
                }
                append(position, ["type": "line", "text": .string(clean(line.text, .multiline)),
                                  "location": .string(clean(line.location)), "at": .string(Self.timeOfDay()),
                                  "lesson": .array(position.narration.map { .string(clean($0)) })])
                position.narration = []
            case .inputStarted(let command, let input, let place):
                position.step += 1
                position.command = clean(command)
                position.viaViewModel = input != nil
                position.rendered = []
                append(position, ["type": "input", "step": .integer(Int64(position.step)), "command": .string(position.command),
                                  "input": input.map { .string(clean($0)) } ?? .null])
                if let input {
                    layers(position, [TraceJSONView.Line(command: position.command, layer: "ViewModel", event: "input",
                                                         detail: clean(input), place: place)])
                }
            case .dataController(let call):
                layers(position, TraceJSONView.lines(for: .dataController(call), command: position.command,
                                                     viaViewModel: position.viaViewModel, server: true))
            case .changed(let change, let place):
                var lines = TraceJSONView.lines(for: .change(change), command: position.command, viaViewModel: true)
                for index in lines.indices { lines[index].place = place }
                layers(position, lines)
            case .rendered(let view, let text, let onTerminal):
                if onTerminal { position.rendered.append(view) }
                append(position, ["type": "view", "step": .integer(Int64(max(0, position.step))), "view": .string(clean(view)),
                                  "text": .string(clean(text, .multiline)), "terminal": .bool(onTerminal)])
            case .inputEnded(let end):
                layers(position, TraceJSONView.ending(command: position.command, rendered: position.rendered,
                                                      failure: end.failure.map { clean($0) }, elapsed: end.elapsed))
            case .output(let text, let isError):
                append(position, ["type": "output", "text": .string(clean(text, .multiline)),
                                  "stream": .string(isError ? "stderr" : "stdout")])
            case .state(let state, let diff):
                append(position, position.documents.state(state).merging(["type": "state", "diff": Self.value(diff)]) { $1 })
            case .history(let history):
                append(position, position.documents.history(history).merging(["type": "history"]) { $1 })
            case .lineEnded(let status, let elapsed):
                // `t`: when the line ended, in milliseconds since 1970, so a page can tell how long the event took to reach it.
                append(position, ["type": "done", "status": .integer(Int64(status)), "ms": .number(Self.milliseconds(elapsed)),
                                  "t": .number((Date().timeIntervalSince1970 * 1000).rounded())])
            case .lesson(let stop):
                position.narration = stop.narration
                var object = Self.value(stop).object ?? [:]
                object["type"] = "lesson"
                log.append(Self.text(.object(object)))
            case .branch(let branch):
                // A fresh session: its lines count from 1 again and its state and history go out whole.
                position = Position()
                append(position, ["type": "branch", "branch": .integer(Int64(branch.branch)),
                                  "from": .integer(Int64(branch.from)),
                                  "commands": .array(branch.commands.map { .string(clean($0, .multiline)) })],
                       keyframe: true)
            }
        }
    }

    /// Appends `object` with the line it belongs to.
    private func append(_ position: Position, _ object: [String: JSONValue], keyframe: Bool = false) {
        var object = object
        object["line"] = .integer(Int64(position.line))
        log.append(Self.text(.object(object)), keyframe: keyframe)
    }

    /// The trace's lines as `layer` objects of the current step.
    private func layers(_ position: Position, _ lines: [TraceJSONView.Line]) {
        for line in lines {
            var object: [String: JSONValue] = [
                "type": "layer", "step": .integer(Int64(max(0, position.step))), "command": .string(line.command),
                "layer": .string(line.layer), "event": .string(line.event), "detail": .string(clean(line.detail)),
            ]
            object["ms"] = line.ms.map { .number(($0 * 1000).rounded() / 1000) } ?? .null
            if let place = line.place {
                object["source"] = .object(["file": .string(clean(place.file)), "function": .string(clean(place.function)),
                                            "line": .integer(Int64(place.line))])
            }
            if let exchange = line.exchange { object["exchange"] = self.exchange(exchange) }
            append(position, object)
        }
    }

    /// A request as the Request lane opens it: method, URL (masked as the
    /// trace masks it), status, and the answer's headers and first lines, masked
    /// as `--record` masks them and then as everything else the page is sent.
    private func exchange(_ exchange: TraceJSONView.Line.Exchange) -> JSONValue {
        var object: [String: JSONValue] = [
            "method": .string(clean(exchange.method)), "url": .string(clean(exchange.url)),
            "status": exchange.status.map { .integer(Int64($0)) } ?? .null,
        ]
        if let answer = exchange.answer {
            let glimpse = AnswerGlimpse(answer, secrets: secrets)
            object["headers"] = .array(glimpse.headers.map { .array($0.map { .string(clean($0)) }) })
            object["body"] = .string(clean(glimpse.body, .multiline))
        }
        return .object(object)
    }

    /// Server text and typed text as a page may show it: the one sanitizer, then the masking of secrets.
    private func clean(_ text: String, _ policy: TerminalText.Policy = .singleLine) -> String {
        Redaction.redact(TerminalText.sanitize(text, policy), secrets: secrets)
    }

    static func value<T: Encodable>(_ value: T) -> JSONValue {
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(value), let parsed = JSONValue.parse(data) else { return .null }
        return parsed
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: value.encoded(), as: UTF8.self)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (ms * 1000).rounded() / 1000
    }

    /// `14:05:09`, local time.
    static func timeOfDay() -> String {
        let now = Date()
        let local = Int(now.timeIntervalSince1970.rounded(.down)) + ClockZone.local.utcOffset(at: now)
        let second = CivilTime.split(local).secondOfDay
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    }
}
