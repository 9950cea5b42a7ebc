import Foundation
import WshDataController
import WshLanguage
import WshRequest
import WshViewModel

/// `login`, `accounts`, `use`, `whoami`, `logout`: OAuth2 sign-in and the
/// stored accounts (`$XDG_CONFIG_HOME/wsh/accounts.json`), on Weibo or
/// Mastodon: the connection's dialect picks the OAuth flow, the commands are the same.
extension Shell {
    func accountCommands() -> [CommandSpec] {
        let json = OptionSpec.flag("json", help: "as JSON")
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
                options: [json],
                handler: { [unowned self] context in try listAccounts(context) }),
            CommandSpec(
                name: "use", abstract: "Make a stored account the active one for its API.",
                arguments: [ArgumentSpec("NAME", help: "screen name, @name or uid")],
                completion: { [unowned self] _ in ((try? connection.storedAccounts())?.accounts ?? []).map(\.screenName) },
                handler: { [unowned self] context in try use(context) }),
            CommandSpec(
                name: "whoami", abstract: "Show whose token the session sends and when it expires.",
                discussion: "Asks oauth2/get_token_info and users/show (Mastodon: accounts/verify_credentials; its tokens do not expire). With --json: {api, uid, screen_name, token_source, app_key, expires_at}.",
                options: [json],
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

    /// How long `login` waits for the browser's redirect.
    static let loginWait: Duration = .seconds(300)

    // MARK: login

    private func login(_ context: CommandContext) throws(LanguageError) {
        guard let store = connection.accountStore else {
            throw .commandFailed("login needs a config folder to keep the account: set HOME or XDG_CONFIG_HOME")
        }
        let base = try attempt { () throws(RequestError) in try connection.apiBase() }
        let viewModel = try loginViewModel(base: base, dialect: currentDialect())

        if let code = context.arguments.option("code") {
            guard let pending = try attempt({ () throws(AccountStoreError) in try store.loadPending() }) else {
                throw .commandFailed("no pending login: run login --url-only first (or login without --code)")
            }
            guard pending.apiBase == base else {
                throw .commandFailed("the pending login is for \(pending.apiBase), not \(base): run wsh --api \(pending.apiBase)")
            }
            connection.remember(secret: code)
            if let verifier = pending.codeVerifier { connection.remember(secret: verifier) }
            let redirect = try parseRedirect(code, expecting: pending.state)
            let app = try loginApp(context, viewModel, redirectURI: pending.redirectURI, begunWith: pending.appKey)
            viewModel.resume(pending)
            try finishLogin(context, viewModel, redirect: redirect, app: app)
            store.removePending()
            return
        }

        let requestedURI = context.arguments.option("redirect-uri")
        if let requestedURI, !(requestedURI.hasPrefix("http://") || requestedURI.hasPrefix("https://"))
            && requestedURI != viewModel.outOfBandRedirectURI {
            throw .usage("--redirect-uri must be an http:// or https:// URL, not '\(requestedURI)'")
        }
        var outOfBand: String?
        if context.arguments.flag("oob") {
            guard let uri = viewModel.outOfBandRedirectURI else {
                throw .usage("--oob: this API (\(connection.dialectName)) has no out-of-band redirect; use --redirect-uri URI")
            }
            guard requestedURI == nil else { throw .usage("--oob and --redirect-uri name two redirects: give one") }
            outOfBand = uri
        }
        if context.arguments.flag("url-only") {
            // Nobody listens later: the out-of-band page shows the code; else the browser's error page has it in its URL.
            let redirectURI: String
            if let uri = requestedURI ?? outOfBand ?? viewModel.outOfBandRedirectURI {
                redirectURI = uri
            } else {
                redirectURI = try freeLoopbackRedirectURI()
            }
            let app = try loginApp(context, viewModel, redirectURI: redirectURI)
            let url = viewModel.begin(app: app, redirectURI: redirectURI, pkce: try proofKey(viewModel))
            if let pending = viewModel.pending {
                try attempt { () throws(AccountStoreError) in try store.savePending(pending) }
            }
            context.writeLine(url)
            context.note(console.diagnosticStyle.dim("open it, approve, then: login --code CODE (or paste the URL the browser was sent to as CODE)"))
            return
        }

        // The whole flow in one command: a listener for a loopback redirect, else a pasted code.
        var listener: LoopbackListener?
        let redirectURI: String
        if let uri = requestedURI ?? outOfBand {
            if let port = OAuthRedirect.loopbackPort(of: uri) {
                listener = try attempt { () throws(RequestError) in
                    try LoopbackListener(port: port, path: OAuthRedirect.path(of: uri))
                }
            }
            redirectURI = uri
        } else {
            let made = try attempt { () throws(RequestError) in try loopbackListener(reusingPortOf: viewModel) }
            listener = made
            redirectURI = made.redirectURI
        }
        defer { listener?.close() }
        let app = try loginApp(context, viewModel, redirectURI: redirectURI)
        let url = viewModel.begin(app: app, redirectURI: redirectURI, pkce: try proofKey(viewModel))
        let expectedState = viewModel.pending?.state ?? ""
        context.writeLine(url)
        let stdinIsTerminal = isatty(STDIN_FILENO) != 0 && interactive
        if !context.arguments.flag("no-browser") { openBrowser(url, stdinIsTerminal: stdinIsTerminal) }

        let redirect: OAuthRedirect
        if let listener {
            context.note(console.diagnosticStyle.dim("waiting for the browser at \(listener.redirectURI)"
                + (stdinIsTerminal ? ", or paste the code or the redirected URL here" : "") + " (Ctrl-C stops)"))
            let outcome = listener.waitForRedirect(
                timeout: Self.loginWait, expectedState: expectedState,
                watching: stdinIsTerminal ? STDIN_FILENO : nil, shouldStop: { Interrupts.pending },
                refused: { [console] failure in
                    console.note(console.diagnosticStyle.dim("refused a redirect to \(listener.redirectURI): \(failure); still waiting"))
                })
            switch outcome {
            case .redirect(let caught): redirect = caught
            case .failed(let failure): throw .commandFailed(failure.description)
            case .timedOut: throw .commandFailed("no redirect came within \(Int(Self.loginWait.components.seconds / 60)) minutes; run login again")
            case .stopped: throw LanguageError(.interrupted, "interrupted")
            case .inputReady: redirect = try readPastedRedirect(expecting: expectedState)
            }
        } else {
            guard stdinIsTerminal else {
                throw .commandFailed("the redirect URI is not loopback and this is not a terminal: use login --url-only, then login --code CODE")
            }
            context.note("paste the code, or the whole URL the browser was sent to:")
            redirect = try readPastedRedirect(expecting: expectedState)
        }
        try finishLogin(context, viewModel, redirect: redirect, app: app)
    }

    /// The app to log in with. App credentials belong to one API and one
    /// host, so a secret never reaches a server it was not issued by:
    /// `--app-key`/`--app-secret-file` name the app of this command's server;
    /// `$WSH_APP_KEY`/`$WSH_APP_SECRET` are a Weibo app's, used only on a
    /// Weibo API on the host of `$WSH_APP_API` (default api.weibo.com) and
    /// never on the sandbox or a Mastodon server. On an API where wsh registers
    /// itself (Mastodon), the app kept for this very server if the server
    /// still accepts it and it takes `redirectURI`, else a new one (kept in
    /// accounts.json under this server); on the sandbox's Weibo side, its own app.
    /// `begunWith`: the app key a pending login began with (`login --code`).
    private func loginApp(_ context: CommandContext, _ viewModel: LoginViewModel, redirectURI: String,
                          begunWith pendingKey: String? = nil) throws(LanguageError) -> OAuthApp {
        let flagged = try attempt { () throws(RequestError) in
            try OAuthApp.configured(key: context.arguments.option("app-key"),
                                    secretFile: context.arguments.option("app-secret-file"), environment: [:])
        }
        let app: OAuthApp
        if let flagged {
            app = flagged
        } else if !viewModel.registersApps, connection.target != .sandbox,
                  let fromEnvironment = try environmentApp(for: try attempt { () throws(RequestError) in try connection.apiBase() }) {
            app = fromEnvironment
        } else if viewModel.registersApps {
            let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
            let cached = file.app(for: connection.accountKey).map {
                OAuthApp(key: $0.clientID, secret: Secret($0.clientSecret), redirectURIs: $0.redirectURIs)
            }
            if let pendingKey {
                guard let cached, cached.key == pendingKey else {
                    throw .commandFailed("the app this login began with (\(pendingKey)) is no longer kept in accounts.json: start again with login")
                }
                app = cached
            } else {
                // An app registered for the out-of-band page also takes a loopback URI, for a later `login`.
                let loopback = OAuthRedirect.loopbackPort(of: redirectURI) == nil ? [try freeLoopbackRedirectURI()] : []
                let handOver = WaitingHandOver(viewModel)
                app = try wait { try await handOver.value.prepareApp(cached: cached, redirectURI: redirectURI, alsoFor: loopback) }
                connection.remember(secret: app.secret.revealed)
                if viewModel.registeredApp != nil {
                    let kept = StoredApp(api: connection.accountKey, clientID: app.key, clientSecret: app.secret.revealed,
                                         redirectURIs: app.redirectURIs)
                    try attempt { () throws(AccountStoreError) in
                        try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in file.keep(kept) }
                    }
                    context.note(console.diagnosticStyle.dim("registered wsh as an app on \(connection.accountKey) (client_id \(app.key)); kept in accounts.json"))
                }
            }
        } else if connection.target == .sandbox {
            app = .sandbox
        } else {
            throw .commandFailed("login needs the app's key and secret: --app-key KEY --app-secret-file PATH, "
                + "or $\(OAuthApp.keyVariable) and $\(OAuthApp.secretVariable) (with $\(OAuthApp.apiVariable) "
                + "naming this API when it is not \(OAuthApp.defaultAPI))")
        }
        connection.remember(secret: app.secret.revealed)
        return app
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

    /// A listener for the redirect: on the port of the loopback URI the kept
    /// app was registered with (a registered app takes only its own URIs), else a free one.
    private func loopbackListener(reusingPortOf viewModel: LoginViewModel) throws(RequestError) -> LoopbackListener {
        if viewModel.registersApps,
           let registered = (try? connection.storedAccounts())?.app(for: connection.accountKey)?.redirectURIs
               .first(where: { OAuthRedirect.loopbackPort(of: $0) != nil }),
           let port = OAuthRedirect.loopbackPort(of: registered),
           let listener = try? LoopbackListener(port: port, path: OAuthRedirect.path(of: registered)) {
            return listener
        }
        return try LoopbackListener()
    }

    /// A PKCE proof key when the server takes one (asked of its metadata); its verifier is masked from now on.
    private func proofKey(_ viewModel: LoginViewModel) throws(LanguageError) -> PKCE? {
        let handOver = WaitingHandOver(viewModel)
        let key = try wait { await handOver.value.proofKey() }
        if let key { connection.remember(secret: key.verifier) }
        return key
    }

    /// The connection's dialect, probing the server if need be.
    private func currentDialect() throws(LanguageError) -> any Dialect {
        try attempt { () throws(RequestError) in try connection.dialect() }
    }

    /// The login ViewModel on `base`, with `dialect`'s OAuth flow and users' DataController.
    private func loginViewModel(base: String, dialect: any Dialect) -> LoginViewModel {
        let http = connection.auxiliaryHTTPClient()
        let timeouts = (configuration.connectTimeout, configuration.timeout)
        return LoginViewModel(
            oauth: dialect.oauthFlow(apiBase: base, http: http),
            makeUsers: { token in
                var configuration = APIConfiguration(baseURL: base, token: .value(token),
                                                     connectTimeout: timeouts.0, timeout: timeouts.1)
                configuration.authScheme = dialect.authScheme
                return UserDataController(client: WeiboClient(configuration: configuration, http: http), dialect: dialect)
            })
    }

    /// Exchanges the code, stores the account as the active one, and says who signed in.
    private func finishLogin(_ context: CommandContext, _ viewModel: LoginViewModel, redirect: OAuthRedirect,
                             app: OAuthApp) throws(LanguageError) {
        connection.remember(secret: redirect.code)
        let handOver = WaitingHandOver(viewModel)
        let account = try wait { try await handOver.value.complete(redirect, app: app) }
        connection.remember(secret: account.token.revealed)
        let stored = StoredAccount(api: connection.accountKey, uid: account.uid, screenName: account.screenName,
                                   accessToken: account.token.revealed, expiresAt: account.expiresAt,
                                   dialect: connection.dialectID)
        do {
            try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(stored) }
        } catch {
            // A token nobody keeps must not stay live on the server: revoke it, then say why the login failed.
            let revocation = WaitingHandOver((viewModel, account.token, app))
            let revoked: String
            do {
                _ = try wait { try await revocation.value.0.revoke(revocation.value.1, app: revocation.value.2) }
                revoked = "the new token was revoked"
            } catch {
                revoked = "revoking the new token failed too (\(error.message)); revoke wsh in the account's settings"
            }
            throw .commandFailed(redact("cannot keep the account: \(error.description); \(revoked)"))
        }
        resetSession()
        context.note("logged in as @\(account.screenName) (uid \(account.uid)) on \(connection.accountKey)"
            + (account.expiresAt.map { "; the token \(Self.expiry($0))" } ?? ""))
    }

    /// What was pasted or given to `--code`: a URL or query must carry this login's state.
    private func parseRedirect(_ text: String, expecting state: String) throws(LanguageError) -> OAuthRedirect {
        do { return try OAuthRedirect.parse(pasted: text, expecting: state) } catch { throw .commandFailed(error.description) }
    }

    /// One line from the terminal: the pasted code or URL.
    private func readPastedRedirect(expecting state: String) throws(LanguageError) -> OAuthRedirect {
        guard let line = Swift.readLine(strippingNewline: true) else { throw .commandFailed("no code was pasted") }
        connection.remember(secret: line.trimmingCharacters(in: .whitespaces))
        return try parseRedirect(line, expecting: state)
    }

    /// A loopback redirect URI on a port free now, for `login --url-only`
    /// (nobody listens there later: the browser shows an error page whose URL holds the code).
    private func freeLoopbackRedirectURI() throws(LanguageError) -> String {
        let listener = try attempt { () throws(RequestError) in try LoopbackListener() }
        defer { listener.close() }
        return listener.redirectURI
    }

    /// Opens `url` with xdg-open, only on a desktop session at a terminal (never in tests or scripts).
    private func openBrowser(_ url: String, stdinIsTerminal: Bool) {
        let environment = ProcessInfo.processInfo.environment
        guard stdinIsTerminal, environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    // MARK: accounts, use, whoami, logout

    private func listAccounts(_ context: CommandContext) throws(LanguageError) {
        let file = try attempt { () throws(AccountStoreError) in try connection.storedAccounts(fresh: true) }
        let rows = file.accounts.map { account in
            AccountDocument(api: account.api, uid: account.uid, screenName: account.screenName,
                            active: file.active[account.api] == account.uid,
                            expiresAt: account.expiresAt.map { ISO8601DateFormatter().string(from: $0) })
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
                expiresAt: identity.expiresAt.map { ISO8601DateFormatter().string(from: $0) })))
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
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        let seconds = date.timeIntervalSince(now)
        let span: String
        switch abs(seconds) {
        case ..<3600: span = "\(Int(abs(seconds) / 60)) minutes"
        case ..<172_800: span = "\(Int(abs(seconds) / 3600)) hours"
        default: span = "\(Int(abs(seconds) / 86_400)) days"
        }
        return seconds > 0 ? "expires \(formatter.string(from: date)) (in \(span))"
                           : "expired \(formatter.string(from: date)) (\(span) ago)"
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
