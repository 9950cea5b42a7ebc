import FoundationEssentials

/// A registered OAuth application: the key the server gave it and its secret.
public struct OAuthApp: Sendable, Hashable {
    /// `client_id`.
    public var key: String
    /// `client_secret`; never printed.
    public var secret: Secret
    /// The redirect URIs it was registered with, when wsh registered it
    /// (Mastodon); empty for an app registered elsewhere (Weibo's, the sandbox's).
    public var redirectURIs: [String]

    public init(key: String, secret: Secret, redirectURIs: [String] = []) {
        self.key = key
        self.secret = secret
        self.redirectURIs = redirectURIs
    }

    /// The embedded sandbox's own app. The sandbox accepts this pair without
    /// configuration, so `login` on the sandbox needs no flags. These are the
    /// one place wsh names them.
    public static let sandbox = OAuthApp(key: sandboxKey, secret: Secret(sandboxSecret))
    /// The sandbox app's key (`client_id`).
    public static let sandboxKey = "sandbox-app"
    /// The sandbox app's secret (`client_secret`).
    public static let sandboxSecret = "sandbox-secret"

    /// The variable holding the app key.
    public static let keyVariable = "WSH_APP_KEY"
    /// The variable holding the app secret.
    public static let secretVariable = "WSH_APP_SECRET"
    /// The variable naming the API the app of `WSH_APP_KEY` belongs to; only
    /// that API's host is sent it.
    public static let apiVariable = "WSH_APP_API"
    /// The API `WSH_APP_KEY`'s app belongs to when `WSH_APP_API` is not set.
    public static let defaultAPI = "https://api.weibo.com/"

    /// Whether two URLs have the same origin (scheme, host and port, RFC 6454):
    /// an app's credentials go only to the origin that issued them.
    public static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let left = origin(a), let right = origin(b) else { return false }
        return left == right
    }

    private static func origin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }

    /// The app from flags (`--app-key`, `--app-secret-file`), else from
    /// `WSH_APP_KEY` / `WSH_APP_SECRET`; nil when neither names a key.
    /// Throws when a key is given without a secret, or a secret file cannot be read.
    public static func configured(key flagKey: String?, secretFile: String?,
                                  environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(RequestError) -> OAuthApp?
    {
        let key = flagKey ?? environment[keyVariable].flatMap { $0.isEmpty ? nil : $0 }
        var secret: Secret?
        if let secretFile {
            secret = try TokenSource.file(secretFile).resolve()
        } else if let raw = environment[secretVariable] {
            secret = try? TokenSource.value(Secret(raw)).resolve()
            guard secret != nil else {
                throw .configuration("$\(secretVariable) is empty or has spaces, control characters or non-ASCII characters inside")
            }
        }
        guard let key else {
            if secret != nil { throw .configuration("an app secret was given without an app key (--app-key or $\(keyVariable))") }
            return nil
        }
        guard let secret else {
            throw .configuration("the app key \(key) needs its secret: --app-secret-file PATH or $\(secretVariable)")
        }
        return OAuthApp(key: key, secret: secret)
    }
}
