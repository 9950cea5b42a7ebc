import Foundation
import Testing
import WshRequest
@testable import WshShell
import WshTestSupport

/// `login` on the embedded sandbox, through the loopback listener (needs the
/// sandbox7 branch's OAuth2; skipped before it is merged).
@Suite("Login on the sandbox")
struct SandboxLoginTests {
    @Test("login needs no app on the sandbox, catches the redirect, and requests then go out as that account",
          .enabled(if: SandboxOAuth.available, "needs the sandbox's OAuth2 endpoints (sandbox7)"))
    func loopbackLoginOnSandbox() async throws {
        let store = AccountStore(directory: WshProcess.temporaryDirectory() + "/wsh")
        let harness = try await ShellHarness(accountStore: store)
        async let login = harness.run("login --no-browser")
        let url = await harness.line(containing: "/oauth2/authorize?")
        let landed = try SandboxOAuth.approve(url)
        _ = try await CurlHTTPClient().send(HTTPRequest(url: landed))
        let done = await login
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try store.load().activeAccount(for: "sandbox")?.uid == SandboxOAuth.approvingUID)
        let posted = await harness.run("whoami; post as the new account; list --json; status")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("(uid \(SandboxOAuth.approvingUID)) on sandbox"))
        #expect(posted.stdout.contains("\"idstr\" : \"\(SandboxOAuth.approvingUID)\""))
        #expect(posted.stdout.contains("*** from account @"))
        let out = await harness.run("logout; status")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("sandbox token (***)"))
    }
}
