import WshDataController
import WshText

/// `trace diagram`: traced commands as a sequence diagram — the layers as
/// lifelines, the real calls as arrows — independent of how it is drawn
/// (`TraceSVGView`, `TraceMermaidView`). Built from the same entries
/// `trace on` draws; every text has passed `TerminalText.sanitize`.
struct TraceDiagram: Equatable {
    /// A lifeline, left to right: what the user sees, then down the layers to
    /// the network. The classroom page draws the same lifelines (classroom.js
    /// `LIFELINES`); the Server only where the sandbox answered.
    enum Layer: String, CaseIterable, Sendable {
        case shell = "Shell", view = "View", viewModel = "ViewModel", dataController = "DataController"
        case model = "Model", request = "Request", server = "Server"
    }

    /// One row of the diagram.
    enum Step: Equatable {
        /// A call (solid) or an answer (dashed) from one lifeline to another.
        case message(from: Layer, to: Layer, text: String, answer: Bool)
        /// A note beside one lifeline, e.g. the DataController's cache hit.
        case note(Layer, String)
        /// A note across every lifeline: which command follows, or how it ended.
        case banner(String)
    }

    var steps: [Step] = []

    /// The lifelines drawn: every layer, but the Server only where a route of the sandbox answered.
    var lifelines: [Layer] {
        let served = steps.contains { step in
            if case .message(let from, let to, _, _) = step { return from == .server || to == .server }
            return false
        }
        return Layer.allCases.filter { $0 != .server || served }
    }

    /// The diagram of `records`, oldest first.
    init(_ records: [TraceRecord]) {
        for record in records { add(record) }
    }

    private mutating func add(_ record: TraceRecord) {
        banner("wsh> " + record.command)
        if let input = record.input { message(.shell, .viewModel, input) }
        for entry in record.entries {
            switch entry {
            case .dataController(let event): add(event, viaViewModel: record.input != nil)
            case .change(let change): message(.viewModel, .shell, "onChange " + TraceView.describe(change), answer: true)
            }
        }
        if record.rendered.isEmpty {
            note(.view, record.failure == nil ? "nothing to render (not asked to show)" : "not rendered")
        }
        for view in record.rendered { message(.shell, .view, "render " + view) }
        let total = TraceView.milliseconds(Double(record.elapsed.components.seconds) * 1000
                                           + Double(record.elapsed.components.attoseconds) / 1e15)
        banner(record.failure.map { "failed: \($0) · \(total)" } ?? "done · \(total)")
    }

    /// A DataController call and what answered it; for `api` (no ViewModel) the shell sends the request itself.
    private mutating func add(_ event: TraceEvent, viaViewModel: Bool) {
        let caller: Layer = viaViewModel ? .dataController : .shell
        if viaViewModel { message(.viewModel, .dataController, event.call) }
        switch event.source {
        case .cache:
            note(.dataController, "answered from its cache: no request")
        case .archive:
            note(.dataController, "answered from the archive: no request")
        case .network, .failed:
            for earlier in event.earlier {
                message(caller, .request, "\(earlier.method) \(earlier.url)")
                served(by: earlier.route)
                message(.request, caller, "\(earlier.status.map(String.init) ?? "-") · \(TraceView.bytes(earlier.bytes)) · "
                        + TraceView.milliseconds(earlier.milliseconds), answer: true)
            }
            let request = [event.method, event.url].compactMap { $0 }.joined(separator: " ")
            message(caller, .request, request)
            served(by: event.route)
            let status = event.status.map(String.init) ?? "-"
            let timing = "\(TraceView.bytes(event.bytes)) · \(TraceView.milliseconds(event.responseMilliseconds))"
            if case .failed(let reason) = event.source {
                message(.request, caller, "\(status) ✗ \(reason) · \(timing)", answer: true)
            } else {
                message(.request, caller, "\(status) · \(timing) · \(event.connectionText)", answer: true)
                if viaViewModel {
                    message(.dataController, .model, "decode")
                    message(.model, .dataController, "\(event.itemCount) item\(event.itemCount == 1 ? "" : "s")", answer: true)
                }
            }
        }
        if viaViewModel { message(.dataController, .viewModel, "return", answer: true) }
    }

    /// The sandbox's route that answered a request, as a call to the Server and its answer.
    private mutating func served(by route: String?) {
        guard let route else { return }
        message(.request, .server, route)
        message(.server, .request, "", answer: true)
    }

    private mutating func message(_ from: Layer, _ to: Layer, _ text: String, answer: Bool = false) {
        steps.append(.message(from: from, to: to, text: TerminalText.sanitize(text), answer: answer))
    }

    private mutating func note(_ layer: Layer, _ text: String) {
        steps.append(.note(layer, TerminalText.sanitize(text)))
    }

    private mutating func banner(_ text: String) {
        steps.append(.banner(TerminalText.sanitize(text)))
    }
}
