import WshViewModel

/// One user's profile.
struct UserView {
    let style: Style

    func render(_ user: UserViewModel) -> String {
        var lines = [style.bold(style.cyan(Sanitizer.clean(user.screenName)))
            + (user.name.isEmpty ? "" : " (\(Sanitizer.clean(user.name)))")
            + (user.uid.isEmpty ? "" : style.dim(" · uid \(user.uid)"))]
        if !user.verifiedText.isEmpty { lines.append(style.green(Sanitizer.clean(user.verifiedText))) }
        if !user.location.isEmpty { lines.append(Sanitizer.clean(user.location)) }
        if !user.bio.isEmpty { lines.append(Sanitizer.clean(user.bio)) }
        lines.append(style.dim(user.countsText))
        if !user.latestStatus.isEmpty { lines.append(style.dim("latest: ") + Sanitizer.clean(user.latestStatus)) }
        return lines.joined(separator: "\n") + "\n"
    }
}
