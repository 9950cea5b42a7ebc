import FoundationEssentials
import WshDataController
import WshRequest

/// Which API the session talks to, and the client for it.
///
/// Nothing is loaded or started until the first request: `wsh -c 'echo hi'`
/// neither loads libcurl nor starts the sandbox.
public final class Connection {
    /// Where requests go.
    public enum Target: Equatable, Sendable, CustomStringConvertible {
        /// The embedded sandbox on a loopback port, started on first use.
        case sandbox
        /// A Weibo-compatible API base, e.g. `https://api.weibo.com/2/`.
        case url(String)

        public var description: String {
            switch self {
            case .sandbox: "sandbox"
            case .url(let url): url
            }
        }
    }

    /// Starts the embedded sandbox and gives its base URL, its token and how to
    /// stop it (a replay starts a fresh one). Supplied by the executable, which
    /// links the sandbox; the shell does not.
    public typealias SandboxLauncher = () throws -> (baseURL: String, token: String, stop: () -> Void)

    public private(set) var target: Target
    /// Where the token of a `.url` target comes from, before any stored account.
    public let tokenSource: TokenSource
    /// The stored accounts, when the session has a config folder.
    public let accountStore: AccountStore?
    private let launchSandbox: SandboxLauncher?
    private let timeouts: (connect: Duration, total: Duration)
    /// The CAs every client of this connection trusts, the API's and the auxiliary ones alike.
    public let authorities: CertificateAuthorities
    private var sandbox: (baseURL: String, token: String, stop: () -> Void)?
    /// Where the session pointed when it began: where a replay starts again.
    private let initial: (target: Target, dialect: DialectChoice)
    private var current: (client: APIClient, http: any CancellableHTTPClient)?
    /// A client for a request outside the API client (the OAuth exchange),
    /// cancelled by Ctrl-C like the API client's.
    private var auxiliary: (any CancellableHTTPClient)?
    /// `--record` or `--replay`: what every HTTP client of this connection
    /// goes through. `record on`/`record off` change a live one; a replay stays.
    private var tape: Tape

    /// How a session's HTTP exchanges meet the network.
    public enum Tape: Sendable {
        /// Live, unrecorded.
        case live
        /// Live, each exchange appended (masked) to a HAR file (`--record`).
        case record(HARRecorder)
        /// No network: every answer comes from a HAR file (`--replay`).
        case replay(ReplayHTTPClient)

        /// What `status` says: `off`, `to FILE`, `replaying FILE (N exchanges)`.
        public var summary: String {
            switch self {
            case .live: "off"
            case .record(let recorder): "to \(recorder.path)"
            case .replay(let replay): replay.summary
            }
        }

        /// The recorder, while recording.
        var recorder: HARRecorder? {
            if case .record(let recorder) = self { return recorder }
            return nil
        }

        var isReplay: Bool {
            if case .replay = self { return true }
            return false
        }
    }

    /// Whether the session records or replays, as `status` says it.
    public var recordingSummary: String { tape.summary }

    /// `record on FILE`: from the next exchange on, every exchange of this
    /// connection (its clients made before included) is appended to a new
    /// HAR file at `path`, as `--record` does. Refused while replaying or
    /// already recording, in one line.
    public func startRecording(to path: String, version: String) throws(RequestError) {
        switch tape {
        case .replay(let replay): throw .configuration("the session is \(replay.summary); it cannot record as well")
        case .record(let recorder): throw .configuration("already recording to \(recorder.path) (record off first)")
        case .live: break
        }
        let recorder: HARRecorder
        do {
            recorder = try HARRecorder(path: path, creator: "wsh", version: version)
        } catch {
            throw .configuration(error.description)
        }
        if let current { recorder.noteAPI(base: current.client.configuration.baseURL, dialect: dialectID) }
        tape = .record(recorder)
    }

    /// `record off`: stops recording; the file keeps every exchange so far.
    /// Returns its path; refused in one line when nothing records.
    public func stopRecording() throws(RequestError) -> String {
        guard case .record(let recorder) = tape else {
            throw .configuration(tape.isReplay ? "the session replays; there is no recording to stop" : "not recording")
        }
        tape = .live
        return recorder.path
    }
    /// The token from `tokenSource`, resolved once: redaction asks for it on
    /// every message, a token file should not be reread each time, and
    /// `--token-command` must run once.
    private var resolvedToken: Result<Secret?, RequestError>?
    /// The accounts file, read when first needed and replaced when a command changes it.
    private var loadedAccounts: Result<AccountsFile, AccountStoreError>?
    /// Secrets met along the way (app secret, authorization codes, new tokens).
    private var learnedSecrets: [String] = []

    /// Which dialect the API speaks.
    public enum DialectChoice: String, Sendable {
        case weibo, mastodon
        /// Ask the server: `--api` without Weibo's `/2/` is probed at `api/v1/instance`.
        case detect
    }

    private var dialectChoice: DialectChoice
    /// The dialect found for the current target, once a request needed it.
    private var foundDialect: (any Dialect)?

    public init(target: Target, tokenSource: TokenSource, launchSandbox: SandboxLauncher?,
                accountStore: AccountStore? = nil, dialect: DialectChoice = .detect,
                connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30),
                authorities: CertificateAuthorities = .system, tape: Tape = .live) {
        self.tape = tape
        self.dialectChoice = dialect
        self.initial = (target, dialect)
        self.authorities = authorities
        self.target = target
        self.tokenSource = tokenSource
        self.accountStore = accountStore
        self.launchSandbox = launchSandbox
        self.timeouts = (connectTimeout, timeout)
    }

    /// Where a request's token comes from, in order of precedence.
    public enum TokenOrigin: Equatable {
        /// `--token-command`, `--token-file` or `$WSH_ACCESS_TOKEN`.
        case configured(TokenSource)
        /// The active stored account for this API.
        case account(StoredAccount)
        /// The embedded sandbox's own token.
        case sandbox
        case none

        public var description: String {
            switch self {
            case .configured(let source): "\(source)"
            case .account(let account): "account @\(account.screenName) (accounts.json)"
            case .sandbox: "sandbox token"
            case .none: "none"
            }
        }
    }

    /// The key of this target in `accounts.json`: `sandbox`, or the API base.
    public var accountKey: String {
        switch target {
        case .sandbox: "sandbox"
        case .url(let url): url
        }
    }

    /// The stored accounts (empty when there are none or no config folder),
    /// as read once; `fresh` reads the file again (another terminal may have
    /// changed it), as commands that show or change accounts do.
    public func storedAccounts(fresh: Bool = false) throws(AccountStoreError) -> AccountsFile {
        if !fresh, let loadedAccounts { return try loadedAccounts.get() }
        let loaded = Result { () throws(AccountStoreError) in try accountStore?.load() ?? AccountsFile() }
        loadedAccounts = loaded
        return try loaded.get()
    }

    /// The configured token, resolved once (`--token-command` runs once).
    private func configuredToken() throws(RequestError) -> Secret? {
        if let resolvedToken { return try resolvedToken.get() }
        let resolved = Result { () throws(RequestError) in try tokenSource.resolve() }
        resolvedToken = resolved
        return try resolved.get()
    }

    /// Changes the stored accounts: `change` is applied, under the store's
    /// lock, to the file as it is now (see `AccountStore.update`); the next
    /// request uses the result.
    @discardableResult
    public func updateAccounts(_ change: (inout AccountsFile) throws(AccountStoreError) -> Void)
        throws(AccountStoreError) -> AccountsFile {
        guard let accountStore else { throw AccountStoreError(description: "no config folder (set HOME or XDG_CONFIG_HOME)") }
        let file = try accountStore.update(change)
        loadedAccounts = .success(file)
        current = nil
        return file
    }

    /// Which token requests to this target send, and where it comes from.
    /// The sandbox ignores configured tokens; a stored account it has wins over its own token.
    public func credential() throws(RequestError) -> (token: Secret?, origin: TokenOrigin) {
        let active = (try? storedAccounts())?.activeAccount(for: accountKey)
        switch target {
        case .sandbox:
            if let active { return (Secret(active.accessToken), .account(active)) }
            return (sandbox.map { Secret($0.token) }, .sandbox)
        case .url:
            if let token = try configuredToken() { return (token, .configured(tokenSource)) }
            if let active { return (Secret(active.accessToken), .account(active)) }
            return (nil, .none)
        }
    }

    /// Adds `secret` to those masked in everything written.
    public func remember(secret: String) {
        if !secret.isEmpty, !learnedSecrets.contains(secret) { learnedSecrets.append(secret) }
    }

    /// The API base, starting the sandbox if the target is the sandbox. The
    /// sandbox serves Weibo under `/2/` and Mastodon at its root.
    public func apiBase() throws(RequestError) -> String {
        switch target {
        case .sandbox: return sandboxBase(try startSandbox().baseURL)
        case .url(let url): return url
        }
    }

    /// The sandbox's base for this session's dialect: its Weibo base, or the
    /// server's root for Mastodon.
    private func sandboxBase(_ weibo: String) -> String {
        guard dialectChoice == .mastodon, weibo.hasSuffix("2/") else { return weibo }
        return String(weibo.dropLast(2))
    }

    /// The dialect's own name (`weibo`, `mastodon`), as accounts record it; nil until known.
    public var dialectID: String? { knownDialect?.name }

    /// The dialect's name, once known without a request; the software when
    /// detection named it (`mastodon 4.3.1`, `gotosocial 0.17.3 (mastodon API)`).
    public var dialectName: String {
        if let foundDialect {
            guard let software else { return foundDialect.name }
            return software.name == foundDialect.name ? software.description : "\(software) (\(foundDialect.name) API)"
        }
        return knownDialect?.name ?? "(not asked yet: connect URL or the first request finds out)"
    }

    /// A new HTTP client for requests outside the API client (OAuth), which
    /// Ctrl-C cancels like the API client's.
    public func auxiliaryHTTPClient() -> any CancellableHTTPClient {
        let http = newHTTPClient()
        auxiliary = http
        return http
    }

    /// Makes the clients `archive media` downloads files with, one a lane: the
    /// CAs and connect timeout of every request, no more than 1 MB of an
    /// answer that is not the file, and never recorded (a file is no API
    /// exchange, and its body goes to disk as it streams).
    public func mediaHTTPClients() -> @Sendable () -> CurlHTTPClient {
        let options = CurlHTTPClient.Options(connectTimeout: timeouts.connect, timeout: timeouts.total, maxBodyBytes: 1 << 20,
                                             authorities: authorities)
        let secrets = self.secrets
        return { CurlHTTPClient(options: options, secrets: secrets) }
    }

    /// The one place this connection makes an HTTP client, so every request
    /// has the same limits, trusts the same CAs, and is recorded or replayed
    /// as `--record` and `--replay` say (the layers above cannot tell).
    private func newHTTPClient() -> any CancellableHTTPClient {
        if case .replay(let replay) = tape { return replay }
        let curl = CurlHTTPClient(options: .init(connectTimeout: timeouts.connect, timeout: timeouts.total,
                                                 authorities: authorities),
                                  secrets: secrets)
        // Every live client goes through the recorder the connection has at
        // the moment of each exchange (`--record`, or `record on` later), and
        // straight through when there is none. The recorder asks for the
        // secrets as it writes each entry, so a token learned after this
        // client was made (login) is masked too. The shell thread waits in
        // `Bridge.run` while a request is in flight, so the connection is
        // never read from two threads at once.
        // Weak: the connection holds its clients.
        nonisolated(unsafe) weak let connection = self
        return RecordingHTTPClient(wrapping: curl, recorder: { connection?.tape.recorder },
                                   secrets: { connection?.secrets ?? [] })
    }

    /// An API client for this target that sends `token`.
    public func client(sending token: Secret) throws(RequestError) -> APIClient {
        remember(secret: token.revealed)
        let configuration = APIConfiguration(baseURL: try apiBase(), token: .value(token),
                                             connectTimeout: timeouts.connect, timeout: timeouts.total)
        return APIClient(configuration: configuration, http: auxiliaryHTTPClient(), errors: try dialect().errors)
    }

    /// The dialect of the target: as `--dialect` said, Weibo for the
    /// sandbox, and for a URL what `DialectDetector` finds (Weibo by its
    /// `/2/` base, else the software nodeinfo names, else `api/v1/instance`).
    public func dialect() throws(RequestError) -> any Dialect {
        if let known = knownDialect {
            foundDialect = known
            return known
        }
        // Only a URL without `/2/` and no --dialect is left to find out.
        let url = baseURL ?? ""
        let http = auxiliaryHTTPClient()
        let detected: DialectDetector.Found
        do {
            detected = try Bridge.run({ try await DialectDetector.detect(base: url, http: http) },
                                      onInterrupt: { http.cancelCurrentRequest() })
        } catch let error as RequestError {
            // The server cannot be reached: the archive may say which API it spoke when it kept its
            // statuses, so that timelines answer from there (they say so) rather than fail here.
            if case .transport = error, let api = archivedAPI?(accountKey) {
                let dialect = Dialects.named(api)
                foundDialect = dialect
                return dialect
            }
            throw error
        } catch {
            throw .cancelled
        }
        foundDialect = detected.dialect
        profile = detected.profile
        return detected.dialect
    }

    /// The dialect, when it is known without a request: chosen by `--dialect`,
    /// the sandbox's, a `/2/` base, or found on an earlier request.
    public var knownDialect: (any Dialect)? {
        if let foundDialect { return foundDialect }
        switch (dialectChoice, target) {
        case (.mastodon, _), (.weibo, _): return Dialects.named(dialectChoice.rawValue)
        case (.detect, .sandbox): return Dialects.named(nil)
        case (.detect, .url(let url)): return url.hasSuffix("/2/") ? Dialects.named(nil) : nil
        }
    }

    /// The software the target runs, when detection named it (`gotosocial 0.17.3`).
    public var software: ServerSoftware? { profile?.software }
    /// The server detection found: software, versions, compatibility layer or not, what it lacks.
    public private(set) var profile: ServerProfile?

    /// Which API (`mastodon`, `weibo`) the local archive kept a server's statuses
    /// in, by the server's key (`accountKey`); nil when it keeps none. The shell
    /// sets it: it knows the archive.
    public var archivedAPI: ((String) -> String?)?

    /// A short name for the prompt: `sandbox` or the API's host.
    public var label: String {
        switch target {
        case .sandbox: return dialectChoice == .mastodon ? "sandbox mastodon" : "sandbox"
        case .url(let url):
            let withoutScheme = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
            return withoutScheme.map(String.init) ?? url
        }
    }

    /// True once a client exists (the first request was made).
    public var isOpen: Bool { current != nil }

    /// The base URL, if known without starting anything.
    public var baseURL: String? {
        switch target {
        case .sandbox: sandbox.map { sandboxBase($0.baseURL) }
        case .url(let url): url
        }
    }

    /// The client, created (and the sandbox started) on first use.
    public func client() throws(RequestError) -> APIClient {
        if let current { return current.client }
        let base = try apiBase()
        let token = try credential().token
        var configuration = APIConfiguration(baseURL: base, token: token.map { .value($0) } ?? .none,
                                             connectTimeout: timeouts.connect, timeout: timeouts.total)
        let api = try dialect()
        configuration.authScheme = api.authScheme
        if case .record(let recorder) = tape { recorder.noteAPI(base: base, dialect: dialectID) }
        let http = newHTTPClient()
        let client = APIClient(configuration: configuration, http: http, errors: api.errors)
        current = (client, http)
        return client
    }

    /// Stops the request in flight (Ctrl-C).
    public func cancelCurrentRequest() {
        current?.http.cancelCurrentRequest()
        auxiliary?.cancelCurrentRequest()
    }

    /// Points the session at another API; the next request uses it.
    public func connect(to target: Target, dialect: DialectChoice = .detect) {
        self.target = target
        dialectChoice = dialect
        current = nil
        foundDialect = nil
        profile = nil
    }

    /// Points the session at `target` and finds out at once what answers
    /// there when nothing says it (a URL without `/2/` or `--dialect`).
    /// Software wsh cannot talk to, or Ctrl-C, leaves the session where it
    /// was and throws; a server that cannot be reached now is connected
    /// anyway (its failure returned, the first request asks again).
    @discardableResult
    public func connectFindingOut(to target: Target, dialect choice: DialectChoice) throws(RequestError) -> RequestError? {
        let before = (self.target, dialectChoice, current, foundDialect, profile)
        connect(to: target, dialect: choice)
        guard knownDialect == nil else { return nil }
        do {
            _ = try dialect()
            return nil
        } catch {
            if case .transport = error { return error }
            (self.target, dialectChoice, current, foundDialect, profile) = before
            throw error
        }
    }

    /// Every secret this connection knows, for redacting anything printed or stored.
    ///
    /// The first call reads every source of a token — the variable, the
    /// file, `--token-command` and the stored accounts (with the apps'
    /// secrets) — so each is masked from the moment wsh could know it, before
    /// any request: an `echo` of it, `status`, an error, the history file.
    /// Each is read once; a source that fails says so when a request needs it.
    public var secrets: [String] {
        var secrets: [String] = []
        if let sandbox { secrets.append(sandbox.token) }
        _ = try? configuredToken()
        if case .success(let token?) = resolvedToken { secrets.append(token.revealed) }
        _ = try? storedAccounts()
        if case .success(let file) = loadedAccounts { secrets += file.secrets }
        return secrets + learnedSecrets
    }

    /// Why a fresh session could not run this one's commands against the same
    /// answers, in one line; nil when it can: on the embedded sandbox (a new
    /// one, seeded alike) or under `--replay` (the same recording, from its start).
    public var replayRefusal: String? {
        if tape.isReplay { return nil }
        switch initial.target {
        case .sandbox:
            return launchSandbox == nil ? "replay needs the embedded sandbox, and this build has none" : nil
        case .url(let url):
            return "replay needs the embedded sandbox or --replay FILE.har: this session talks to \(url)"
        }
    }

    /// True while requests would go to a live server other than the embedded
    /// sandbox (a URL, not answered from a recording).
    public var isLive: Bool {
        if case .url = target, !tape.isReplay { return true }
        return false
    }

    /// Starts again where the session began, for a replay: the first target
    /// and dialect, a fresh embedded sandbox on the next request (this one
    /// stopped) or a fresh replayer over the same recording, no client yet.
    public func startAfresh() {
        current = nil
        auxiliary = nil
        if let sandbox {
            remember(secret: sandbox.token)
            sandbox.stop()
            self.sandbox = nil
        }
        if case .replay(let replay) = tape { tape = .replay(replay.fresh()) }
        connect(to: initial.target, dialect: initial.dialect)
    }

    private func startSandbox() throws(RequestError) -> (baseURL: String, token: String) {
        if let sandbox { return (sandbox.baseURL, sandbox.token) }
        if case .replay = tape {
            throw .configuration("the sandbox does not start under --replay: every answer comes from the recording")
        }
        guard let launchSandbox else { throw .configuration("no embedded sandbox in this build; use connect URL") }
        do {
            let started = try launchSandbox()
            sandbox = started
            return (started.baseURL, started.token)
        } catch {
            throw .configuration("cannot start the sandbox: \(error)")
        }
    }
}
