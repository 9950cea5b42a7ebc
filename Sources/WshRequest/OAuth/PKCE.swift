import WshText

/// A PKCE proof key (RFC 7636): the login keeps a random `verifier` and
/// sends only its `S256` `challenge` with the authorize URL; the code
/// exchange then sends the verifier. A code caught by someone else (another
/// app on the loopback port, a leaked redirect) is worthless without it.
public struct PKCE: Sendable, Hashable {
    /// The one method wsh uses: the challenge is the verifier's SHA-256 in base64url.
    public static let method = "S256"

    /// 43 characters of base64url from 32 random bytes; a secret until the exchange.
    public let verifier: String

    public init(verifier: String) {
        self.verifier = verifier
    }

    /// A fresh proof key from the system's random source.
    public static func random() -> PKCE {
        var generator = SystemRandomNumberGenerator()
        return PKCE(verifier: Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// `BASE64URL(SHA256(verifier))`, what the authorize URL carries as `code_challenge`.
    public var challenge: String { Self.challenge(for: verifier) }

    /// The S256 challenge of `verifier` (the server's side of the check, too).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.digest(verifier.utf8))
    }
}
