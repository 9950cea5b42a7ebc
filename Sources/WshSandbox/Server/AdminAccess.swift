#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        return Self.constantTimeEquals(Array(presented.utf8), Array(token.utf8))
    }

    /// The token of `Bearer TOKEN` (the scheme in any case), or nil.
    static func bearerToken(_ authorization: String?) -> Substring? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop { $0 == " " }
        return token.isEmpty ? nil : token
    }

    /// Whether two byte strings are equal, taking a time that depends only on
    /// `presented`'s length, so timing a wrong guess tells nothing of where it
    /// went wrong.
    static func constantTimeEquals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        guard !expected.isEmpty else { return false }
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in presented.indices {
            difference |= presented[index] ^ expected[index % expected.count]
        }
        return difference == 0
    }

    /// A new random admin token: 32 characters from 24 bytes of the system's
    /// secure generator, URL- and header-safe.
    static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var bits = 0, value = 0
        var token = ""
        for _ in 0..<24 {
            value = value << 8 | Int(generator.next() as UInt8)
            bits += 8
            while bits >= 6 {
                bits -= 6
                token.append(alphabet[(value >> bits) & 63])
            }
        }
        return token
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
