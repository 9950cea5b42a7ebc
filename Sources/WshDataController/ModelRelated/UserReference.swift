import WshModel

/// How a command names a user: by numeric uid or by screen name.
public enum UserReference: Sendable, Hashable, CustomStringConvertible {
    case uid(String)
    case screenName(String)

    /// Reads what a user typed: all digits is a uid, anything else a screen
    /// name (a leading `@` is dropped); nil for empty text.
    public init?(_ text: String) {
        let name = text.hasPrefix("@") ? String(text.dropFirst()) : text
        guard !name.isEmpty else { return nil }
        self = name.allSatisfy(\.isASCII) && name.allSatisfy(\.isNumber) ? .uid(name) : .screenName(name)
    }

    /// The reference to `user`: by screen name when it has one, else by uid;
    /// nil when it has neither.
    public init?(author user: User) {
        if let name = user.screenName, !name.isEmpty {
            self = .screenName(name)
        } else if let uid = user.identifier, !uid.isEmpty {
            self = .uid(uid)
        } else {
            return nil
        }
    }

    /// `@name` or `uid 123`, as messages and the history show it.
    public var description: String {
        switch self {
        case .uid(let uid): "uid \(uid)"
        case .screenName(let name): "@\(name)"
        }
    }

    /// True when `user` is the one this reference names.
    public func matches(_ user: User?) -> Bool {
        guard let user else { return false }
        switch self {
        case .uid(let uid): return user.identifier == uid
        case .screenName(let name): return user.screenName?.lowercased() == name.lowercased()
        }
    }
}
