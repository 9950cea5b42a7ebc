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

    /// Starts the embedded sandbox and gives its base URL and token. Supplied by
    /// the executable, which links the sandbox; the shell does not.
    public typealias SandboxLauncher = () throws -> (baseURL: String, token: String)

    public private(set) var target: Target
    /// Where the token of a `.url` target comes from.
    public let tokenSource: TokenSource
    private let launchSandbox: SandboxLauncher?
    private let timeouts: (connect: Duration, total: Duration)
    private var sandbox: (baseURL: String, token: String)?
    private var current: (client: WeiboClient, http: CurlHTTPClient)?
    /// The token from `tokenSource`, read once: redaction asks for it on every
    /// message and history entry, and a token file should not be reread each time.
    private lazy var configuredToken: String? = ((try? tokenSource.resolve()) ?? nil)?.revealed

    public init(target: Target, tokenSource: TokenSource, launchSandbox: SandboxLauncher?,
                connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)) {
        self.target = target
        self.tokenSource = tokenSource
        self.launchSandbox = launchSandbox
        self.timeouts = (connectTimeout, timeout)
    }

    /// A short name for the prompt: `sandbox` or the API's host.
    public var label: String {
        switch target {
        case .sandbox: return "sandbox"
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
        case .sandbox: sandbox?.baseURL
        case .url(let url): url
        }
    }

    /// The client, created (and the sandbox started) on first use.
    public func client() throws(RequestError) -> WeiboClient {
        if let current { return current.client }
        let configuration: APIConfiguration
        var secrets: [String] = []
        switch target {
        case .sandbox:
            let sandbox = try startSandbox()
            configuration = APIConfiguration(baseURL: sandbox.baseURL, token: .value(Secret(sandbox.token)),
                                             connectTimeout: timeouts.connect, timeout: timeouts.total)
            secrets = [sandbox.token]
        case .url(let url):
            configuration = APIConfiguration(baseURL: url, token: tokenSource,
                                             connectTimeout: timeouts.connect, timeout: timeouts.total)
            if let token = try tokenSource.resolve() { secrets = [token.revealed] }
        }
        let http = CurlHTTPClient(options: .init(connectTimeout: timeouts.connect, timeout: timeouts.total), secrets: secrets)
        let client = WeiboClient(configuration: configuration, http: http)
        current = (client, http)
        return client
    }

    /// Stops the request in flight (Ctrl-C).
    public func cancelCurrentRequest() {
        current?.http.cancelCurrentRequest()
    }

    /// Points the session at another API; the next request uses it.
    public func connect(to target: Target) {
        self.target = target
        current = nil
    }

    /// Every secret this connection knows, for redacting anything printed or stored.
    public var secrets: [String] {
        var secrets: [String] = []
        if let sandbox { secrets.append(sandbox.token) }
        if let configuredToken { secrets.append(configuredToken) }
        return secrets
    }

    private func startSandbox() throws(RequestError) -> (baseURL: String, token: String) {
        if let sandbox { return sandbox }
        guard let launchSandbox else { throw .configuration("no embedded sandbox in this build; use connect URL") }
        do {
            let started = try launchSandbox()
            sandbox = started
            return started
        } catch {
            throw .configuration("cannot start the sandbox: \(error)")
        }
    }
}
