#if canImport(Glibc)
import Glibc
#endif

/// A number with a fixed count of decimals, as `printf("%.Nf")` writes it,
/// without Foundation's `String(format:)`.
public enum Decimals {
    /// `value` rounded to `digits` decimals (0 to 9): `1.5` with 3 is `1.500`.
    /// The C library's `%.Nf`, which rounds the binary value exactly (0.15 is
    /// 0.1499…, so `0.1`).
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        let format = "%.\(min(max(digits, 0), 9))f"
        var buffer = [CChar](repeating: 0, count: 32)
        while true {
            let needed = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
            guard needed >= buffer.count else { break }
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        }
        return String(cString: buffer)
    }

    /// `byte` as two lower-case hex digits.
    public static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
