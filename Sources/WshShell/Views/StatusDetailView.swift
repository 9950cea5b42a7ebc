import WshViewModel

/// One status in full: author, time, app, text, counts, pictures, and the
/// status it reposts, indented beneath it.
struct StatusDetailView {
    let style: Style

    /// - Parameter expand: show the text behind a content warning (`detail N --expand`).
    func render(_ detail: StatusDetailViewModel, depth: Int = 0, expand: Bool = false) -> String {
        let bar = depth == 0 ? "" : String(repeating: style.dim("│ "), count: depth)
        if !detail.boostedBy.isEmpty, let boosted = detail.retweeted {
            // A boost has no text of its own: say who boosted, then show the boosted status.
            return bar + style.yellow(detail.boostedBy) + style.dim(" · " + detail.time) + "\n"
                + (detail.filterNote.isEmpty ? "" : bar + style.yellow(detail.filterNote) + "\n")
                + render(boosted, depth: depth, expand: expand)
        }
        var lines: [String] = []
        var heading = style.bold(style.cyan(detail.author))
        if !detail.authorName.isEmpty && detail.authorName != String(detail.author.dropFirst()) {
            heading += " (\(detail.authorName))"
        }
        var facts = [detail.time]
        if !detail.source.isEmpty { facts.append("via \(detail.source)") }
        if !detail.visibility.isEmpty && detail.visibility != "public" { facts.append(detail.visibility) }
        if !detail.id.isEmpty { facts.append("id \(detail.id)") }
        lines.append(heading + style.dim(" · " + facts.joined(separator: " · ")))
        if !detail.filterNote.isEmpty { lines.append(style.yellow(detail.filterNote)) }
        if !detail.contentWarning.isEmpty {
            lines.append(style.yellow("CW: " + detail.contentWarning))
        }
        if detail.contentWarning.isEmpty || expand {
            lines += detail.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            lines.append(style.dim("(\(DisplayWidth.of(detail.text)) columns of text behind the warning: detail N --expand shows them)"))
        }
        if !detail.pollLines.isEmpty {
            lines.append(style.dim("poll:"))
            lines += detail.pollLines.map { "  " + $0 }
        }
        lines.append(style.dim(detail.countsText))
        if !detail.yoursNote.isEmpty { lines.append(style.dim(detail.yoursNote)) }
        if !detail.reactionsLine.isEmpty { lines.append("reactions: " + detail.reactionsLine) }
        if !detail.editedNote.isEmpty { lines.append(style.dim(detail.editedNote)) }
        if !detail.cardLine.isEmpty { lines.append(style.dim("link: ") + detail.cardLine) }
        if !detail.tagsLine.isEmpty { lines.append(style.dim("tags: ") + detail.tagsLine) }
        if !detail.mentionsLine.isEmpty { lines.append(style.dim("mentions: ") + detail.mentionsLine) }
        if !detail.emojiLine.isEmpty { lines.append(style.dim("emoji: ") + detail.emojiLine) }
        if !detail.quoteNote.isEmpty { lines.append(style.yellow("❝ " + detail.quoteNote)) }
        if !detail.pictureURLs.isEmpty {
            if !detail.sensitiveNote.isEmpty { lines.append(style.yellow(detail.sensitiveNote)) }
            lines.append(style.dim(detail.mediaHeading))
            for (index, url) in detail.pictureURLs.enumerated() {
                let kind = detail.mediaKinds[index] == .picture ? "" : style.dim(detail.mediaKinds[index].rawValue + " ")
                let description = detail.pictureDescriptions[index]
                lines.append("  " + kind + url + (description.isEmpty ? "" : style.dim(" — " + description)))
            }
        }
        var output = lines.map { bar + $0 }.joined(separator: "\n") + "\n"
        if let quoted = detail.quoted {
            output += bar + style.yellow("❝ quoting:") + "\n"
            output += render(quoted, depth: depth + 1, expand: expand)
        }
        if let retweeted = detail.retweeted {
            output += bar + style.yellow("↻ reposting:") + "\n"
            output += render(retweeted, depth: depth + 1, expand: expand)
        }
        return output
    }
}
