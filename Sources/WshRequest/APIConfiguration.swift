import FoundationEssentials
import Glibc
import WshText

/// Where the API is and how to authenticate: the Weibo demo's Config layer.
public struct APIConfiguration: Sendable, Hashable {
    /// The API base, e.g. `https://api.weibo.com/2/`.
    public var baseURL: String
    /// Where the access token comes from.
    public var token: TokenSource
    public var connectTimeout: Duration
    public var timeout: Duration
    /// How the token is sent: `Authorization: SCHEME TOKEN` (`OAuth2` for
    /// Weibo, `Bearer` for Mastodon).
    public var authScheme = "OAuth2"

    public init(baseURL: String, token: TokenSource = .none,
                connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL
        self.token = token
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// The real Weibo API v2.
    public static let weiboBaseURL = "https://api.weibo.com/2/"
}

/// Where an access token comes from. Resolved when a request needs it.
public enum TokenSource: Sendable, Hashable, CustomStringConvertible {
    /// No token: requests go unauthenticated.
    case none
    /// A token given directly.
    case value(Secret)
    /// The named environment variable, e.g. `WSH_ACCESS_TOKEN`.
    case environment(String)
    /// The first line of a file.
    case file(String)
    /// The first line a shell command prints (`sh -c COMMAND`), e.g. a
    /// password manager's. Run each time it is resolved: resolve it once
    /// and keep the `Secret`.
    case command(String)

    /// The token, or nil when there is none; throws when a named source is
    /// missing or empty, or when the token cannot be sent as it is.
    ///
    /// Surrounding whitespace (a newline left by `echo` or an editor) is
    /// trimmed from every source. A token with spaces or control characters
    /// inside is refused before any request: sent in a header, `\r\n` would
    /// start a header of its own.
    public func resolve() throws(RequestError) -> Secret? {
        let raw: String
        switch self {
        case .none:
            return nil
        case .value(let secret):
            raw = secret.revealed
        case .environment(let name):
            // getenv, not ProcessInfo's dictionary of every variable: this is read at start-up.
            guard let pointer = getenv(name) else { return nil }
            let value = String(cString: pointer)
            raw = value
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .configuration("cannot read token file \(path)")
            }
            // The first non-blank line is the token.
            raw = String(decoding: data, as: UTF8.self)
                .split(whereSeparator: \.isNewline)
                .first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
            guard !Self.trimmed(raw).isEmpty else { throw .configuration("token file \(path) is empty") }
        case .command(let command):
            raw = try TokenCommand.firstLine(of: command)
            guard !Self.trimmed(raw).isEmpty else { throw .configuration("--token-command printed no token") }
        }
        let token = Self.trimmed(raw)
        if token.isEmpty {
            if case .environment = self { return nil }
            throw .configuration("the token (\(description)) is empty")
        }
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw .configuration("the token from \(description) has spaces, control characters or non-ASCII "
                + "characters inside; refusing to send it (a token is one word of printable ASCII)")
        }
        return Secret(token)
    }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.unicodeScalars.first, first.properties.isWhitespace || first.value < 0x20 {
            slice.unicodeScalars.removeFirst()
        }
        while let last = slice.unicodeScalars.last, last.properties.isWhitespace || last.value < 0x20 {
            slice.unicodeScalars.removeLast()
        }
        return String(slice)
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .value: return "given"
        case .environment(let name): return "$\(name)"
        case .file(let path): return "file \(path)"
        case .command: return "--token-command"
        }
    }
}

/// A secret string, such as an access token, that never prints itself.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself. Use only to build the request that needs it.
    public let revealed: String

    public init(_ value: String) { revealed = value }

    public var description: String { Redaction.mask }
    public var debugDescription: String { Redaction.mask }
}
