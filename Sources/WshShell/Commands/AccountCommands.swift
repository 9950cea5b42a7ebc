import FoundationEssentials
import Glibc
import WshText
import WshDataController
import WshLanguage
import WshRequest
import WshViewModel

/// `login`, `accounts`, `use`, `whoami`, `logout`: OAuth2 sign-in and the
/// stored accounts (`$XDG_CONFIG_HOME/wsh/accounts.json`), on Weibo or
/// Mastodon: the connection's dialect picks the OAuth flow, the commands are the same.
extension Shell {
    func accountCommands() -> [CommandSpec] {
        return [
            CommandSpec(
                name: "login", abstract: "Sign in with OAuth2 (Weibo or Mastodon) and keep the account (becomes the active one).",
                discussion: """
                    Prints the authorize URL (and opens a browser when there is a display and a
                    terminal). With a loopback redirect URI (the default: http://127.0.0.1:PORT/callback
                    on a free port) wsh catches the browser's redirect itself, for up to 5 minutes;
                    on a terminal you may also paste the code or the whole redirected URL; Ctrl-C stops.
                    For scripts, split it in two: `login --url-only` prints the URL and keeps the
                    pending login in $XDG_CONFIG_HOME/wsh/login-pending.json; `login --code CODE`
                    (CODE may be the redirected URL) finishes it. The state is checked; a mismatch is refused.
                    Weibo: the app is --app-key and --app-secret-file, else $WSH_APP_KEY and $WSH_APP_SECRET;
                    on the sandbox none is needed (its own app, \(OAuthApp.sandboxKey)).
                    Mastodon (--dialect mastodon, or a server found to speak it): wsh registers itself on
                    the server (api/v1/apps, scopes \(MastodonOAuthClient.scopes)) and keeps that app in
                    accounts.json for the next login; --oob (the default with --url-only) has the server
                    show the code on its page (\(MastodonOAuthClient.outOfBand)) for you to paste or pass
                    to --code.
                    """,
                options: [
                    .flag("url-only", help: "print the authorize URL, keep the pending login, and stop"),
                    .flag("oob", help: "Mastodon: the server shows the code on its page instead of redirecting"),
                    .valued("code", valueName: "CODE", help: "finish a pending login with this code or redirected URL"),
                    .valued("redirect-uri", valueName: "URI", help: "the redirect URI registered for the app"),
                    .valued("app-key", valueName: "KEY", help: "the app key (client_id)"),
                    .valued("app-secret-file", valueName: "PATH", help: "a file holding the app secret"),
                    .flag("no-browser", help: "do not open a browser"),
                ],
                handler: { [unowned self] context in try login(context) }),
            CommandSpec(
                name: "accounts", abstract: "List the stored accounts; * marks the active one of each API.",
                discussion: "Tokens are never shown. With --json: [{api, uid, screen_name, active, expires_at}].",
                options: [.json],
                handler: { [unowned self] context in try listAccounts(context) }),
            CommandSpec(
                name: "use", abstract: "Make a stored account the active one for its API.",
                arguments: [ArgumentSpec("NAME", help: "screen name, @name or uid")],
                completion: { [unowned self] _ in ((try? connection.storedAccounts())?.accounts ?? []).map(\.screenName) },
                handler: { [unowned self] context in try use(context) }),
            CommandSpec(
                name: "whoami", abstract: "Show whose token the session sends and when it expires.",
                discussion: "Asks the API whose token it is (Weibo: its token info and the user; Mastodon: accounts/verify_credentials, its tokens do not expire). With --json: {api, uid, screen_name, token_source, app_key, expires_at}.",
                options: [.json],
                handler: { [unowned self] context in try whoami(context) }),
            CommandSpec(
                name: "logout", abstract: "Revoke an account's token and forget the account.",
                discussion: """
                    With no NAME, the active account of the current API. The token is revoked on the
                    server (Weibo: oauth2/revokeoauth2; Mastodon: oauth/revoke with the app wsh registered);
                    if the server says it is already expired or invalid,
                    the account is still removed here, and wsh says so.
                    """,
                arguments: [ArgumentSpec("NAME", help: "screen name, @name or uid", arity: .optional)],
                completion: { [unowned self] _ in ((try? connection.storedAccounts())?.accounts ?? []).map(\.screenName) },
                handler: { [unowned self] context in try logout(context) }),
        ]
    }

    // MARK: login

    /// `login`: the flow is `LoginViewModel`'s; this shows its steps, reads a
    /// pasted line when it asks for one, and hosts its I/O (`ShellLoginHost`).
    private func login(_ context: CommandContext) throws(LanguageError) {
        guard let store = connection.accountStore else {
            throw .commandFailed("login needs a config folder to keep the account: set HOME or XDG_CONFIG_HOME")
        }
        let base = try attempt { () throws(RequestError) in try connection.apiBase() }
        let viewModel = try loginViewModel(base: base, dialect: currentDialect())
        let pasteAccepted = isatty(STDIN_FILENO) != 0 && interactive
        let options = try loginOptions(context, viewModel, base: base, pasteAccepted: pasteAccepted)
        let host = ShellLoginHost(connection: connection, store: store, pasteFrom: pasteAccepted ? STDIN_FILENO : nil)
        let browser = !context.arguments.flag("no-browser") && pasteAccepted
        viewModel.onStep = { [unowned self] step in show(step, context, openingBrowser: browser) }
        defer {
            viewModel.onStep = nil
            viewModel.cancel()
        }
        let handOver = WaitingHandOver((viewModel, host, options))
        var step: LoginStep
        if let code = context.arguments.option("code") {
            let pending = try attempt { () throws(AccountStoreError) in try store.loadPending() }
            step = try wait { await handOver.value.0.finish(pending, code: code, options: handOver.value.2, host: handOver.value.1) }
        } else {
            step = try wait { await handOver.value.0.start(handOver.value.2, host: handOver.value.1) }
            if case .waitingForCode = step {
                switch viewModel.waitForCode(shouldStop: { Interrupts.pending }) {
                case .redirect(let redirect):
                    step = try wait { await handOver.value.0.redirectReceived(redirect) }
                case .paste:
                    guard let line = Swift.readLine(strippingNewline: true) else { throw .commandFailed("no code was pasted") }
                    step = try wait { await handOver.value.0.codeReceived(line) }
                case .over(let over):
                    step = over
                }
            }
        }
        try conclude(step, context)
    }

    /// `login`'s options, with the apps the flow may use: the one given on the
    /// command line; on an API where wsh does not register itself, the
    /// environment's (for this host) or the sandbox's; else the one kept for this server.
    private func loginOptions(_ context: CommandContext, _ viewModel: LoginViewModel, base: String,
                              pasteAccepted: Bool) throws(LanguageError) -> LoginOptions {
        let given = try attempt { () throws(RequestError) in
            try OAuthApp.configured(key: context.arguments.option("app-key"),
                                    secretFile: context.arguments.option("app-secret-file"), environment: [:])
        }
        var options = LoginOptions(urlOnly: context.arguments.flag("url-only"), outOfBand: context.arguments.flag("oob"),
                                   redirectURI: context.arguments.option("redirect-uri"), app: given)
        options.pasteAccepted = pasteAccepted
        if viewModel.registersApps {
            let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
            options.keptApp = file.app(for: connection.accountKey).map {
                OAuthApp(key: $0.clientID, secret: Secret($0.clientSecret), redirectURIs: $0.redirectURIs)
            }
        } else if given == nil {
            options.fallbackApp = connection.target == .sandbox ? .sandbox : try environmentApp(for: base)
        }
        return options
    }

    /// Shows one step of the login as it happens.
    private func show(_ step: LoginStep, _ context: CommandContext, openingBrowser: Bool) {
        let dim = console.diagnosticStyle.dim
        switch step {
        case .appRegistered(let clientID):
            context.note(dim("registered wsh as an app on \(connection.accountKey) (client_id \(clientID)); kept in accounts.json"))
        case .authorize(let url, _):
            context.writeLine(url)
            if openingBrowser { openBrowser(url) }
        case .pending(let url):
            context.writeLine(url)
            context.note(dim("open it, approve, then: login --code CODE (or paste the URL the browser was sent to as CODE)"))
        case .waitingForCode(let listening?, let pasteAccepted):
            context.note(dim("waiting for the browser at \(listening)"
                + (pasteAccepted ? ", or paste the code or the redirected URL here" : "") + " (Ctrl-C stops)"))
        case .waitingForCode(nil, _):
            context.note("paste the code, or the whole URL the browser was sent to:")
        case .refusedRedirect(let listening, let reason):
            context.note(dim("refused a redirect to \(listening): \(reason); still waiting"))
        case .idle, .registeringApp, .exchanging, .loggedIn, .failed, .cancelled:
            break
        }
    }

    /// How the login ended, as the command's outcome.
    private func conclude(_ step: LoginStep, _ context: CommandContext) throws(LanguageError) {
        switch step {
        case .loggedIn(let account):
            resetSession()
            context.note("logged in as @\(account.screenName) (uid \(account.uid)) on \(connection.accountKey)"
                + (account.expiresAt.map { "; the token \(Self.expiry($0))" } ?? ""))
        case .pending:
            return
        case .failed(.usage(let line)):
            throw .usage(line)
        case .failed(.request(let error)):
            throw failure(error)
        case .failed(.message(let line)):
            throw .commandFailed(redact(line))
        case .cancelled:
            throw LanguageError(.interrupted, "interrupted")
        case .idle, .registeringApp, .appRegistered, .authorize, .waitingForCode, .refusedRedirect, .exchanging:
            throw .commandFailed("the login stopped before it finished; run login again")
        }
    }
    /// The Weibo app of `$WSH_APP_KEY`/`$WSH_APP_SECRET` when it belongs to
    /// `base`'s host (that of `$WSH_APP_API`, default api.weibo.com); nil,
    /// with one line saying why, when the variables are set for another host.
    private func environmentApp(for base: String) throws(LanguageError) -> OAuthApp? {
        let environment = ProcessInfo.processInfo.environment
        guard let app = try attempt({ () throws(RequestError) in
            try OAuthApp.configured(key: nil, secretFile: nil, environment: environment)
        }) else { return nil }
        let owner = environment[OAuthApp.apiVariable].flatMap { $0.isEmpty ? nil : $0 } ?? OAuthApp.defaultAPI
        guard OAuthApp.sameOrigin(owner, base) else {
            console.note(console.diagnosticStyle.dim("not sending $\(OAuthApp.keyVariable)'s app to \(base): it is the app of "
                + "\(owner) (set $\(OAuthApp.apiVariable) to the API it was issued for)"))
            return nil
        }
        return app
    }

    /// The connection's dialect, probing the server if need be.
    func currentDialect() throws(LanguageError) -> any Dialect {
        try attempt { () throws(RequestError) in try connection.dialect() }
    }

    /// The login ViewModel on `base`, with `dialect`'s OAuth flow and users' DataController.
    func loginViewModel(base: String, dialect: any Dialect) -> LoginViewModel {
        LoginViewModel(signIn: SignInDataController(
            dialect: dialect, apiBase: base, http: connection.auxiliaryHTTPClient(),
            connectTimeout: configuration.connectTimeout, timeout: configuration.timeout))
    }

    /// Opens `url` with xdg-open, only on a desktop session (`login` asks only at a terminal, never in tests or scripts).
    private func openBrowser(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
        ChildProcess.startDetached(["xdg-open", url])
    }

    // MARK: accounts, use, whoami, logout

    private func listAccounts(_ context: CommandContext) throws(LanguageError) {
        let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
        let rows = file.accounts.map { account in
            AccountDocument(api: account.api, uid: account.uid, screenName: account.screenName,
                            active: file.active[account.api] == account.uid,
                            expiresAt: account.expiresAt.map { $0.formatted(.iso8601) })
        }
        if wantsJSON(context) {
            context.write(try JSONView.encode(rows))
            return
        }
        if rows.isEmpty {
            context.note(console.diagnosticStyle.dim("no accounts: run login"))
            return
        }
        let nameWidth = rows.map { DisplayWidth.of("@" + $0.screenName) }.max() ?? 0
        for (row, account) in zip(rows, file.accounts) {
            let mark = row.active ? console.style.bold("*") : " "
            let expiry = account.expiresAt.map { "token \(Self.expiry($0))" } ?? "no expiry known"
            context.writeLine("\(mark) \(DisplayWidth.padRight("@" + row.screenName, to: nameWidth))  uid \(row.uid)  \(row.api)  \(console.style.dim(expiry))")
        }
    }

    private func use(_ context: CommandContext) throws(LanguageError) {
        let name = context.arguments["NAME"] ?? ""
        let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
        let account = try uniqueAccount(named: name, in: file)
        try attempt { () throws(AccountStoreError) in
            try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in
                guard file.accounts.contains(where: { $0.api == account.api && $0.uid == account.uid }) else {
                    throw AccountStoreError(description: "@\(account.screenName) was removed meanwhile (see accounts)")
                }
                file.active[account.api] = account.uid
            }
        }
        if account.api == connection.accountKey { resetSession() }
        context.note("using @\(account.screenName) on \(account.api)")
    }

    private func whoami(_ context: CommandContext) throws(LanguageError) {
        let credential = try attempt { () throws(RequestError) in try connection.credential() }
        guard let token = credential.token else {
            throw .commandFailed("no token for \(connection.accountKey): run login, or set WSH_ACCESS_TOKEN")
        }
        let base = try attempt { () throws(RequestError) in try connection.apiBase() }
        let handOver = WaitingHandOver(try loginViewModel(base: base, dialect: currentDialect()))
        let identity = try wait { try await handOver.value.identify(token) }
        if wantsJSON(context) {
            context.write(try JSONView.encode(WhoAmIDocument(
                api: connection.accountKey, uid: identity.uid, screenName: identity.screenName,
                tokenSource: credential.origin.description, appKey: identity.appKey,
                expiresAt: identity.expiresAt.map { $0.formatted(.iso8601) })))
            return
        }
        context.writeLine("@\(identity.screenName) (uid \(identity.uid)) on \(connection.accountKey)")
        context.writeLine("token from \(credential.origin.description); " + (identity.expiresAt.map { Self.expiry($0) }
            ?? (identity.neverExpires ? "does not expire" : "no expiry given")))
    }

    private func logout(_ context: CommandContext) throws(LanguageError) {
        let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
        let account: StoredAccount
        if let name = context.arguments["NAME"] {
            account = try uniqueAccount(named: name, in: file)
        } else if let active = file.activeAccount(for: connection.accountKey) {
            account = active
        } else {
            throw .commandFailed("no account is active for \(connection.accountKey): logout NAME (see accounts)")
        }
        let base: String
        if account.api == "sandbox" {
            guard connection.target == .sandbox else {
                throw .commandFailed("@\(account.screenName) is a sandbox account: run logout on the sandbox")
            }
            base = try attempt { () throws(RequestError) in try connection.apiBase() }
        } else {
            base = account.api
        }
        // The account's own API is revoked in its dialect; the sandbox's tokens work in either.
        let dialect = account.api == connection.accountKey ? try currentDialect() : Dialects.named(account.dialect)
        let viewModel = loginViewModel(base: base, dialect: dialect)
        // Mastodon revokes with the app the token was issued to: the one kept, or the sandbox's own.
        var app: OAuthApp?
        if viewModel.registersApps {
            app = file.app(for: account.api).map { OAuthApp(key: $0.clientID, secret: Secret($0.clientSecret)) }
                ?? (account.api == "sandbox" ? .sandbox : nil)
            guard app != nil else {
                try forget(account)
                if account.api == connection.accountKey { resetSession() }
                context.note("no app is kept for \(account.api) to revoke the token of @\(account.screenName) with; "
                    + "removed the account here (revoke wsh in the server's settings, under authorized apps)")
                return
            }
        }
        let handOver = WaitingHandOver((viewModel, app))
        let token = Secret(account.accessToken)
        let revocation = try wait { try await handOver.value.0.revoke(token, app: handOver.value.1) }
        try forget(account)
        if account.api == connection.accountKey { resetSession() }
        switch revocation {
        case .revoked:
            context.note("logged out @\(account.screenName): the token is revoked and the account removed")
        case .alreadyInvalid(let reason):
            context.note("the token of @\(account.screenName) was already invalid (\(reason)); removed the account here")
        }
    }

    /// Removes `account` from the file as it is now (other accounts, added meanwhile elsewhere, stay).
    private func forget(_ account: StoredAccount) throws(LanguageError) {
        try attempt { () throws(AccountStoreError) in
            try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in file.remove(account) }
        }
    }

    private func uniqueAccount(named name: String, in file: AccountsFile) throws(LanguageError) -> StoredAccount {
        let found = file.accounts(named: name, preferring: connection.accountKey)
        guard let first = found.first else { throw .commandFailed("no stored account \(name) (see accounts)") }
        guard found.count == 1 else {
            throw .commandFailed("\(name) names accounts on \(found.map(\.api).joined(separator: " and ")): connect to the one you mean first")
        }
        return first
    }

    /// `expires 2025-06-01 12:00 UTC (in 29 days)` or `expired …`.
    static func expiry(_ date: Date, now: Date = Date()) -> String {
        let seconds = date.timeIntervalSince(now)
        let span: String
        switch abs(seconds) {
        case ..<3600: span = "\(Int(abs(seconds) / 60)) minutes"
        case ..<172_800: span = "\(Int(abs(seconds) / 3600)) hours"
        default: span = "\(Int(abs(seconds) / 86_400)) days"
        }
        return seconds > 0 ? "expires \(CivilTime.minuteText(date)) UTC (in \(span))"
                           : "expired \(CivilTime.minuteText(date)) UTC (\(span) ago)"
    }

    /// Runs `body`, turning its typed error into the command's one-line failure.
    func attempt<T>(_ body: () throws(RequestError) -> T) throws(LanguageError) -> T {
        do { return try body() } catch { throw failure(error) }
    }

    func attempt<T>(_ body: () throws(AccountStoreError) -> T) throws(LanguageError) -> T {
        do { return try body() } catch { throw .commandFailed(redact(error.description)) }
    }
}

/// One account in `accounts --json`; never the token.
struct AccountDocument: Encodable {
    let api: String
    let uid: String
    let screenName: String
    let active: Bool
    let expiresAt: String?

    enum CodingKeys: String, CodingKey {
        case api, uid, active
        case screenName = "screen_name", expiresAt = "expires_at"
    }
}

/// `whoami --json`.
struct WhoAmIDocument: Encodable {
    let api: String
    let uid: String
    let screenName: String
    let tokenSource: String
    let appKey: String?
    let expiresAt: String?

    enum CodingKeys: String, CodingKey {
        case api, uid
        case screenName = "screen_name", tokenSource = "token_source", appKey = "app_key", expiresAt = "expires_at"
    }
}
