#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WshText

/// Who may use `/admin/`: a client on this machine (a loopback peer) as
/// always, anyone else only with the admin token as `Authorization: Bearer TOKEN`.
///
/// The admin routes list every account's token and can reset or break the
/// server, so once the sandbox listens beyond loopback they are closed to other
/// machines unless the operator hands out the token.
struct AdminAccess: Sendable {
    /// The token a non-loopback peer must send; nil: no such peer is let in.
    let token: String?

    /// Whether a request from `peer` (its IP address; nil when unknown) with
    /// this `Authorization` header may use the admin routes.
    func permits(peer: String?, authorization: String?) -> Bool {
        if let peer, LoopbackAddress.contains(peer) { return true }
        guard let token, let presented = Self.bearerToken(authorization) else { return false }
        // Timing a wrong guess must not tell how much of it was right.
        return ConstantTime.equal(String(presented), token)
    }

    /// The token of `Bearer TOKEN` (the scheme in any case), or nil.
    static func bearerToken(_ authorization: String?) -> Substring? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop { $0 == " " }
        return token.isEmpty ? nil : token
    }

    /// A new random admin token: 24 bytes of the system's secure generator in
    /// base64url, 32 characters safe in a URL and a header.
    static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Why `token` cannot be an admin token, or nil: it travels in a header, so
    /// it must be visible ASCII without spaces.
    static func problem(with token: String) -> String? {
        if token.isEmpty { return "the admin token must not be empty" }
        if !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return "the admin token must be visible ASCII characters, without spaces"
        }
        return nil
    }
}

/// Which hosts and addresses are this machine's loopback: 127.0.0.0/8, ::1
/// (also as ::ffff:127.x.y.z) and the name `localhost`.
public enum LoopbackAddress {
    /// Whether `host` (a name or an IPv4 or IPv6 address, as `--host` takes
    /// it or a peer's address reads) is loopback. Anything else, `0.0.0.0`
    /// and `::` included, reaches beyond this machine.
    public static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "localhost." { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let loopback6 = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let mappedV4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return loopback6 || mappedV4
    }
}
