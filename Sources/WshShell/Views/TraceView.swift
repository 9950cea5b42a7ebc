import FoundationEssentials
import WshText
import WshDataController
import WshViewModel

/// `trace on`: one command's path through the layers, drawn for a classroom
/// projector. Written to stderr, so it never mixes with results.
struct TraceView {
    let style: Style

    func render(command: String, input: String, entries: [TraceRecord.Entry], rendered: [String],
                failure: String?, elapsed: Duration) -> String {
        var lines = [style.dim("┌─ trace: ") + style.bold(command)]
        func row(_ layer: String, _ text: String) {
            lines.append(style.dim("│ ") + style.magenta(layer + String(repeating: " ", count: max(0, 16 - layer.count))) + text)
        }
        // A command that only shows a View read the ViewModel's outputs: no input, no change.
        row("ViewModel", (entries.isEmpty && !rendered.isEmpty && failure == nil ? "output " : "input  ") + input)
        for entry in entries {
            switch entry {
            case .dataController(let event):
                row("DataController", event.call)
                switch event.source {
                case .cache:
                    row("", style.green("answered from the cache: no request"))
                case .archive:
                    row("", style.green("answered from the archive: no request (\(event.itemCount) items)"))
                case .network, .failed:
                    for request in event.earlier {
                        row("  Request", "\(request.method) \(request.url)")
                        row("  Response", "\(request.status.map(String.init) ?? "-") · \(Self.bytes(request.bytes)) · "
                            + Self.milliseconds(request.milliseconds))
                    }
                    if let method = event.method, let url = event.url {
                        row("  Request", "\(method) \(url)")
                    }
                    if case .failed(let reason) = event.source {
                        row("  Response", style.red("✗ " + reason))
                    } else {
                        row("  Response", "\(event.status.map(String.init) ?? "-") · \(Self.bytes(event.bytes)) · "
                            + "\(Self.milliseconds(event.responseMilliseconds)) · \(event.connectionText)")
                        if event.method != nil && event.call.hasPrefix("(none") {
                            row("  Model", style.dim("none: the JSON is shown as it came"))
                        } else {
                            row("  Model", "decoded \(event.itemCount) item\(event.itemCount == 1 ? "" : "s")")
                        }
                    }
                }
            case .change(let change):
                row("ViewModel", "change " + Self.describe(change))
            }
        }
        if rendered.isEmpty {
            row("View", style.dim(failure == nil ? "nothing to render (not asked to show)" : "not rendered"))
        } else {
            for view in rendered { row("View", "rendered " + view) }
        }
        let total = Self.milliseconds(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        lines.append(style.dim("└─ ") + (failure.map { style.red("failed: " + $0) + style.dim(" · \(total)") } ?? style.dim(total)))
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ change: SessionChange) -> String {
        let names: [(SessionChange, String)] = [(.loading, "loading"), (.rows, "rows"), (.screen, "screen"),
                                                (.led, "led"), (.history, "history"), (.error, "error")]
        return "[" + names.filter { change.contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }

    static func bytes(_ count: Int) -> String {
        count < 1024 ? "\(count) B" : Decimals.fixed(Double(count) / 1024, 1) + " KB"
    }

    static func milliseconds(_ value: Double) -> String {
        Decimals.fixed(value, 1) + " ms"
    }
}
