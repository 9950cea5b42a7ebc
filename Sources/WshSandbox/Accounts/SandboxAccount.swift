/// An account the sandbox can be used as: one of the first generated users,
/// with the access token that acts as them.
public struct SandboxAccount: Sendable, Hashable {
    /// The user's uid (`1700000000` for the first account).
    public var uid: Int64
    /// The user's screen name.
    public var screenName: String
    /// The access token that acts as this user (never expires unless expired
    /// or revoked through the admin API or `revokeoauth2`).
    public var token: String

    /// The token of account `number` (1-based): the configured token for
    /// the first, then `TOKEN-2`, `TOKEN-3`, … (`sandbox-token-2` by default).
    public static func token(number: Int, base: String) -> String {
        number == 1 ? base : "\(base)-\(number)"
    }
}
