import WshArchive
import WshDataController
import WshLanguage
import WshRequest
import WshText

/// `archive media [SOURCE…]`: the files the kept statuses show, kept in the
/// folder beside the archive. The shell only reads the options and words the
/// summary: `TimelineDataController.fetchArchiveMedia` downloads and checks,
/// the store notes (docs/ARCHIVE.md, "Media").
extension Shell {
    func archiveMedia(_ context: CommandContext, words: [String]) throws(LanguageError) {
        let limits = try mediaLimits(context)
        // Only the sources' names are wanted: `me` is not asked of the server.
        let sources = words.isEmpty ? nil : try archiveSources(words, owner: UserReference("@me")).map { word throws(LanguageError) in
            guard case .statuses(let source) = word else {
                throw .usage("archive media takes sources of statuses (home, public, me, bookmarks…), not \(word)")
            }
            return source.description
        }
        let store = try openArchive(context, create: false)
        if store.isNewer { throw .commandFailed("\(store.path) was written by a newer wsh: it is read but not written") }
        let stream = self.stream
        let controller = TimelineDataController(client: try client(), dialect: try currentDialect(),
                                                trace: { stream.publish(.dataController($0)) })
        let bar = ProgressLine(title: "fetching media", limit: limits.count, unit: "files")
        let progress = console.diagnosticIsTerminal ? { [console] (total: Int) in console.diagnostic(bar.draw(total)) } : nil
        let report = WaitingHandOver(progress)
        let handOver = WaitingHandOver((controller, store, connection.mediaHTTPClients()))
        let result = try wait {
            await handOver.value.0.fetchArchiveMedia(handOver.value.1, sources: sources, limits: limits,
                                                     client: handOver.value.2, progress: { report.value?($0) })
        }
        if progress != nil { console.diagnostic(bar.clear) }
        context.setVariable("count", to: .int(result.kept))
        let line = Self.mediaSummary(result, redact: redact)
        switch result.end {
        case .done:
            context.note(console.diagnosticStyle.dim(line))
        case .interrupted:
            throw LanguageError(.interrupted, "interrupted: " + line)
        case .failed(let error):
            throw .commandFailed(error.message + "; " + line)
        }
    }

    /// `--limit N`, `--max-size SIZE` and `--timeout SECONDS`, else the defaults.
    private func mediaLimits(_ context: CommandContext) throws(LanguageError) -> ArchiveMediaLimits {
        var limits = ArchiveMediaLimits()
        if let count = try integer(context.arguments.option("limit"), name: "--limit") {
            guard count > 0 else { throw .usage("--limit must be 1 or more, not \(count)") }
            limits.count = count
        }
        if let word = context.arguments.option("max-size") {
            guard let bytes = Self.bytes(word), bytes > 0 else {
                throw .usage("--max-size must be a size (bytes, or with K, M or G), not '\(word)'")
            }
            limits.maxBytes = bytes
        }
        if let seconds = try integer(context.arguments.option("timeout"), name: "--timeout") {
            guard (1...3600).contains(seconds) else { throw .usage("--timeout must be from 1 to 3600 seconds, not \(seconds)") }
            limits.stall = .seconds(seconds)
        }
        // However slowly its bytes keep coming, a file ends after twenty times the wait for one.
        limits.total = limits.stall * 20
        return limits
    }

    /// `kept 12 files (1.4 MB), 1 failed (URL: why), 3 still missing`.
    static func mediaSummary(_ result: ArchiveMediaResult, redact: (String) -> String) -> String {
        var line = "kept \(result.kept) file\(result.kept == 1 ? "" : "s") (\(mediaSize(result.keptBytes)))"
        if !result.failures.isEmpty {
            let shown = result.failures.prefix(3).map { TerminalText.sanitize(redact($0.url)) + ": " + TerminalText.sanitize($0.reason) }
            let more = result.failures.count > 3 ? "; and \(result.failures.count - 3) more" : ""
            line += ", \(result.failures.count) failed (" + shown.joined(separator: "; ") + more + ")"
        }
        return line + ", \(result.missing) still missing"
    }

    /// `340 KB`, `1.4 MB`: a size to read at a glance.
    static func mediaSize(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\((bytes + 1023) / 1024) KB" }
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
