/// base64url without padding (RFC 4648 §5), as PKCE (RFC 7636) writes its challenge.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url, no `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((value >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var value = UInt32(bytes[index]) << 16
            if rest == 2 { value |= UInt32(bytes[index + 1]) << 8 }
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[Int((value >> UInt32(shift)) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
