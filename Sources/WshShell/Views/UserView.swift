import WshViewModel

/// One user's profile.
struct UserView {
    let style: Style

    func render(_ user: UserViewModel) -> String {
        var lines = [style.bold(style.cyan(user.screenName))
            + (user.name.isEmpty ? "" : " (\(user.name))")
            + (user.uid.isEmpty ? "" : style.dim(" · uid \(user.uid)"))]
        if !user.verifiedText.isEmpty { lines.append(style.green(user.verifiedText)) }
        if !user.accountNote.isEmpty { lines.append(style.dim(user.accountNote)) }
        if !user.movedNote.isEmpty { lines.append(user.movedNote) }
        if !user.location.isEmpty { lines.append(user.location) }
        if !user.bio.isEmpty { lines.append(user.bio) }
        lines += user.fieldLines
        if !user.emojiLine.isEmpty { lines.append(style.dim("emoji: ") + user.emojiLine) }
        lines.append(style.dim(user.countsText))
        if !user.latestStatus.isEmpty { lines.append(style.dim("latest: ") + user.latestStatus) }
        return lines.joined(separator: "\n") + "\n"
    }
}
