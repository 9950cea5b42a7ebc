import Foundation

/// Where the API is and how to authenticate: the Weibo demo's Config layer.
public struct APIConfiguration: Sendable, Hashable {
    /// The API base, e.g. `https://api.weibo.com/2/`.
    public var baseURL: String
    /// Where the access token comes from.
    public var token: TokenSource
    public var connectTimeout: Duration
    public var timeout: Duration

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

    /// The token, or nil when there is none; throws when a named source is missing.
    public func resolve() throws(RequestError) -> Secret? {
        switch self {
        case .none:
            return nil
        case .value(let secret):
            return secret
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
            return Secret(value)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .configuration("cannot read token file \(path)")
            }
            let line = String(decoding: data, as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !line.isEmpty else { throw .configuration("token file \(path) is empty") }
            return Secret(line)
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .value: return "given"
        case .environment(let name): return "$\(name)"
        case .file(let path): return "file \(path)"
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
