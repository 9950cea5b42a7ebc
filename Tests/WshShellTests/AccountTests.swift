import Foundation
import Testing
import WshRequest
@testable import WshShell
import WshTestSupport

/// The accounts store and the login round trip (`login`, `accounts`, `use`,
/// `whoami`, `logout`) against a fake Weibo OAuth server over real HTTP.
@Suite("Accounts and login")
struct AccountTests {
    // MARK: The store

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    private func freshStore() -> AccountStore {
        AccountStore(directory: WshProcess.temporaryDirectory() + "/config/wsh")
    }

    private func account(_ uid: String, _ name: String, api: String = "https://api.weibo.com/2/") -> StoredAccount {
        StoredAccount(api: api, uid: uid, screenName: name, accessToken: "2.00token\(uid)xyz",
                      expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
    }

    @Test("saving creates the folder 0700 and accounts.json 0600, and reads back the same")
    func storeModesAndRoundTrip() throws {
        let store = freshStore()
        var file = AccountsFile()
        file.signIn(account("1", "alice"))
        try store.save(file)
        #expect(mode(store.directory) == 0o700)
        #expect(mode(store.accountsPath) == 0o600)
        #expect(try store.load() == file)
        let text = try String(contentsOfFile: store.accountsPath, encoding: .utf8)
        #expect(text.contains("\"screen_name\" : \"alice\""))
        #expect(text.contains("\"expires_at\" : \"2030-03-17T17:46:40Z\""))
    }

    @Test("a save replaces the file by rename (a new inode, no temporary file left), 0600 even under umask 0")
    func storeAtomicWrite() throws {
        let store = freshStore()
        var file = AccountsFile()
        file.signIn(account("1", "alice"))
        try store.save(file)
        var before = stat()
        stat(store.accountsPath, &before)
        let old = umask(0)
        defer { umask(old) }
        file.signIn(account("2", "bob"))
        try store.save(file)
        var after = stat()
        stat(store.accountsPath, &after)
        #expect(before.st_ino != after.st_ino)
        #expect(mode(store.accountsPath) == 0o600)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: store.directory)) == ["accounts.json", "accounts.json.lock"])
        #expect(try store.load().accounts.map(\.screenName) == ["alice", "bob"])
    }

    @Test("a write that cannot happen fails with the path and leaves the old file as it was")
    func storeFailedWrite() throws {
        let store = freshStore()
        var file = AccountsFile()
        file.signIn(account("1", "alice"))
        try store.save(file)
        chmod(store.directory, 0o500)
        defer { chmod(store.directory, 0o700) }
        guard geteuid() != 0 else { return }  // root writes anyway
        file.signIn(account("2", "bob"))
        #expect(throws: AccountStoreError.self) { try store.save(file) }
        #expect(try store.load().accounts.count == 1)
    }

    @Test("the active account is kept per API; signing in makes it active; removing falls back")
    func activePerAPI() {
        var file = AccountsFile()
        file.signIn(account("1", "alice"))
        file.signIn(account("2", "bob"))
        file.signIn(account("3", "carol", api: "sandbox"))
        #expect(file.activeAccount(for: "https://api.weibo.com/2/")?.screenName == "bob")
        #expect(file.activeAccount(for: "sandbox")?.screenName == "carol")
        #expect(file.accounts(named: "@alice", preferring: "sandbox").map(\.uid) == ["1"])
        file.remove(account("2", "bob"))
        #expect(file.activeAccount(for: "https://api.weibo.com/2/")?.screenName == "alice")
        #expect(file.activeAccount(for: "sandbox")?.screenName == "carol")
    }

    @Test("an unreadable accounts file is a one-line error naming it")
    func corruptFile() throws {
        let store = freshStore()
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try "{not json".write(toFile: store.accountsPath, atomically: true, encoding: .utf8)
        #expect(throws: AccountStoreError.self) { try store.load() }
    }

    // MARK: Login round trips

    private func secretFile() throws -> String {
        let path = WshProcess.temporaryDirectory() + "/secret"
        try (FakeOAuthServer.appSecret + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Plays the browser: POSTs the approve form for the authorize URL, follows the 302.
    private func approve(_ authorizeURL: String, as user: String) async throws -> HTTPResponse {
        let components = try #require(URLComponents(string: authorizeURL))
        let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        let form = FormEncoding.encode([("client_id", query["client_id"] ?? ""), ("redirect_uri", query["redirect_uri"] ?? ""),
                                        ("state", query["state"] ?? ""), ("user", user), ("approve", "1")])
        let http = CurlHTTPClient()
        let url = authorizeURL.split(separator: "?").first.map(String.init) ?? authorizeURL
        let answer = try await http.send(HTTPRequest(method: .post, url: url,
                                                     headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                                                     body: Data(form.utf8)))
        #expect(answer.status == 302)
        let location = try #require(answer.headers["location"])
        return try await http.send(HTTPRequest(method: .get, url: location))
    }

    @Test("login catches the redirect on its loopback listener; then whoami, post as that user, logout; the token is dead")
    func loopbackRoundTrip() async throws {
        let server = try FakeOAuthServer()
        defer { server.stop() }
        let store = freshStore()
        let harness = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let secret = try secretFile()

        async let login = harness.run("login --no-browser --app-key \(FakeOAuthServer.appKey) --app-secret-file \(secret)")
        let url = await harness.line(containing: "/oauth2/authorize?")
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/oauth2/authorize?client_id=fake-app&redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
        #expect(url.contains("response_type=code&state="))
        let page = try await approve(url, as: "2001")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("You can close this tab"))
        let loggedIn = await login
        #expect(loggedIn.status == 0, "\(loggedIn.stderr)")
        #expect(loggedIn.stderr.contains("logged in as @alice_oauth (uid 2001)"))

        let token = try #require(server.liveTokens.first)
        let file = try store.load()
        #expect(file.activeAccount(for: server.baseURL)?.accessToken == token)
        #expect(mode(store.accountsPath) == 0o600)

        let who = await harness.run("whoami; status; accounts; accounts --json; post hello from alice")
        #expect(who.status == 0, "\(who.stderr)")
        #expect(who.stdout.contains("@alice_oauth (uid 2001) on \(server.baseURL)"))
        #expect(who.stdout.contains("token from account @alice_oauth (accounts.json)"))
        #expect(who.stdout.contains("*** from account @alice_oauth"))
        #expect(who.stdout.contains("\"screen_name\" : \"alice_oauth\""))
        #expect(!who.stdout.contains(token) && !who.stderr.contains(token))
        #expect(server.posts.map(\.uid) == ["2001"])

        let out = await harness.run("logout")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("logged out @alice_oauth"))
        #expect(!server.isLive(token))
        #expect(try store.load().accounts.isEmpty)

        // The dead token, sent again, is refused and names login.
        let dead = ShellHarness(api: server.baseURL, token: token)
        let refused = await dead.run("post again")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("API error 21332"))
        #expect(refused.stderr.contains("(the token is invalid or revoked: run login)"))
        #expect(!refused.stderr.contains(token))
    }

    @Test("login --url-only keeps the pending login 0600; login --code with the redirected URL finishes it")
    func splitRoundTrip() async throws {
        let server = try FakeOAuthServer()
        defer { server.stop() }
        let store = freshStore()
        let secret = try secretFile()
        let app = "--app-key \(FakeOAuthServer.appKey) --app-secret-file \(secret)"
        let first = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let begun = await first.run("login --url-only --redirect-uri https://example.com/cb \(app)")
        #expect(begun.status == 0, "\(begun.stderr)")
        let url = begun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.contains("redirect_uri=https%3A%2F%2Fexample.com%2Fcb"))
        #expect(mode(store.pendingPath) == 0o600)
        let pending = try #require(try store.loadPending())
        #expect(url.hasSuffix("state=\(pending.state)"))
        #expect(pending.appKey == FakeOAuthServer.appKey)

        // The browser lands on example.com; the user copies that URL.
        let landed = server.approve(clientID: FakeOAuthServer.appKey, redirectURI: pending.redirectURI, state: pending.state, user: "2002")
        let code = try #require(landed.split(separator: "code=").last?.split(separator: "&").first)

        // A URL with another state is refused, and the pending login stays.
        let second = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let forged = await second.run("login --code 'https://example.com/cb?code=\(code)&state=forged' \(app)")
        #expect(forged.status == 1)
        #expect(forged.stderr.contains("state does not match"))
        #expect(!forged.stderr.contains(String(code)))
        #expect(try store.loadPending() != nil)

        let finished = await second.run("login --code '\(landed)' \(app); whoami --json")
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("logged in as @bob_oauth (uid 2002)"))
        #expect(finished.stdout.contains("\"uid\" : \"2002\""))
        #expect(try store.loadPending() == nil)
        #expect(try store.load().activeAccount(for: server.baseURL)?.screenName == "bob_oauth")

        // A new session on that API uses the stored account by itself.
        let third = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let posted = await third.run("post from bob; accounts")
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(server.posts.map(\.uid) == ["2002"])
        #expect(posted.stdout.contains("* @bob_oauth"))
    }

    @Test("a configured token wins over the stored account; logout of an already revoked token still removes it")
    func precedenceAndStaleLogout() async throws {
        let server = try FakeOAuthServer()
        defer { server.stop() }
        let store = freshStore()
        var file = AccountsFile()
        file.signIn(StoredAccount(api: server.baseURL, uid: "2001", screenName: "alice_oauth",
                                  accessToken: "2.00revokedlongtoken", expiresAt: nil))
        try store.save(file)
        let configured = ShellHarness(api: server.baseURL, token: "given-token-123", accountStore: store)
        let status = await configured.run("status")
        #expect(status.stdout.contains("*** from given"))
        let stale = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let whoami = await stale.run("whoami")
        #expect(whoami.status == 1)
        #expect(whoami.stderr.contains("run login"))
        #expect(!whoami.stderr.contains("2.00revokedlongtoken"))
        let out = await stale.run("logout alice_oauth; accounts")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("was already invalid"))
        #expect(out.stderr.contains("removed the account here"))
        #expect(try store.load().accounts.isEmpty)
    }

    @Test("login on a real API without an app key says how to give one; use of an unknown name fails")
    func loginNeedsApp() async throws {
        let harness = ShellHarness(api: "http://127.0.0.1:9/2/", token: nil, accountStore: freshStore())
        let run = await harness.run("login --url-only")
        #expect(run.status == 1)
        #expect(run.stderr.contains("--app-key KEY --app-secret-file PATH"))
        #expect(await harness.run("use nobody").stderr.contains("no stored account nobody"))
    }

    @Test("a stored account's token and app secret are masked before any request: output, errors and the history file's lines")
    func storedSecretsMaskedFromTheStart() async throws {
        let store = freshStore()
        var file = AccountsFile()
        file.signIn(StoredAccount(api: "http://127.0.0.1:9/2/", uid: "1", screenName: "me", accessToken: "stored-token-0123456789",
                                  expiresAt: nil))
        file.keep(StoredApp(api: "http://127.0.0.1:9/", clientID: "c", clientSecret: "app-secret-0123456789", redirectURIs: []))
        try store.save(file)
        let harness = ShellHarness(api: "http://127.0.0.1:9/2/", token: nil, accountStore: store)
        #expect(harness.shell.redactForHistory("echo stored-token-0123456789 app-secret-0123456789") == "echo *** ***")
        let run = await harness.run("echo stored-token-0123456789; assert 1 == 2 \"app-secret-0123456789\"")
        #expect(run.stdout == "***\n")
        #expect(run.stderr.contains("assert") && run.stderr.contains("***"))
        #expect(!run.stderr.contains("0123456789"))
    }

    @Test("a token the server issued but wsh cannot keep is revoked at once, and login says why")
    func unkeptTokenRevoked() async throws {
        let server = try FakeOAuthServer()
        defer { server.stop() }
        let store = freshStore()
        // A folder where accounts.json should be: the write fails after the token was issued.
        try FileManager.default.createDirectory(atPath: store.accountsPath, withIntermediateDirectories: true)
        let harness = ShellHarness(api: server.baseURL, token: nil, accountStore: store)
        let secret = try secretFile()
        async let login = harness.run("login --no-browser --app-key \(FakeOAuthServer.appKey) --app-secret-file \(secret)")
        let url = await harness.line(containing: "/oauth2/authorize?")
        _ = try await approve(url, as: "2001")
        let failed = await login
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("login: cannot keep the account: cannot read \(store.accountsPath): Is a directory; the new token was revoked"))
        #expect(server.liveTokens.isEmpty)
    }
}
