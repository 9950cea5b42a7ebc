import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell
import WshTestSupport

/// README's examples of the wire are what wsh really sends.
@Suite("README's wire examples")
struct ReadmeWireTests {
    @Test("the Mastodon tour's `trace on; newer` line names the request really sent for fetch local (its prev link)")
    func localTimelineWire() async throws {
        let readme = try String(contentsOfFile: WshProcess.packageRoot + "/README.md", encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.contains("trace on; newer") && $0.contains("see the wire: GET ") })
        let claimed = try #require(line.components(separatedBy: "see the wire: GET ").last).components(separatedBy: "…")
        let harness = try await ShellHarness(dialect: .mastodon)
        let traced = await harness.run("fetch local 20; trace on; newer")
        #expect(traced.status == 0, "\(traced.stderr)")
        let request = (traced.stdout + traced.stderr).split(separator: "\n").first { $0.contains("Request") && $0.contains("GET ") }
        #expect(claimed.count == 2 && claimed.allSatisfy { $0.isEmpty || request?.contains($0) == true }, "README claims \(claimed), wsh sent \(request ?? "nothing")")
    }
}
