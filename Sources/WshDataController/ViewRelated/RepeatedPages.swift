/// A walk's pages in a row that brought nothing it had not fetched before
/// (`fetch --all`, `archive sync`), each followed by another. One such page
/// can happen (a page's worth posted between two numbered pages); three in
/// a row is a server that sends the same pages again and again, and the walk
/// would never end.
public struct RepeatedPages: Sendable {
    /// How many in a row stop a walk.
    public static let limit = 3
    /// How many in a row so far.
    public private(set) var inARow = 0

    public init() {}

    /// Counts a page that brought `unseen` statuses new to the walk, with
    /// `more` after it; true when the walk should stop there.
    public mutating func stops(afterPageWith unseen: Int, more: Bool) -> Bool {
        inARow = unseen == 0 && more ? inARow + 1 : 0
        return inARow == Self.limit
    }
}
