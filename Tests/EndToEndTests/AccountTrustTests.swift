import Foundation
import Testing
import WshSandbox
import WshTestSupport

/// The account edge of the built `wsh` against the sandbox, tried the way an
/// attacker, a second terminal and a careless machine would (issue 20):
/// forged login redirects, concurrent sessions, app secrets and other
/// servers, tokens before the first request, tokens that cannot be kept.
@Suite("Accounts you can trust, end to end")
struct AccountTrustTests {
    /// A sandbox user other than the one approving: the attacker.
    static let attackerUID = "1700000002"

    /// How `wsh` reaches the sandbox's side of `dialect`, with the environment a login there needs.
    private func target(_ dialect: String, _ sandbox: SandboxServer, config: String) -> (arguments: [String], environment: [String: String]) {
        if dialect == "mastodon" {
            return (["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon"], ["XDG_CONFIG_HOME": config])
        }
        // A Weibo API named by URL: the app comes from the environment, which says which API it is for.
        return (["--api", sandbox.baseURL], ["XDG_CONFIG_HOME": config, "WSH_APP_KEY": "sandbox-app",
                                             "WSH_APP_SECRET": "sandbox-secret", "WSH_APP_API": sandbox.baseURL])
    }

    private func query(_ url: String) -> [String: String] {
        Dictionary((URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
    }

    private func storedUIDs(_ config: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: config + "/wsh/accounts.json"))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (file["accounts"] as? [[String: Any]] ?? []).compactMap { $0["uid"] as? String }
    }

    /// Logs in through the loopback listener as `uid`: wsh prints the URL, the "browser" approves and arrives.
    private func listenerLogin(_ arguments: [String], _ environment: [String: String], as uid: String,
                               then commands: String = "") async throws -> WshRun {
        let wsh = try RunningWsh(arguments + ["-c", "login --no-browser" + commands], environment: environment)
        guard let url = await wsh.line(containing: "/authorize?") else { return await wsh.finish() }
        let landed = try SandboxOAuth.approve(url, as: uid)
        _ = try SandboxOAuth.visit(landed)
        return await wsh.finish()
    }

    // MARK: 1. Login CSRF

    @Test("login CSRF: a redirect with another person's code and no state, or a wrong one, is refused with one line; wsh waits on and logs in the right user",
          arguments: ["weibo", "mastodon"])
    func forgedRedirectRefused(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (api, env) = target(dialect, sandbox, config: config)
        let wsh = try RunningWsh(api + ["-c", "login --no-browser; whoami --json"], environment: env)
        let url = try #require(await wsh.line(containing: "/authorize?"), "\(wsh.stderr)")
        let redirectURI = try #require(query(url)["redirect_uri"])
        #expect(redirectURI.hasPrefix("http://127.0.0.1:"))

        // The attacker approves its own copy of the page (no state, no PKCE) as itself,
        // and makes the user's browser follow the redirect to wsh's listener.
        let forged = try SandboxOAuth.approve(SandboxOAuth.removing(["state", "code_challenge", "code_challenge_method"], from: url),
                                              as: Self.attackerUID)
        #expect(forged.hasPrefix(redirectURI + "?code="), "\(forged)")
        #expect(query(forged)["state"] ?? "" == "")
        let noState = try SandboxOAuth.visit(forged)
        #expect(noState.status == 400)
        #expect(noState.page.contains("not the answer to the login"))
        let wrongState = try SandboxOAuth.visit(forged + "&state=" + String(repeating: "0", count: 32))
        #expect(wrongState.status == 400)
        let denied = try SandboxOAuth.visit(redirectURI + "?error=access_denied")
        #expect(denied.status == 400)
        #expect(await wsh.line(containing: "refused a redirect", onStderr: true) != nil)

        // The user's own approval still arrives and logs the user in.
        let landed = try SandboxOAuth.approve(url)
        #expect(try SandboxOAuth.visit(landed).status == 200)
        let run = await wsh.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "refused a redirect").count - 1 == 3)
        #expect(run.stderr.contains("logged in as @") && run.stderr.contains("(uid \(SandboxOAuth.approvingUID))"))
        #expect(run.stdout.contains("\"uid\" : \"\(SandboxOAuth.approvingUID)\""))
        #expect(try storedUIDs(config) == [SandboxOAuth.approvingUID])
    }

    @Test("login --code with a pasted redirect URL must carry the login's state", arguments: ["weibo", "mastodon"])
    func pastedURLNeedsState(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (api, env) = target(dialect, sandbox, config: config)
        let begun = try await WshProcess.run(api + ["-c", "login --url-only --redirect-uri http://127.0.0.1:9/cb"], environment: env)
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let landed = try SandboxOAuth.approve(SandboxOAuth.removing(["state", "code_challenge", "code_challenge_method"], from: url),
                                              as: Self.attackerUID)
        let refused = try await WshProcess.run(api + ["-c", "login --code '\(landed)'"], environment: env)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("carries no state"))
        let stored = FileManager.default.fileExists(atPath: config + "/wsh/accounts.json") ? try storedUIDs(config) : []
        #expect(stored.isEmpty)
    }

    // MARK: 3. Lost accounts

    @Test("a login in another terminal while one waits in login is kept: both accounts are stored", arguments: ["weibo", "mastodon"])
    func concurrentSessionKeepsOthersLogin(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (api, env) = target(dialect, sandbox, config: config)
        // Session A reads the accounts, then waits in login.
        let first = try RunningWsh(api + ["-c", "accounts; login --no-browser"], environment: env)
        let url = try #require(await first.line(containing: "/authorize?"), "\(first.stderr)")
        // Session B logs in meanwhile.
        let second = try await listenerLogin(api, env, as: Self.attackerUID)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try storedUIDs(config) == [Self.attackerUID])
        // A finishes: B's account is still there.
        _ = try SandboxOAuth.visit(try SandboxOAuth.approve(url))
        let done = await first.finish()
        #expect(done.status == 0, "\(done.stderr)")
        #expect(Set(try storedUIDs(config)) == [Self.attackerUID, SandboxOAuth.approvingUID])
    }

    @Test("20 rounds of 20 parallel processes logging in, switching and logging out: every account survives every round, no temporary file is left")
    func parallelLoginsUsesLogouts() async throws {
        var configuration = SandboxConfiguration()
        configuration.accounts = 16
        let sandbox = try await SandboxServer.start(configuration)
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (api, env) = target("weibo", sandbox, config: config)
        let uids = sandbox.accounts.map { String($0.uid) }
        let residents = Array(uids[0..<12]), transients = Array(uids[12..<16])
        var residentsIn: Set<String> = []
        for round in 0..<20 {
            let logins = (0..<8).map { residents[(round * 8 + $0) % residents.count] }
            let known = Array(residentsIn)
            let runs = try await withThrowingTaskGroup(of: (String, WshRun).self) { group in
                for uid in logins {
                    group.addTask { ("login \(uid)", try await listenerLogin(api, env, as: uid)) }
                }
                for uid in transients {
                    if round % 2 == 0 {
                        group.addTask { ("login \(uid)", try await listenerLogin(api, env, as: uid)) }
                    } else {
                        group.addTask { ("logout \(uid)", try await WshProcess.run(api + ["-c", "logout \(uid)"], environment: env)) }
                    }
                }
                for index in 0..<8 {
                    let command = known.isEmpty ? "accounts" : "use \(known[index % known.count])"
                    group.addTask { (command, try await WshProcess.run(api + ["-c", command], environment: env)) }
                }
                var runs: [(String, WshRun)] = []
                for try await run in group { runs.append(run) }
                return runs
            }
            for (command, run) in runs {
                #expect(run.status == 0, "round \(round): \(command): \(run.stderr)")
            }
            residentsIn.formUnion(logins)
            let stored = Set(try storedUIDs(config))
            #expect(residentsIn.isSubset(of: stored), "round \(round): lost \(residentsIn.subtracting(stored).sorted())")
            if round % 2 == 0 {
                #expect(Set(transients).isSubset(of: stored), "round \(round): lost \(Set(transients).subtracting(stored).sorted())")
            } else {
                #expect(stored.isDisjoint(with: transients), "round \(round): logged out but kept \(stored.intersection(transients).sorted())")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: config + "/wsh").filter { $0.contains(".tmp-") }
            #expect(left.isEmpty, "round \(round): \(left)")
        }
    }

    // MARK: 5. App credentials belong to one API and one host

    @Test("Mastodon login with WSH_APP_KEY/WSH_APP_SECRET set registers its own app: the Weibo key is not in the URL and the login works")
    func weiboAppNeverReachesMastodon() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        // Even with WSH_APP_API naming this very server, Weibo's variables are not a Mastodon app.
        let env = ["XDG_CONFIG_HOME": config, "WSH_APP_KEY": "weibo-app-key", "WSH_APP_SECRET": "weibo-app-secret-123456",
                   "WSH_APP_API": sandbox.mastodonBaseURL]
        let api = ["--api", sandbox.mastodonBaseURL, "--dialect", "mastodon"]
        let begun = try await WshProcess.run(api + ["-c", "login --url-only"], environment: env)
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!url.contains("weibo-app-key"))
        #expect(query(url)["client_id"]?.isEmpty == false)
        let code = try SandboxOAuth.approveOutOfBand(url)
        let done = try await WshProcess.run(api + ["-c", "login --code \(code)"], environment: env)
        #expect(done.status == 0, "\(done.stderr)")
        let stored = try String(contentsOfFile: config + "/wsh/accounts.json", encoding: .utf8)
        #expect(!stored.contains("weibo-app"))
    }

    @Test("WSH_APP_KEY's app is not sent to a Weibo API on another host than WSH_APP_API's (default api.weibo.com)")
    func weiboAppStaysOnItsHost() async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        for owner in [nil, "https://api.weibo.com/", "http://127.0.0.1:1/2/"] {
            var env = ["XDG_CONFIG_HOME": config, "WSH_APP_KEY": "sandbox-app", "WSH_APP_SECRET": "sandbox-secret"]
            env["WSH_APP_API"] = owner
            let run = try await WshProcess.run(["--api", sandbox.baseURL, "-c", "login --url-only"], environment: env)
            #expect(run.status == 1, "\(owner ?? "default"): \(run.stdout)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("not sending $WSH_APP_KEY's app to \(sandbox.baseURL)"))
            #expect(!run.stderr.contains("sandbox-secret"))
        }
    }

    // MARK: 6. Tokens masked from the moment they are read

    @Test("a token from the variable, a file, --token-command or a stored account is masked before any request: echo, errors, status, the command's stderr")
    func tokensMaskedBeforeFirstRequest() async throws {
        let token = "tok-before-0123456789"
        let config = WshProcess.temporaryDirectory()
        let api = "http://127.0.0.1:9/2/"
        let tokenFile = config + "/token"
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: config + "/wsh", withIntermediateDirectories: true)
        try """
            {"version": 1, "accounts": [{"api": "\(api)", "uid": "1", "screen_name": "me", "access_token": "\(token)"}],
             "active": {"\(api)": "1"}}
            """.write(toFile: config + "/wsh/accounts.json", atomically: true, encoding: .utf8)
        let sources: [(String, [String], [String: String])] = [
            ("variable", [], ["WSH_ACCESS_TOKEN": token]),
            ("file", ["--token-file", tokenFile], [:]),
            ("command", ["--token-command", "echo \(token); echo \"the token is \(token)\" >&2"], [:]),
            ("stored account", [], ["XDG_CONFIG_HOME": config]),
        ]
        for (name, options, env) in sources {
            let run = try await WshProcess.run(["--api", api] + options + ["-c", """
                echo \(token)
                status
                try { nosuch \(token) } catch { echo $error }
                set t x\(token)
                echo $t
                """], environment: env)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(!run.stdout.contains(token) && !run.stderr.contains(token), "\(name): \(run.stdout) \(run.stderr)")
            #expect(run.stdout.hasPrefix("***\n"), "\(name): \(run.stdout)")
            if name == "command" { #expect(run.stderr.contains("the token is ***")) }
        }
    }

    @Test("wsh --test reports (JUnit, TAP) never hold a token from --token-command or a stored account")
    func testReportsMaskTokens() async throws {
        let token = "tok-report-0123456789"
        let config = WshProcess.temporaryDirectory()
        let api = "http://127.0.0.1:9/2/"
        try FileManager.default.createDirectory(atPath: config + "/wsh", withIntermediateDirectories: true)
        try """
            {"version": 1, "accounts": [{"api": "\(api)", "uid": "1", "screen_name": "me", "access_token": "\(token)"}],
             "active": {"\(api)": "1"}}
            """.write(toFile: config + "/wsh/accounts.json", atomically: true, encoding: .utf8)
        let folder = WshProcess.temporaryDirectory()
        try "echo \(token)\nassert \"\(token)\" == x \"\(token) differs\"\n".write(toFile: folder + "/leak.wsh", atomically: true, encoding: .utf8)
        for (options, env) in [(["--token-command", "echo \(token)"], [String: String]()), ([], ["XDG_CONFIG_HOME": config])] {
            let junit = folder + "/junit.xml", tap = folder + "/tap.txt"
            let run = try await WshProcess.run(["--test", "--report-junit", junit, "--report-tap", tap, "--api", api] + options + [folder],
                                               environment: env)
            #expect(run.status == 1)
            let reports = try String(contentsOfFile: junit, encoding: .utf8) + String(contentsOfFile: tap, encoding: .utf8)
            #expect(reports.contains("leak.wsh"))
            #expect(!reports.contains(token), "\(reports)")
            #expect(!run.stdout.contains(token) && !run.stderr.contains(token))
        }
    }

    // MARK: 7. A token issued but not saved is revoked

    @Test("when the accounts file cannot be written (a folder in its place, a newer version), login revokes the token it got and says why",
          arguments: ["weibo", "mastodon"])
    func unsavedTokenRevoked(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (api, env) = target(dialect, sandbox, config: config)
        if dialect == "mastodon" {
            // The app is registered and kept first; only then is the file made one wsh must not rewrite.
            let begun = try await WshProcess.run(api + ["-c", "login --url-only"], environment: env)
            #expect(begun.status == 0, "\(begun.stderr)")
            let path = config + "/wsh/accounts.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2").write(toFile: path, atomically: true, encoding: .utf8)
            let code = try SandboxOAuth.approveOutOfBand(begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let run = try await WshProcess.run(api + ["-c", "login --code \(code)"], environment: env)
            #expect(run.status == 1)
            #expect(run.stderr.contains("cannot keep the account: not changing"))
            #expect(run.stderr.contains("version 2"))
            #expect(run.stderr.contains("the new token was revoked"))
        } else {
            try FileManager.default.createDirectory(atPath: config + "/wsh/accounts.json", withIntermediateDirectories: true)
            let run = try await listenerLogin(api, env, as: SandboxOAuth.approvingUID)
            #expect(run.status == 1)
            #expect(run.stderr.contains("cannot keep the account:"))
            #expect(run.stderr.contains("Is a directory"))
            #expect(run.stderr.contains("the new token was revoked"))
            #expect(!run.stderr.contains("logged in as"))
        }
        #expect(sandbox.liveIssuedTokenCount == 0)
    }

    // MARK: 8. Ctrl-C during login

    @Test("Ctrl-C while login waits for the browser stops it (interrupted, status 130): the listener is closed, no account kept, the script stops",
          arguments: ["weibo", "mastodon"])
    func interruptedLogin(dialect: String) async throws {
        let sandbox = try await SandboxServer.start(SandboxConfiguration())
        defer { Thread.detachNewThread { sandbox.stop() } }
        let config = WshProcess.temporaryDirectory()
        let (arguments, environment) = target(dialect, sandbox, config: config)
        let wsh = try RunningWsh(arguments + ["-c", "login --no-browser; echo after the login"], environment: environment)
        let waiting = try #require(await wsh.line(containing: "waiting for the browser at", onStderr: true))
        let listening = try #require(waiting.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        wsh.interrupt()
        let run = await wsh.finish()
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("login: interrupted"))
        #expect(!run.stdout.contains("after the login"))
        // A browser arriving now finds nobody listening.
        #expect(try SandboxOAuth.visit(listening + "?code=late&state=x").status == 0)
        #expect((try? storedUIDs(config)) ?? [] == [])
    }
}
