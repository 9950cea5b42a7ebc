/// Whether the token's user follows someone: the `following` field that
/// Weibo's user call carries for the asking account. Nil when the server
/// does not say.
public struct FollowingState: Hashable, Sendable, Decodable {
    @Lenient public var following: Bool? = nil

    public init(following: Bool?) {
        self.following = following
    }
}
