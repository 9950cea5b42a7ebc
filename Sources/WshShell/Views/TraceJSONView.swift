import FoundationEssentials
import WshDataController
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

    /// The lines of one command. `input` is the ViewModel input, nil for a
    /// command that goes straight to the Request layer (`api`), whose
    /// entries then hold its one request and nothing else.
    func render(command: String, input: String?, entries: [TraceRecorder.Entry], rendered: [String],
                failure: String?, elapsed: Duration) -> String {
        var lines = [Line(command: command, layer: "Shell", event: "command", detail: command)]
        func add(_ layer: String, _ event: String, _ detail: String, ms: Double? = nil) {
            lines.append(Line(command: command, layer: layer, event: event, detail: detail, ms: ms))
        }
        if let input { add("ViewModel", "input", input) }
        for entry in entries {
            switch entry {
            case .dataController(let event):
                if input != nil { add("DataController", "call", event.call, ms: event.milliseconds) }
                switch event.source {
                case .cache:
                    add("DataController", "cache", "answered from the cache: no request")
                case .network, .failed:
                    for earlier in event.earlier {
                        add("Request", "request", "\(earlier.method) \(earlier.url) → \(earlier.status.map(String.init) ?? "-") · "
                            + TraceView.bytes(earlier.bytes), ms: earlier.milliseconds)
                    }
                    let request = [event.method, event.url].compactMap { $0 }.joined(separator: " ")
                    if case .failed(let reason) = event.source {
                        add("Request", "failed", request + (event.status.map { " → \($0)" } ?? "") + " ✗ " + reason,
                            ms: event.responseMilliseconds)
                    } else {
                        add("Request", "request", "\(request) → \(event.status.map(String.init) ?? "-") · "
                            + "\(TraceView.bytes(event.bytes)) · \(event.connectionText)", ms: event.responseMilliseconds)
                        if input != nil {
                            add("Model", "decoded", "\(event.itemCount) item\(event.itemCount == 1 ? "" : "s")")
                        }
                    }
                }
            case .change(let change):
                add("ViewModel", "change", TraceView.describe(change))
            }
        }
        if rendered.isEmpty {
            add("View", "none", failure == nil ? "nothing to render (not asked to show)" : "not rendered")
        }
        for view in rendered { add("View", "rendered", view) }
        let total = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        add("Shell", failure == nil ? "done" : "failed", failure ?? "", ms: total)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return lines.compactMap { line in (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) + "\n" } }.joined()
    }
}
