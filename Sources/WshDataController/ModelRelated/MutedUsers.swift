import WshModel

/// The users whose statuses the timeline hides: a value, so a snapshot of
/// the session can hold it and undo can put it back.
public struct MutedUsers: Sendable, Hashable {
    /// The muted references, in the order they were muted.
    public private(set) var references: [UserReference] = []

    public init(_ references: [UserReference] = []) {
        for reference in references { insert(reference) }
    }

    /// True when nobody is muted.
    public var isEmpty: Bool { references.isEmpty }

    /// True when `reference` is muted (screen names compare without case).
    public func contains(_ reference: UserReference) -> Bool {
        references.contains { $0.key == reference.key }
    }

    /// True when `user` is named by any muted reference.
    public func mutes(_ user: User?) -> Bool {
        references.contains { $0.matches(user) }
    }

    /// Mutes `reference`; false when it already was.
    @discardableResult
    public mutating func insert(_ reference: UserReference) -> Bool {
        guard !contains(reference) else { return false }
        references.append(reference)
        return true
    }

    /// Unmutes `reference`; false when it was not muted.
    @discardableResult
    public mutating func remove(_ reference: UserReference) -> Bool {
        guard let index = references.firstIndex(where: { $0.key == reference.key }) else { return false }
        references.remove(at: index)
        return true
    }
}

extension UserReference {
    /// What two references are compared by: screen names ignore case.
    fileprivate var key: String {
        switch self {
        case .uid(let uid): "uid:\(uid)"
        case .screenName(let name): "name:\(name.lowercased())"
        }
    }
}
