import WshModel

/// `lists --json`: `{"lists": [{"index": 1, "id": "…", "title": "…", "replies_policy": "list", "exclusive": false}]}`.
public struct ListsDocument: Sendable, Hashable, Encodable {
    public struct Entry: Sendable, Hashable, Encodable {
        public let index: Int
        public let id: String
        public let title: String
        public let repliesPolicy: String?
        public let exclusive: Bool?

        enum CodingKeys: String, CodingKey {
            case index, id, title, exclusive
            case repliesPolicy = "replies_policy"
        }
    }

    public let lists: [Entry]

    init(lists: [UserList]) {
        self.lists = lists.enumerated().map { offset, list in
            Entry(index: offset + 1, id: StatusDocument.clean(list.id), title: StatusDocument.kept(list.title),
                  repliesPolicy: list.repliesPolicy.map(StatusDocument.clean), exclusive: list.exclusive)
        }
    }
}
