import FoundationEssentials
import WshText
import WshRequest

/// What `login` shows, step by step: the outputs of `LoginViewModel`'s flow.
public enum LoginStep: Sendable, Equatable {
    case idle
    /// Asking the server whether the kept app still works, or registering wsh on it.
    case registeringApp
    /// wsh registered itself on the server as `clientID`; the host kept the app for the next login.
    case appRegistered(clientID: String)
    /// The page to open to approve; `listeningAt`: the loopback redirect URI a listener catches, if any.
    case authorize(url: String, listeningAt: String?)
    /// `login --url-only`: the page to open; the host kept the pending login for `login --code`.
    case pending(url: String)
    /// Waiting for the code: caught at `listeningAt` when a listener runs, and pasted when `pasteAccepted`.
    case waitingForCode(listeningAt: String?, pasteAccepted: Bool)
    /// A redirect came that is not this login's (no state or another): refused, still waiting.
    case refusedRedirect(listeningAt: String, reason: String)
    /// Turning the code into a token and naming its user.
    case exchanging
    /// Signed in; the host kept the account.
    case loggedIn(SignedInAccount)
    /// The login ended without an account, for this reason.
    case failed(LoginFailure)
    /// The user stopped the login (Ctrl-C).
    case cancelled

    /// True once the flow is over (logged in, failed, cancelled, or a pending login kept).
    public var isFinal: Bool {
        switch self {
        case .loggedIn, .failed, .cancelled, .pending: true
        default: false
        }
    }
}

/// Why a login ended without an account: one line, with its kind.
public enum LoginFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The options do not make a login (found before any request).
    case usage(String)
    /// A request failed, with the Request layer's typed error (codes, `$errkind`).
    case request(RequestError)
    /// Anything else: a refused redirect, a timeout, the accounts file.
    case message(String)

    public var description: String {
        switch self {
        case .usage(let line), .message(let line): line
        case .request(let error): error.description
        }
    }
}

/// How to log in, as the user asked (`login`'s options), with what the host found.
public struct LoginOptions: Sendable {
    /// `--url-only`: show the URL, keep the pending login, stop.
    public var urlOnly = false
    /// `--oob`: the server shows the code on its page.
    public var outOfBand = false
    /// `--redirect-uri`.
    public var redirectURI: String?
    /// The app given on the command line (`--app-key`, `--app-secret-file`); wins over every other.
    public var app: OAuthApp?
    /// The app for an API where wsh does not register itself: the environment's
    /// (for this host), or the sandbox's own. Never sent where wsh registers itself.
    public var fallbackApp: OAuthApp?
    /// The app registered by an earlier login on this server, as kept.
    public var keptApp: OAuthApp?
    /// Whether a pasted code can be read (stdin is a terminal).
    public var pasteAccepted = false

    /// The options as the user gave them; the host then sets what it found.
    public init(urlOnly: Bool = false, outOfBand: Bool = false, redirectURI: String? = nil, app: OAuthApp? = nil) {
        self.urlOnly = urlOnly
        self.outOfBand = outOfBand
        self.redirectURI = redirectURI
        self.app = app
    }
}

/// A listener for the browser's redirect to a loopback URI (the shell's
/// `LoopbackListener`; a fake in tests).
public protocol RedirectListening: AnyObject {
    /// The redirect URI it answers.
    var redirectURI: String { get }
    /// Waits for this login's redirect (see `LoopbackListener.waitForRedirect`),
    /// ending when `shouldStop` says so; a redirect with another state is told to `refused`.
    func waitForRedirect(timeout: Duration, expectedState: String, shouldStop: () -> Bool,
                         refused: (OAuthRedirect.Failure) -> Void) -> LoopbackListener.Outcome
    /// Stops listening.
    func close()
}

/// The login flow's I/O, done by its host (the shell): listening, keeping
/// things in the accounts file, masking secrets in all later output.
public protocol LoginHost: AnyObject {
    /// Listens on 127.0.0.1:`port` (0: a free port) for the redirect to `path`.
    func listen(port: Int, path: String) throws(RequestError) -> any RedirectListening
    /// Keeps an app wsh registered on the server, for later logins.
    func keep(app: OAuthApp) throws(LoginFailure)
    /// Keeps a pending login for `login --code` (in another process).
    func keep(pending: PendingLogin) throws(LoginFailure)
    /// Keeps the account as the API's active one.
    func keep(account: SignedInAccount) throws(LoginFailure)
    /// Forgets the pending login once it is finished.
    func forgetPending()
    /// Masks `secret` in everything shown from now on.
    func mask(_ secret: String)
}

/// The flow's state between inputs.
struct FlowState {
    weak var host: (any LoginHost)?
    var app: OAuthApp?
    var listener: (any RedirectListening)?
    var cancelRequested = false
    var resumed = false
}

extension LoginViewModel {
    /// How long `waitForCode` waits for the browser's redirect.
    public static let redirectWait: Duration = .seconds(300)

    /// What waiting for the code gave.
    public enum CodeArrival: Sendable, Equatable {
        /// The listener caught this login's redirect: hand it to `redirectReceived`.
        case redirect(OAuthRedirect)
        /// A pasted line can be read: hand it to `codeReceived`.
        case paste
        /// The flow ended (timed out, refused by the user, cancelled): see the step.
        case over(LoginStep)
    }

    // MARK: Inputs

    /// Starts a login: picks the redirect (and listens on it when it is
    /// loopback), the app (registering wsh where the API lets it), a PKCE key,
    /// and ends at `.waitingForCode` — or `.pending` with `urlOnly` — or `.failed`.
    @discardableResult
    public func start(_ options: LoginOptions, host: any LoginHost) async -> LoginStep {
        flow = FlowState(host: host)
        do throws(LoginFailure) {
            try check(options)
            let redirectURI = try openRedirect(options, host: host)
            let app = try await chooseApp(options, redirectURI: redirectURI, host: host)
            let key = await proofKey()
            if let key { host.mask(key.verifier) }
            let url = begin(app: app, redirectURI: redirectURI, pkce: key)
            if options.urlOnly {
                try host.keep(pending: pending!)
                step = .pending(url: url)
                return step
            }
            let listening = flow.listener?.redirectURI
            step = .authorize(url: url, listeningAt: listening)
            guard listening != nil || options.pasteAccepted else {
                throw .message("the redirect URI is not loopback and this is not a terminal: use login --url-only, then login --code CODE")
            }
            step = .waitingForCode(listeningAt: listening, pasteAccepted: options.pasteAccepted)
        } catch {
            end(.failed(error))
        }
        return step
    }

    /// Finishes a login begun by `login --url-only` (`pending`, as kept) with
    /// `code`: the code, or the URL the browser was sent to (which must carry the login's state).
    @discardableResult
    public func finish(_ pending: PendingLogin?, code: String, options: LoginOptions, host: any LoginHost) async -> LoginStep {
        flow = FlowState(host: host, resumed: true)
        guard let pending else {
            return end(.failed(.message("no pending login: run login --url-only first (or login without --code)")))
        }
        guard pending.apiBase == oauth.apiBase else {
            return end(.failed(.message("the pending login is for \(pending.apiBase), not \(oauth.apiBase): run wsh --api \(pending.apiBase)")))
        }
        host.mask(code)
        if let verifier = pending.codeVerifier { host.mask(verifier) }
        let redirect: OAuthRedirect
        do {
            redirect = try OAuthRedirect.parse(pasted: code, expecting: pending.state)
            flow.app = try await chooseApp(options, redirectURI: pending.redirectURI, host: host, begunWith: pending.appKey)
        } catch let error as OAuthRedirect.Failure {
            return end(.failed(.message(error.description)))
        } catch {
            return end(.failed(error as? LoginFailure ?? .message("\(error)")))
        }
        resume(pending)
        return await redirectReceived(redirect)
    }

    /// Blocks until the code arrives (the listener's redirect, or a line ready
    /// to paste), the wait times out, or `cancel` or `shouldStop` (Ctrl-C) stops it.
    public func waitForCode(timeout: Duration = LoginViewModel.redirectWait, shouldStop: () -> Bool = { false }) -> CodeArrival {
        guard case .waitingForCode(_, let pasteAccepted) = step, let state = pending?.state else { return .over(step) }
        guard let listener = flow.listener else { return .paste }
        let outcome = listener.waitForRedirect(
            timeout: timeout, expectedState: state,
            shouldStop: { flow.cancelRequested || shouldStop() },
            refused: { failure in
                step = .refusedRedirect(listeningAt: listener.redirectURI, reason: failure.description)
            })
        switch outcome {
        case .redirect(let redirect): return .redirect(redirect)
        case .inputReady where pasteAccepted: return .paste
        case .inputReady: return .over(end(.failed(.message("no code was pasted"))))
        case .failed(let failure): return .over(end(.failed(.message(failure.description))))
        case .timedOut:
            return .over(end(.failed(.message("no redirect came within \(Int(timeout.components.seconds / 60)) minutes; run login again"))))
        case .stopped: return .over(step == .cancelled ? step : end(.cancelled))
        }
    }

    /// A pasted line: the code, or the URL (or query) the browser was sent to,
    /// which must carry this login's state.
    @discardableResult
    public func codeReceived(_ text: String) async -> LoginStep {
        let trimmed = text.trimmingSpaces
        if !trimmed.isEmpty { flow.host?.mask(trimmed) }
        guard let state = pending?.state else { return end(.failed(.message(LoginError.notStarted.description))) }
        do {
            return await redirectReceived(try OAuthRedirect.parse(pasted: text, expecting: state))
        } catch {
            return end(.failed(.message(error.description)))
        }
    }

    /// The redirect the listener caught (or a pasted one): exchanges the code,
    /// names the user, has the host keep the account — and revokes the new
    /// token when it cannot be kept (a token nobody keeps must not stay live).
    @discardableResult
    public func redirectReceived(_ redirect: OAuthRedirect) async -> LoginStep {
        guard let app = flow.app, let host = flow.host else { return end(.failed(.message(LoginError.notStarted.description))) }
        host.mask(redirect.code)
        step = .exchanging
        let account: SignedInAccount
        do {
            account = try await complete(redirect, app: app)
        } catch let error as ViewModelError {
            guard case .requestFailed(let request) = error else { return end(.failed(.message(error.description))) }
            return end(.failed(.request(request)))
        } catch {
            return end(.failed(.message("\(error)")))
        }
        host.mask(account.token.revealed)
        do {
            try host.keep(account: account)
        } catch {
            let revoked: String
            do {
                _ = try await revoke(account.token, app: app)
                revoked = "the new token was revoked"
            } catch {
                revoked = "revoking the new token failed too (\(error.description)); revoke wsh in the account's settings"
            }
            return end(.failed(.message("cannot keep the account: \(error.description); \(revoked)")))
        }
        if flow.resumed { host.forgetPending() }
        return end(.loggedIn(account))
    }

    /// Stops the login: a wait under way ends as `.cancelled`; the listener closes.
    public func cancel() {
        flow.cancelRequested = true
        if !step.isFinal && step != .idle { end(.cancelled) }
        closeListener()
    }

    // MARK: The steps' decisions

    /// A usage error in `options`, before anything is asked of the server.
    private func check(_ options: LoginOptions) throws(LoginFailure) {
        if let uri = options.redirectURI, !(uri.hasPrefix("http://") || uri.hasPrefix("https://")), uri != outOfBandRedirectURI {
            throw .usage("--redirect-uri must be an http:// or https:// URL, not '\(uri)'")
        }
        if options.outOfBand {
            guard outOfBandRedirectURI != nil else {
                throw .usage("--oob: this API has no out-of-band redirect; use --redirect-uri URI")
            }
            guard options.redirectURI == nil else { throw .usage("--oob and --redirect-uri name two redirects: give one") }
        }
    }

    /// The redirect URI of this login, with a listener on it when it is loopback and the flow waits for it.
    private func openRedirect(_ options: LoginOptions, host: any LoginHost) throws(LoginFailure) -> String {
        let chosen = options.redirectURI ?? (options.outOfBand ? outOfBandRedirectURI : nil)
        if options.urlOnly {
            // Nobody listens later: the out-of-band page shows the code; else the browser's error page has it in its URL.
            if let uri = chosen ?? outOfBandRedirectURI { return uri }
            return try freeLoopbackRedirectURI(host)
        }
        do throws(RequestError) {
            if let chosen {
                if let port = OAuthRedirect.loopbackPort(of: chosen) {
                    flow.listener = try host.listen(port: port, path: OAuthRedirect.path(of: chosen))
                }
                return chosen
            }
            // A registered app takes only its own URIs: listen on the port of the kept app's loopback URI when free.
            if registersApps,
               let registered = options.keptApp?.redirectURIs.first(where: { OAuthRedirect.loopbackPort(of: $0) != nil }),
               let port = OAuthRedirect.loopbackPort(of: registered),
               let listener = try? host.listen(port: port, path: OAuthRedirect.path(of: registered)) {
                flow.listener = listener
                return listener.redirectURI
            }
            let listener = try host.listen(port: 0, path: "/callback")
            flow.listener = listener
            return listener.redirectURI
        } catch {
            throw .request(error)
        }
    }

    /// The app to log in with: the one given; on an API where wsh registers
    /// itself, the kept one if the server still accepts it and it takes
    /// `redirectURI`, else a new registration the host keeps; elsewhere the fallback.
    /// `pendingKey`: the app key a pending login began with (`login --code`).
    private func chooseApp(_ options: LoginOptions, redirectURI: String, host: any LoginHost,
                           begunWith pendingKey: String? = nil) async throws(LoginFailure) -> OAuthApp {
        let app: OAuthApp
        if let given = options.app {
            app = given
        } else if !registersApps {
            guard let fallback = options.fallbackApp else {
                throw .message("login needs the app's key and secret: --app-key KEY --app-secret-file PATH, "
                    + "or $\(OAuthApp.keyVariable) and $\(OAuthApp.secretVariable) (with $\(OAuthApp.apiVariable) "
                    + "naming this API when it is not \(OAuthApp.defaultAPI))")
            }
            app = fallback
        } else if let pendingKey {
            guard let kept = options.keptApp, kept.key == pendingKey else {
                throw .message("the app this login began with (\(pendingKey)) is no longer kept in accounts.json: start again with login")
            }
            app = kept
        } else {
            step = .registeringApp
            // An app registered for the out-of-band page also takes a loopback URI, for a later `login`.
            let loopback = OAuthRedirect.loopbackPort(of: redirectURI) == nil ? [try freeLoopbackRedirectURI(host)] : []
            do {
                app = try await prepareApp(cached: options.keptApp, redirectURI: redirectURI, alsoFor: loopback)
            } catch {
                guard case .requestFailed(let request) = error else { throw .message(error.description) }
                throw .request(request)
            }
            host.mask(app.secret.revealed)
            if registeredApp != nil {
                try host.keep(app: app)
                step = .appRegistered(clientID: app.key)
            }
        }
        host.mask(app.secret.revealed)
        flow.app = app
        return app
    }

    /// A loopback redirect URI on a port free now (nobody listens there later:
    /// the browser shows an error page whose URL holds the code).
    private func freeLoopbackRedirectURI(_ host: any LoginHost) throws(LoginFailure) -> String {
        do {
            let listener = try host.listen(port: 0, path: "/callback")
            defer { listener.close() }
            return listener.redirectURI
        } catch {
            throw .request(error)
        }
    }

    /// Ends the flow at `final`, closing the listener.
    @discardableResult
    private func end(_ final: LoginStep) -> LoginStep {
        closeListener()
        step = final
        return final
    }

    private func closeListener() {
        flow.listener?.close()
        flow.listener = nil
    }
}
