import Foundation
import Testing
@testable import WshWeb

/// wsh's own sources inside the binary, for the classroom's code panel: the
/// files of the repository, byte for byte, and only those a saved lesson names.
@Suite("the sources the classroom shows")
struct ClassroomSourcesTests {
    /// The repository's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every Swift file under Sources is embedded, compressed by gzip, and decompresses to the repository's bytes")
    func roundTrip() throws {
        let paths = ClassroomSources.paths
        #expect(paths.contains("Sources/WshDataController/Tracing/TracedCall.swift"))
        #expect(paths.contains("Sources/WshWeb/ClassroomSources.swift"))
        #expect(paths.allSatisfy { $0.hasPrefix("Sources/") && $0.hasSuffix(".swift") })
        #expect(!paths.contains { $0.hasPrefix("Tests/") || $0.hasPrefix("Plugins/") })
        for path in paths {
            let compressed = try #require(Data(base64Encoded: ClassroomSources.compressed(path) ?? ""), "\(path)")
            let file = try Data(contentsOf: Self.root.appendingPathComponent(path))
            // gzip's header, then its trailer: the CRC-32 and the size of what it holds (RFC 1952).
            #expect(compressed.prefix(3) == Data([0x1f, 0x8b, 0x08]), "\(path)")
            let trailer = [UInt8](compressed.suffix(8))
            let crc = trailer[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let size = trailer[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(size == UInt32(truncatingIfNeeded: file.count), "\(path) is embedded from another version: rebuild")
            #expect(crc == Self.crc32(file), "\(path) is embedded from another version: rebuild")
        }
        #expect(ClassroomSources.compressed("/etc/passwd") == nil)
        #expect(ClassroomSources.compressed("Package.swift") == nil)
    }

    @Test("a saved lesson carries the source files its events name, and no other")
    func savedCarriesWhatItNames() throws {
        let events = [
            ClassroomLog.Event(id: 1, json: #"{"type":"layer","line":1,"source":{"file":"Sources/WshDataController/Tracing/TracedCall.swift","function":"run","line":20}}"#),
            ClassroomLog.Event(id: 2, json: #"{"type":"layer","line":1,"source":{"file":"/etc/passwd","function":"x","line":1}}"#),
            ClassroomLog.Event(id: 3, json: #"{"type":"layer","line":1,"detail":"no source"}"#),
        ]
        let page = ClassroomPage.saved(title: "t", events: events)
        let start = try #require(page.range(of: #"<script type="application/json" id="wsh-sources">"#))
        let end = try #require(page[start.upperBound...].range(of: "</script>"))
        let carried = try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: String])
        #expect(Array(carried.keys) == ["Sources/WshDataController/Tracing/TracedCall.swift"])
        #expect(carried.values.first == ClassroomSources.compressed("Sources/WshDataController/Tracing/TracedCall.swift"))
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
