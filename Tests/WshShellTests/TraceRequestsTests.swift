import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// `trace on` shows every request an operation sends, not only its last:
/// on Mastodon a `follow` by name is a lookup, the write, and a read.
@Suite("trace shows each request of an operation", .serialized)
struct TraceRequestsTests {
    @Test("follow by name on Mastodon: the lookup, the POST and the read, in order, each with its answer")
    func followShowsEveryRequest() async throws {
        let harness = try await ShellHarness(dialect: .mastodon)
        #expect(await harness.run("unfollow 北京摄影师").status == 0)
        let traced = await harness.run("trace on\nfollow 北京摄影师")
        #expect(traced.status == 0, "\(traced.stderr)")
        let requests = (traced.stdout + traced.stderr).split(separator: "\n").filter { $0.contains("Request ") }
        #expect(requests.count == 3, "\(traced.stdout)\(traced.stderr)")
        #expect(requests.first?.contains("GET") == true && requests.first?.contains("accounts/lookup") == true)
        #expect(requests.dropFirst().first?.contains("POST") == true && requests.dropFirst().first?.hasSuffix("/follow") == true)
        #expect(requests.last?.contains("GET") == true)
        let responses = (traced.stdout + traced.stderr).split(separator: "\n").filter { $0.contains("Response ") }
        #expect(responses.count == 3 && responses.allSatisfy { $0.contains("200") })

        let json = await harness.run("trace on --json\nunfollow 北京摄影师")
        let lines = (json.stdout + json.stderr).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let sent = lines.filter { $0["layer"] as? String == "Request" }.compactMap { $0["detail"] as? String }
        #expect(sent.contains { $0.hasPrefix("POST ") && $0.contains("/unfollow") }, "\(sent)")
        #expect(sent.count >= 2, "\(sent)")
    }
}
