import WshModel

/// The users whose statuses the timeline hides: a value, so a snapshot of
/// the session can hold it and undo can put it back.
public struct MutedUsers: Sendable, Hashable {
    /// The muted references, in the order they were muted.
    public private(set) var references: [UserReference] = []
    // Lookup sets, so filtering a long timeline is one hash per status.
    private var uids: Set<String> = []
    private var screenNames: Set<String> = []

    public init(_ references: [UserReference] = []) {
        for reference in references { insert(reference) }
    }

    /// True when nobody is muted.
    public var isEmpty: Bool { references.isEmpty }

    /// True when `reference` is muted (screen names compare without case).
    public func contains(_ reference: UserReference) -> Bool {
        switch reference {
        case .uid(let uid): uids.contains(uid)
        case .screenName(let name): screenNames.contains(name.lowercased())
        }
    }

    /// True when `user` is named by any muted reference.
    public func mutes(_ user: User?) -> Bool {
        guard let user else { return false }
        if !uids.isEmpty, let uid = user.identifier, uids.contains(uid) { return true }
        if !screenNames.isEmpty, let name = user.screenName, screenNames.contains(name.lowercased()) { return true }
        return false
    }

    /// Mutes `reference`; false when it already was.
    @discardableResult
    public mutating func insert(_ reference: UserReference) -> Bool {
        guard !contains(reference) else { return false }
        references.append(reference)
        switch reference {
        case .uid(let uid): uids.insert(uid)
        case .screenName(let name): screenNames.insert(name.lowercased())
        }
        return true
    }

    /// Unmutes `reference`; false when it was not muted.
    @discardableResult
    public mutating func remove(_ reference: UserReference) -> Bool {
        guard contains(reference) else { return false }
        switch reference {
        case .uid(let uid):
            uids.remove(uid)
            references.removeAll { $0 == .uid(uid) }
        case .screenName(let name):
            screenNames.remove(name.lowercased())
            references.removeAll { if case .screenName(let muted) = $0 { muted.lowercased() == name.lowercased() } else { false } }
        }
        return true
    }

    /// Two muted sets are equal when they mute the same users in the same order.
    public static func == (lhs: MutedUsers, rhs: MutedUsers) -> Bool {
        lhs.references == rhs.references
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(references)
    }
}
