import Foundation
import Testing
import WshRequest
import WshSandbox
@testable import WshShell
import WshTestSupport

/// server writes them, numbers or not.
@Suite("Lost answers on servers whose ids are not numbers")
struct OpaqueIDLostAnswerTests {
    @Test("a post and a comment whose answers are lost are found on the server with ULID and flake ids",
          arguments: [MastodonIDStyle.ulid, .flake, .snowflake])
    func lostAnswersFound(style: MastodonIDStyle) async throws {
        let harness = try await ShellHarness(dialect: .mastodon, idStyle: style)
        #expect(await harness.run("fetch 3").status == 0)
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true, path: "api/v1/statuses"))
        let posted = await harness.run("post landed once")
        #expect(posted.status == 0, "\(style): \(posted.stderr)")
        #expect(posted.stderr.contains("the answer was lost; found the status on the server"), "\(style): \(posted.stderr)")
        let commented = await harness.run("fetch 3; comment 2 found again")
        #expect(commented.status == 0, "\(style): \(commented.stderr)")
        #expect(commented.stderr.contains("the answer was lost"), "\(style): \(commented.stderr)")
        harness.sandbox.setFaults(SandboxFaults())
        #expect(await harness.run("undo; undo").status == 0)
    }
}
