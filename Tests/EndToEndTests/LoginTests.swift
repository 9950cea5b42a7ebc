import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// A login round trip of the built `wsh` against the sandbox's OAuth2
/// (needs the sandbox7 branch; skipped before it is merged).
@Suite("Login against the sandbox, end to end")
struct LoginTests {
    @Test("login --url-only, approve, login --code URL; whoami; post as that user; logout; the token is dead",
          .enabled(if: SandboxOAuth.available, "needs the sandbox's OAuth2 endpoints (sandbox7)"))
    func splitLoginRoundTrip() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        // --api names a URL, not the embedded sandbox: the app comes from the
        // environment, which says which API it belongs to.
        let env = ["XDG_CONFIG_HOME": config, "WSH_APP_KEY": "sandbox-app",
                   "WSH_APP_SECRET": "sandbox-secret", "WSH_APP_API": sandbox.baseURL]
        let api = ["--api", sandbox.baseURL]

        let begun = try await WshProcess.run(api + ["-c", "login --url-only --redirect-uri http://127.0.0.1:9/cb"], environment: env)
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:\(sandbox.port)/oauth2/authorize?client_id=sandbox-app&"))
        let landed = try SandboxOAuth.approve(url)
        #expect(landed.hasPrefix("http://127.0.0.1:9/cb?code="))

        let done = try await WshProcess.run(api + ["-c", "login --code '\(landed)'; whoami --json; post hello from wsh login; list --json"],
                                            environment: env)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stderr.contains("logged in as @"))
        #expect(done.stdout.contains("\"uid\" : \"\(SandboxOAuth.approvingUID)\""))
        #expect(done.stdout.contains("\"idstr\" : \"\(SandboxOAuth.approvingUID)\""))
        let accounts = try String(contentsOfFile: config + "/wsh/accounts.json", encoding: .utf8)
        let token = try #require(accounts.components(separatedBy: "\"access_token\" : \"").dropFirst().first?.split(separator: "\"").first)
        #expect(!done.stdout.contains(token) && !done.stderr.contains(token))

        let out = try await WshProcess.run(api + ["-c", "logout; accounts --json"], environment: env)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("[\n\n]") || out.stdout.contains("[]"))
        let dead = try await WshProcess.run(api + ["-c", "post again"], environment: ["WSH_ACCESS_TOKEN": String(token)])
        #expect(dead.status == 1)
        #expect(dead.stderr.contains("run login"))
    }

    @Test("Mastodon: login --url-only registers wsh and keeps the app; login --code in another process; whoami; post; logout; the token is dead")
    func mastodonSplitLogin() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let env = ["XDG_CONFIG_HOME": config]
        let api = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon"]

        let begun = try await WshProcess.run(api + ["-c", "login --url-only"], environment: env)
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix(sandbox.mastodonBaseURL + "oauth/authorize?client_id="))
        let code = try SandboxOAuth.approveOutOfBand(url)
        #expect(!code.isEmpty)

        let done = try await WshProcess.run(api + ["-c", "login --code \(code); whoami --json; post hello from mastodon; list --json"],
                                            environment: env)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stderr.contains("logged in as @"))
        #expect(done.stdout.contains("\"uid\" : \"\(SandboxOAuth.approvingUID)\""))
        #expect(done.stdout.contains("\"id\" : \"\(SandboxOAuth.approvingUID)\""))   // the account, in Mastodon's names
        let accounts = try String(contentsOfFile: config + "/wsh/accounts.json", encoding: .utf8)
        func field(_ name: String) -> String {
            accounts.components(separatedBy: "\"\(name)\" : \"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? ""
        }
        let (token, secret) = (field("access_token"), field("client_secret"))
        #expect(!token.isEmpty && !secret.isEmpty)
        for printed in [begun.stdout, begun.stderr, done.stdout, done.stderr] {
            #expect(!printed.contains(token) && !printed.contains(secret))
        }

        let out = try await WshProcess.run(api + ["-c", "logout; accounts --json"], environment: env)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("the token is revoked"))
        let dead = try await WshProcess.run(api + ["-c", "post again"], environment: ["WSH_ACCESS_TOKEN": token])
        #expect(dead.status == 1)
        #expect(dead.stderr.contains("run login"))
    }
}
