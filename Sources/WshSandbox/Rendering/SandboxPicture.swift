/// The pictures the sandbox serves for the attachments, avatars and emojis
/// its statuses show: small PNGs made from the path asked for, so every URL
/// has its own picture and the same one every time, which any browser or
/// image viewer shows (a copy kept by `archive media` is a real image).
enum SandboxPicture {
    /// A 16×16 PNG of two colours in a pattern, both drawn from `seed`.
    static func png(seed: String) -> [UInt8] {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a of the seed, then mixed
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var rng = SplitMix64(seed: hash)
        let colours = (0..<2).map { _ in (0..<3).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let pattern = rng.next()
        let side = 16
        // Each row: filter type 0, then RGB.
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * (1 + side * 3))
        for y in 0..<side {
            pixels.append(0)
            for x in 0..<side {
                let bit = (pattern >> UInt64((x / 4 + (y / 4) * 4) % 64)) & 1
                pixels += colours[Int(bit)]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [8, 2, 0, 0, 0], into: &png)
        chunk("IDAT", zlibStored(pixels), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png += bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let last: UInt8 = offset + length == data.count ? 1 : 0
            stream += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            stream += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return stream + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
