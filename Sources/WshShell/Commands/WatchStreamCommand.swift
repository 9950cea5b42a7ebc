import WshDataController
import WshLanguage
import WshViewModel

/// `watch SOURCE --stream`, which `watch` hands to when asked: the rows as
/// the streaming API delivers them.
extension Shell {
    /// `watch SOURCE --stream`: the streaming API, each new status printed as it arrives.
    func watchStream(_ context: CommandContext, source: TimelineSource, every: Double, duration: Double?,
                     until: Int?) throws(LanguageError) {
        let view = TimelineListView(style: console.style, columns: console.columns())
        // Rows and notes are written from the input's Task while this thread waits for it.
        let output = WaitingHandOver(context)
        let dim = console.diagnosticStyle
        let total = try drive(context, input: "SessionViewModel.watchStream(source: \(source))") {
            try await $0.watchStream(source: source, pollingEvery: .milliseconds(Int(every * 1000)),
                                     limit: .init(newStatuses: until, duration: duration.map { .milliseconds(Int($0 * 1000)) }),
                                     told: { output.value.note(dim.dim($0)) },
                                     arrived: { rows in output.value.write(view.render(rows)) })
        }
        context.setVariable("count", to: .int(total))
        context.note(console.diagnosticStyle.dim("watched \(source): \(total) new status\(total == 1 ? "" : "es")"))
    }
}
