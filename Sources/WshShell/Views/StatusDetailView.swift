import WshViewModel

/// One status in full: author, time, app, text, counts, pictures, and the
/// status it reposts, indented beneath it.
struct StatusDetailView {
    let style: Style

    func render(_ detail: StatusDetailViewModel, depth: Int = 0) -> String {
        let bar = depth == 0 ? "" : String(repeating: style.dim("│ "), count: depth)
        var lines: [String] = []
        var heading = style.bold(style.cyan(detail.author))
        if !detail.authorName.isEmpty && detail.authorName != String(detail.author.dropFirst()) {
            heading += " (\(detail.authorName))"
        }
        var facts = [detail.time]
        if !detail.source.isEmpty { facts.append("via \(detail.source)") }
        if !detail.id.isEmpty { facts.append("id \(detail.id)") }
        lines.append(heading + style.dim(" · " + facts.joined(separator: " · ")))
        lines += detail.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.append(style.dim(detail.countsText))
        if !detail.pictureURLs.isEmpty {
            lines.append(style.dim("pictures:"))
            lines += detail.pictureURLs.map { "  " + $0 }
        }
        var output = lines.map { bar + $0 }.joined(separator: "\n") + "\n"
        if let retweeted = detail.retweeted {
            output += bar + style.yellow("↻ reposting:") + "\n"
            output += render(retweeted, depth: depth + 1)
        }
        return output
    }
}
