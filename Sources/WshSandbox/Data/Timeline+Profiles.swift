import FoundationEssentials

/// What `PATCH /api/v1/accounts/update_credentials` changed of a user's
/// profile; each nil part is still the generated one.
struct SandboxProfile: Sendable, Hashable {
    var displayName: String?
    /// The note as written (plain text); the Account shows it as HTML.
    var note: String?
    var locked: Bool?
    var bot: Bool?
    var discoverable: Bool?
    /// The profile fields as written, replacing the generated ones.
    var fields: [(name: String, value: String)]?
    var privacy: String?
    var sensitive: Bool?
    var language: String?

    static func == (a: Self, b: Self) -> Bool {
        a.displayName == b.displayName && a.note == b.note && a.locked == b.locked && a.bot == b.bot
            && a.discoverable == b.discoverable && a.privacy == b.privacy && a.sensitive == b.sensitive
            && a.language == b.language
            && a.fields?.map(\.name) == b.fields?.map(\.name) && a.fields?.map(\.value) == b.fields?.map(\.value)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(displayName)
        hasher.combine(note)
    }
}

extension Timeline {
    /// `user`'s profile changes (empty when none).
    func profile(of user: Int) -> SandboxProfile {
        profiles[user] ?? SandboxProfile()
    }

    /// Applies `change` to `user`'s profile.
    mutating func updateProfile(of user: Int, _ change: (inout SandboxProfile) -> Void) {
        change(&profiles[user, default: SandboxProfile()])
    }
}
