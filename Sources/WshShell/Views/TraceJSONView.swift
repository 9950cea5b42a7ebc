import FoundationEssentials
import WshDataController
import WshRequest
import WshText
import WshViewModel

/// `trace on --json`: one command's path through the layers as JSON Lines on
/// stderr, one object per layer event, for a script or a test to assert on
/// ("`detail 3` hit the cache, not the network").
///
/// Each line is `{"command", "detail", "event", "layer", "ms"}` (keys
/// sorted): `layer` is `Shell`, `ViewModel`, `DataController`, `Request`,
/// `Model` or `View`; `ms` is the time the event took, `null` when it is not
/// timed. The events are those `TraceView` draws, from the same entries.
struct TraceJSONView {
    /// One layer event.
    struct Line: Encodable, Equatable {
        var command: String
        var layer: String
        var event: String
        var detail: String
        var ms: Double?
        /// Where in wsh's source the event was produced; the classroom's, not in `trace on --json`.
        var place: SourcePlace? = nil
        /// A request's exchange as sent and answered; the classroom's, not in `trace on --json`.
        var exchange: Exchange? = nil

        /// One HTTP request and its answer (the answer's body only begun: `TraceEvent.answer`).
        struct Exchange: Equatable {
            var method: String
            var url: String
            var status: Int?
            var answer: HTTPResponse?
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(command, forKey: .command)
            try container.encode(layer, forKey: .layer)
            try container.encode(event, forKey: .event)
            try container.encode(detail, forKey: .detail)
            try container.encode(ms.map { ($0 * 1000).rounded() / 1000 }, forKey: .ms)
        }

        enum CodingKeys: String, CodingKey { case command, layer, event, detail, ms }
    }

    /// The lines of one command.
    func render(command: String, input: String?, entries: [TraceRecord.Entry], rendered: [String],
                failure: String?, elapsed: Duration) -> String {
        var lines = [Line(command: command, layer: "Shell", event: "command", detail: command)]
        if let input { lines.append(Line(command: command, layer: "ViewModel", event: "input", detail: input)) }
        for entry in entries { lines += Self.lines(for: entry, command: command, viaViewModel: input != nil) }
        lines += Self.ending(command: command, rendered: rendered, failure: failure, elapsed: elapsed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return lines.compactMap { line in (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) + "\n" } }.joined()
    }

    /// The lines of one entry: a DataController call (with each request it
    /// sent, or its cache hit, and the Model's count) or a change notification.
    /// For `api` (`viaViewModel` false) the entry is its one request alone.
    /// `server` adds, under each request the sandbox answered, the route that did.
    static func lines(for entry: TraceRecord.Entry, command: String, viaViewModel: Bool, server: Bool = false) -> [Line] {
        var lines: [Line] = []
        var place: SourcePlace?
        func add(_ layer: String, _ event: String, _ detail: String, ms: Double? = nil, exchange: Line.Exchange? = nil) {
            lines.append(Line(command: command, layer: layer, event: event, detail: detail, ms: ms, place: place, exchange: exchange))
        }
        func route(_ route: String?) {
            // The sandbox's route is not the DataController's code: no place.
            if server, let route {
                lines.append(Line(command: command, layer: "Server", event: "route", detail: route))
            }
        }
        switch entry {
        case .dataController(let event):
            place = event.place
            if viaViewModel { add("DataController", "call", event.call, ms: event.milliseconds) }
            switch event.source {
            case .cache:
                add("DataController", "cache", "answered from the cache: no request")
            case .archive:
                add("DataController", "archive", "answered from the archive: no request (\(event.itemCount) items)")
            case .network, .failed:
                for earlier in event.earlier {
                    add("Request", "request", "\(earlier.method) \(earlier.url) → \(earlier.status.map(String.init) ?? "-") · "
                        + TraceView.bytes(earlier.bytes), ms: earlier.milliseconds,
                        exchange: Line.Exchange(method: earlier.method, url: earlier.url, status: earlier.status))
                    route(earlier.route)
                }
                let request = [event.method, event.url].compactMap { $0 }.joined(separator: " ")
                let exchange = Line.Exchange(method: event.method ?? "", url: event.url ?? "", status: event.status, answer: event.answer)
                if case .failed(let reason) = event.source {
                    add("Request", "failed", request + (event.status.map { " → \($0)" } ?? "") + " ✗ " + reason,
                        ms: event.responseMilliseconds, exchange: exchange)
                    route(event.route)
                } else {
                    add("Request", "request", "\(request) → \(event.status.map(String.init) ?? "-") · "
                        + "\(TraceView.bytes(event.bytes)) · \(event.connectionText)", ms: event.responseMilliseconds,
                        exchange: exchange)
                    route(event.route)
                    if viaViewModel {
                        add("Model", "decoded", "\(event.itemCount) item\(event.itemCount == 1 ? "" : "s")")
                    }
                }
            }
        case .change(let change):
            add("ViewModel", "change", TraceView.describe(change))
        }
        return lines
    }

    /// The closing lines: the Views rendered (or why none), then how it ended.
    static func ending(command: String, rendered: [String], failure: String?, elapsed: Duration) -> [Line] {
        var lines: [Line] = []
        if rendered.isEmpty {
            lines.append(Line(command: command, layer: "View", event: "none",
                              detail: failure == nil ? "nothing to render (not asked to show)" : "not rendered"))
        }
        for view in rendered { lines.append(Line(command: command, layer: "View", event: "rendered", detail: view)) }
        let total = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        lines.append(Line(command: command, layer: "Shell", event: failure == nil ? "done" : "failed", detail: failure ?? "", ms: total))
        return lines
    }
}
