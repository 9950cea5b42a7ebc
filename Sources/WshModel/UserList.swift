/// A list of accounts the token's owner keeps (Mastodon's `List`), whose
/// timeline is its members' statuses.
public struct UserList: Hashable, Sendable, Codable {
    public var id: String
    public var title: String
    /// Whose replies the list's timeline shows: `followed`, `list` or `none`.
    public var repliesPolicy: String?
    /// True when its members' statuses leave the home timeline.
    public var exclusive: Bool?

    enum CodingKeys: String, CodingKey {
        case id, title, exclusive
        case repliesPolicy = "replies_policy"
    }
}

// In an extension, so that Swift still writes the memberwise init.
extension UserList {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = c.lenient(String.self, .id) else {
            throw c.missing(.id, "a list needs 'id'")
        }
        self.init(id: id, title: c.lenient(String.self, .title) ?? "", repliesPolicy: c.lenient(String.self, .repliesPolicy),
                  exclusive: c.lenient(Bool.self, .exclusive))
    }
}

extension UserList {
    /// The list in `lists` with id `name`, else the first titled `name` in any case.
    public static func named(_ name: String, in lists: [UserList]) -> UserList? {
        lists.first { $0.id == name } ?? lists.first { $0.title.lowercased() == name.lowercased() }
    }
}
