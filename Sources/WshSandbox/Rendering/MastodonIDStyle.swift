/// How the Mastodon side writes ids, as the server it imitates does: Mastodon's
/// numeric strings, GoToSocial's ULIDs, Pleroma's and Akkoma's flake ids or
/// Sharkey's (Misskey's) aid-style ids. A `SandboxFlavour` names one; `--id-style` overrides it.
///
/// A client must treat Mastodon ids as opaque strings; one that parses them as
/// numbers works on Mastodon and breaks on the others. Each style is a bijection
/// with the sandbox's internal ids (statuses, replies, accounts, media, polls),
/// ordered as they are, so `max_id`/`since_id`/`min_id` compare as on the real
/// server and a string the style did not write (garbled, another style's) is
/// unknown. The Weibo side keeps its numeric ids whatever the style.
public enum MastodonIDStyle: String, CaseIterable, Sendable {
    /// Mastodon's snowflake ids as decimal strings: `"4000000000000200"`.
    case snowflake
    /// GoToSocial's ULIDs: 26 characters of Crockford base32, `"01KRTZN4RT0FMBBKEW1NMFM9GQ"`.
    case ulid
    /// Pleroma's and Akkoma's FlakeIds: 18 characters of base62, `"B6O7xSHs0VKnWjNDR1"`.
    case flake
    /// Sharkey's (Misskey's `aidx`) ids: 16 characters of lower-case base36, `"0n8ut7cw2bpsz4xk"`.
    case aid

    /// The id as this style writes it.
    public func render(_ id: Int64) -> String {
        switch self {
        case .snowflake:
            return String(id)
        case .ulid:
            // 128 bits: the shifted id, whose top 48 bits are the ULID's time part
            // (so the order follows the id's, which follows time), then a check word.
            return Self.base32(high: Self.shifted(id), low: Self.check(id))
        case .flake:
            // FlakeId's layout is time (64 bits), worker (48), sequence (16); the
            // shifted id stands in the upper 80 and 48 check bits fill the rest,
            // which makes ids 18 characters long, as Pleroma's are today.
            let bits = Self.shifted(id)
            return Self.base62(high: bits >> 16, low: bits << 48 | Self.check(id) & 0xFFFF_FFFF_FFFF)
        case .aid:
            // aidx is time (8 base36 digits), node (4) and counter (4): the
            // shifted id stands in the first 12, a check word fills the last 4.
            return Self.base36(UInt64(id) &+ Self.aidOffset, digits: 12) + Self.base36(Self.check(id) % 1_679_616, digits: 4)
        }
    }

    /// The internal id `text` stands for; nil when this style did not write it.
    public func parse(_ text: String) -> Int64? {
        let id: Int64?
        switch self {
        case .snowflake:
            // 0 too: clients send `since_id=0` for "from the start".
            guard let number = Int64(text), number >= 0 else { return nil }
            return number
        case .ulid:
            id = Self.decode(text, alphabet: Self.crockford, base: 32).flatMap { Self.unshifted($0.high) }
        case .flake:
            id = Self.decode(text, alphabet: Self.base62Digits, base: 62).flatMap { value in
                value.high >> 48 == 0 ? Self.unshifted(value.high << 16 | value.low >> 48) : nil
            }
        case .aid:
            guard text.utf8.count == 16 else { return nil }
            id = Self.decode(String(text.prefix(12)), alphabet: Self.base36Digits, base: 36).flatMap { value in
                value.high == 0 && value.low > Self.aidOffset ? Int64(exactly: value.low - Self.aidOffset) : nil
            }
        }
        // Only the canonical spelling: a changed check character, padding or case is unknown.
        guard let id, id > 0, render(id) == text else { return nil }
        return id
    }

    // MARK: Encoding

    private static let crockford = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    /// In ASCII order, so equal-length flake ids sort as their values.
    private static let base62Digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let flakeLength = 18
    private static let base36Digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    /// Added to an id before its aid-style time part, so that part reads as
    /// milliseconds since 2000 in 2026, as a Sharkey id's does, not as 0.
    private static let aidOffset: UInt64 = 830_000_000_000 * 1_679_616
    /// Added to an id before it becomes a ULID's or flake id's time part, so
    /// that part reads as milliseconds in 2024–2026, as a real server's do
    /// (ULIDs start `01J`), rather than in 1970.
    private static let timeOffset: UInt64 = 0x0190_0000_0000_0000

    private static func shifted(_ id: Int64) -> UInt64 { UInt64(id) &+ timeOffset }

    private static func unshifted(_ bits: UInt64) -> Int64? {
        guard bits > timeOffset, bits - timeOffset <= UInt64(Int64.max) else { return nil }
        return Int64(bits - timeOffset)
    }

    /// A 64-bit mix of the id (SplitMix64's finalizer): the part of a ULID or
    /// flake id a real server fills with randomness or worker and sequence.
    private static func check(_ id: Int64) -> UInt64 {
        var z = UInt64(bitPattern: id) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 26 base32 digits of the 128-bit (high, low), most significant first.
    private static func base32(high: UInt64, low: UInt64) -> String {
        var digits = [UInt8](repeating: 0, count: 26)
        for k in 0..<26 {
            let shift = 5 * k
            let bits: UInt64
            if shift >= 64 {
                bits = high >> (shift - 64)
            } else if shift == 0 {
                bits = low
            } else {
                bits = low >> shift | high << (64 - shift)
            }
            digits[25 - k] = crockford[Int(bits & 31)]
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `value` in lower-case base36, left-padded with `0` to `digits`.
    private static func base36(_ value: UInt64, digits count: Int) -> String {
        var value = value
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: count)
        for position in stride(from: count - 1, through: 0, by: -1) {
            digits[position] = base36Digits[Int(value % 36)]
            value /= 36
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// (high, low) in base62, left-padded with `0` to `flakeLength`.
    private static func base62(high: UInt64, low: UInt64) -> String {
        var (high, low) = (high, low)
        var digits: [UInt8] = []
        repeat {
            let remainder0 = high % 62
            high /= 62
            let (quotient, remainder) = UInt64(62).dividingFullWidth((remainder0, low))
            low = quotient
            digits.append(base62Digits[Int(remainder)])
        } while high != 0 || low != 0
        while digits.count < flakeLength { digits.append(UInt8(ascii: "0")) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// The 128-bit value of `text` in `alphabet`; nil for another character or an overflow.
    private static func decode(_ text: String, alphabet: [UInt8], base: UInt64) -> (high: UInt64, low: UInt64)? {
        guard !text.isEmpty, text.utf8.count <= 26 else { return nil }
        var (high, low): (UInt64, UInt64) = (0, 0)
        for byte in text.utf8 {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            let (carry, product) = low.multipliedFullWidth(by: base)
            let (sum, overflow) = product.addingReportingOverflow(UInt64(digit))
            let (scaled, overflowHigh) = high.multipliedReportingOverflow(by: base)
            let (newHigh, overflowAdd) = scaled.addingReportingOverflow(carry &+ (overflow ? 1 : 0))
            guard !overflowHigh, !overflowAdd else { return nil }
            (high, low) = (newHigh, sum)
        }
        return (high, low)
    }
}
