/// A page of reposts of one status, as `statuses/repost_timeline.json` gives
/// it: `{"reposts": [...], "total_number": N, "previous_cursor": …, "next_cursor": …}`.
/// Each repost is a `Status` whose `retweetedStatus` is the status reposted.
public struct RepostsPage: Hashable, Sendable, Codable {
    public var reposts: [Status]
    public var totalNumber: Int?
    public var previousCursor: Int64?
    public var nextCursor: Int64?

    public init(reposts: [Status], totalNumber: Int? = nil, previousCursor: Int64? = nil, nextCursor: Int64? = nil) {
        self.reposts = reposts
        self.totalNumber = totalNumber
        self.previousCursor = previousCursor
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case reposts
        case totalNumber = "total_number"
        case previousCursor = "previous_cursor"
        case nextCursor = "next_cursor"
    }

    public init(from decoder: Decoder) throws {
        // The v1 API answered with the bare array.
        if var array = try? decoder.unkeyedContainer() {
            var reposts: [Status] = []
            while !array.isAtEnd {
                if let status = try? array.decode(Status.self) { reposts.append(status) }
                else { _ = try? array.decode(Skip.self) }
            }
            self.init(reposts: reposts)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.reposts) else {
            throw DecodingError.keyNotFound(CodingKeys.reposts, .init(
                codingPath: decoder.codingPath, debugDescription: "a reposts page needs 'reposts'"))
        }
        self.init(
            reposts: c.lenientArray(Status.self, .reposts) ?? [],
            totalNumber: c.lenientCount(.totalNumber),
            previousCursor: c.lenientInt(.previousCursor), nextCursor: c.lenientInt(.nextCursor))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(reposts, forKey: .reposts)
        try c.encodeIfPresent(totalNumber, .totalNumber)
        try c.encodeIfPresent(previousCursor, .previousCursor)
        try c.encodeIfPresent(nextCursor, .nextCursor)
    }
}
