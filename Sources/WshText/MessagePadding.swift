/// The padding SHA-1 and SHA-256 share (RFC 3174 §4, FIPS 180-4 §5.1.1):
/// a 1 bit, zeros up to 56 bytes of the last 64-byte block, then the
/// message's length in bits, big-endian, so the result is whole blocks.
enum MessagePadding {
    static func padded(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let message = Array(bytes)
        return padded(message, totalLength: UInt64(message.count))
    }

    /// The last bytes of a message of `totalLength` bytes (fewer than 64 of
    /// them: what is left after its whole blocks), padded.
    static func padded(_ tail: [UInt8], totalLength: UInt64) -> [UInt8] {
        var message = tail
        let bitLength = totalLength &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        return message
    }
}
