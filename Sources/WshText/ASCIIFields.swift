/// Short ASCII text of fixed fields (times, mostly) written straight into a
/// String's own storage: a byte a field character, where interpolating the
/// fields made a String of each and another of every join (a Weibo time took
/// 7 k instructions this way, and a sandbox page writes 40 of them).
public struct ASCIIFields {
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    /// The text `write` puts into at most `capacity` bytes; writing past
    /// them is a programming error (a precondition).
    public static func text(capacity: Int, _ write: (inout ASCIIFields) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var fields = ASCIIFields(buffer: buffer)
            write(&fields)
            return fields.count
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    public mutating func byte(_ byte: UInt8) {
        precondition(count < buffer.count, "ASCIIFields: more than its capacity")
        buffer[count] = byte
        count += 1
    }

    /// `text`'s bytes (ASCII, such as a month's name).
    public mutating func text(_ text: String) {
        for byte in text.utf8 { self.byte(byte) }
    }

    /// `hh:mm:ss`.
    public mutating func clock(_ hour: Int, _ minute: Int, _ second: Int) {
        number(hour, width: 2)
        byte(UInt8(ascii: ":"))
        number(minute, width: 2)
        byte(UInt8(ascii: ":"))
        number(second, width: 2)
    }

    /// `value` (0 or more) in decimal, with zeros before it up to `width` digits.
    public mutating func number(_ value: Int, width: Int = 1) {
        precondition(value >= 0, "ASCIIFields: a negative number")
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        for _ in digits..<max(digits, width) { byte(UInt8(ascii: "0")) }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var value = value
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(value / divisor))
            value %= divisor
            divisor /= 10
        }
    }
}
