import WshModel
import WshText

/// The profile screen of one user.
public struct UserViewModel: Sendable, Hashable {
    /// The uid, empty when the API sent none.
    public let uid: String
    /// `@screen_name`.
    public let screenName: String
    /// The display name.
    public let name: String
    public let location: String
    /// The user's own description of themselves.
    public let bio: String
    public let followers: Int
    public let following: Int
    public let statuses: Int
    /// `120 followers · 80 following · 42 statuses`.
    public let countsText: String
    /// `verified: reason`, empty for unverified users.
    public let verifiedText: String
    /// `🔒 locked (approves each follower) · bot (automated)`, those that hold; "" when neither.
    public let accountNote: String
    /// `moved to @new@example.social` for an account that moved (Mastodon's `moved`), "" otherwise.
    public let movedNote: String
    /// The user's latest status on one line, empty when the API sent none.
    public let latestStatus: String

    /// The profile fields as `name: value` (the value's HTML as text), ` ✓` after a verified one.
    public let fieldLines: [String]
    /// `:blobcat: :verified:`: the custom emojis the name and bio name, "" when none.
    public let emojiLine: String

    /// The user as `user NAME --json` shows it.
    public let document: UserDocument

    /// The screen for `user`.
    public init(user: User) {
        document = UserDocument(user)
        uid = TerminalText.sanitize(user.identifier)
        screenName = DisplayText.author(user)
        name = TerminalText.sanitize(user.name)
        location = TerminalText.sanitize(user.location)
        bio = TerminalText.sanitize(user.description)
        followers = user.followersCount ?? 0
        following = user.friendsCount ?? 0
        statuses = user.statusesCount ?? 0
        countsText = "\(DisplayText.plural(followers, "follower")) · \(following) following · "
            + DisplayText.plural(statuses, "status", "statuses")
        if user.verified == true {
            let reason = TerminalText.sanitize(user.verifiedReason)
            verifiedText = reason.isEmpty ? "verified" : "verified: \(reason)"
        } else {
            verifiedText = ""
        }
        accountNote = [(user.locked, "🔒 locked (approves each follower)"), (user.bot, "bot (automated)")]
            .filter { $0.0 == true }.map(\.1).joined(separator: " · ")
        movedNote = user.movedTo.map { "moved to @" + TerminalText.sanitize($0) } ?? ""
        latestStatus = TerminalText.sanitize(user.status?.text)
        fieldLines = user.fields.map { field in
            TerminalText.sanitize(field.name) + ": " + TerminalText.sanitize(HTMLText.plainText(field.value))
                + (field.verifiedAt == nil ? "" : " ✓")
        }
        emojiLine = TerminalText.sanitize(user.emojis.map { ":\($0.shortcode):" }.joined(separator: " "))
    }
}
