import Foundation
import Testing
import WshSandbox
@testable import WshShell
import WshTestSupport

/// When a write's answer is lost and reading the server back fails too, the
/// advice names the connected API's own call and field: a Mastodon user is
/// never told to `api get statuses/show.json`.
@Suite("Lost-answer advice in the connected API's words", .serialized)
struct ReadBackAdviceTests {
    private func lostFavourite(_ dialect: Connection.DialectChoice) async throws -> String {
        let harness = try await ShellHarness(dialect: dialect)
        #expect(await harness.run("fetch 3").status == 0)
        // The favourite is done but its answer dropped, and the read that would settle it dropped as well.
        harness.sandbox.setFaults(SandboxFaults(dropAfter: true))
        let favourited = await harness.run("favorite 1")
        #expect(favourited.status != 0)
        return favourited.stderr
    }

    @Test("Mastodon: api/v1/statuses/ID and its \"favourited\"")
    func mastodonAdvice() async throws {
        let said = try await lostFavourite(.mastodon)
        #expect(said.contains("check with `api get api/v1/statuses/"), "\(said)")
        #expect(said.contains("(its \"favourited\")"), "\(said)")
        #expect(!said.contains(".json"), "\(said)")
    }

    @Test("Weibo: statuses/show.json and its \"favorited\"")
    func weiboAdvice() async throws {
        let said = try await lostFavourite(.weibo)
        #expect(said.contains("check with `api get statuses/show.json id="), "\(said)")
        #expect(said.contains("(its \"favorited\")"), "\(said)")
        #expect(!said.contains("api/v1"), "\(said)")
    }
}
