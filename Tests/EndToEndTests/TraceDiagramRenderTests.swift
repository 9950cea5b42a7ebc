import Foundation
import Testing
import WshTestSupport

/// `trace diagram` drawn as a person would see it: the SVG rendered by
/// headless Chromium (`scripts/install-deps --render`, which `scripts/test`
/// passes) must give a screenshot of the asked size that is not blank.
@Suite("trace diagram renders in a browser", .serialized)
struct TraceDiagramRenderTests {
    static let size = (width: 1200, height: 800)

    /// Screenshots `svg` with headless Chromium into `png`; returns Chromium's exit status.
    func screenshot(_ svg: String, into png: String) throws -> Int32 {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(chromium, "chromium is not installed: scripts/install-deps --render")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--user-data-dir=" + WshProcess.temporaryDirectory(),
                             "--screenshot=" + png, "--window-size=\(Self.size.width),\(Self.size.height)",
                             URL(fileURLWithPath: svg).absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The width and height in a PNG's IHDR chunk (bytes 16–23, big-endian).
    func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == Array("IHDR".utf8)[...] else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    @Test("the SVG of fetch 3 and detail 1 renders to a 1200×800 PNG well above a blank one")
    func rendersNotBlank() async throws {
        let folder = WshProcess.temporaryDirectory()
        let run = try await WshProcess.run(["-c", "trace on; fetch 3; detail 1; trace diagram \(folder)/lesson --last 2"])
        #expect(run.status == 0, "\(run.stderr)")

        let blank = folder + "/blank.svg"
        try """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.size.width)" height="\(Self.size.height)">\
            <rect width="100%" height="100%" fill="#ffffff"/></svg>
            """.write(toFile: blank, atomically: true, encoding: .utf8)
        #expect(try screenshot(blank, into: folder + "/blank.png") == 0)
        #expect(try screenshot(folder + "/lesson.svg", into: folder + "/lesson.png") == 0)

        let blankPNG = try Data(contentsOf: URL(fileURLWithPath: folder + "/blank.png"))
        let diagramPNG = try Data(contentsOf: URL(fileURLWithPath: folder + "/lesson.png"))
        let size = try #require(pngSize(diagramPNG), "not a PNG")
        #expect(size.width == Self.size.width && size.height == Self.size.height)
        #expect(pngSize(blankPNG).map { $0.width == size.width && $0.height == size.height } == true)
        // Lifelines, arrows and a hundred labels compress far worse than white.
        #expect(diagramPNG.count > blankPNG.count * 5, "diagram \(diagramPNG.count) B, blank \(blankPNG.count) B")
    }
}
