import Foundation
import WshText

/// What comes back from the authorize page: the redirect's `code` and
/// `state`, caught by the loopback listener or pasted by the user.
public struct OAuthRedirect: Sendable, Hashable {
    /// The authorization code; a short-lived secret.
    public var code: String
    /// The `state` the redirect carried; nil when only a bare code was pasted.
    public var state: String?

    public init(code: String, state: String?) {
        self.code = code
        self.state = state
    }

    /// Why a redirect or pasted text gives no code.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The authorize page sent `error=…` (the user said no).
        case denied(String)
        /// Nothing that looks like a code.
        case noCode
        /// The redirect's `state` is not the one this login sent.
        case stateMismatch

        public var description: String {
            switch self {
            case .denied(let reason): "the authorization was refused: \(reason)"
            case .noCode: "no authorization code: paste the code, or the whole URL the browser was sent to"
            case .stateMismatch: "the redirect's state does not match this login's; refusing the code (start again with login)"
            }
        }
    }

    /// Reads what the user pasted: the URL the browser was redirected to
    /// (`…?code=…&state=…`), a bare query (`code=…&state=…`) or the code alone.
    public static func parse(pasted text: String) throws(Failure) -> OAuthRedirect {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .noCode }
        if trimmed.contains("://") || trimmed.contains("?") || trimmed.contains("code=") || trimmed.contains("error=") {
            let query: Substring
            if let mark = trimmed.firstIndex(of: "?") {
                query = trimmed[trimmed.index(after: mark)...]
            } else {
                query = Substring(trimmed)
            }
            return try fromQuery(String(query.split(separator: "#").first ?? ""))
        }
        // A bare code: one word of printable ASCII.
        guard trimmed.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .noCode }
        return OAuthRedirect(code: trimmed, state: nil)
    }

    /// Reads a redirect's query string: `code` and `state`, or `error`.
    public static func fromQuery(_ query: String) throws(Failure) -> OAuthRedirect {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(String(parts[0]))
            if fields[key] == nil { fields[key] = parts.count > 1 ? decode(String(parts[1])) : "" }
        }
        if let error = fields["error"] {
            let reason = fields["error_description"].map { "\(error) (\($0))" } ?? error
            throw .denied(TerminalText.sanitize(reason))
        }
        guard let code = fields["code"], !code.isEmpty,
              code.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .noCode }
        return OAuthRedirect(code: code, state: fields["state"])
    }

    /// Checks the state against the one this login sent. A pasted bare code
    /// has none to check (the user copied it from the page they opened).
    public func checked(expecting state: String) throws(Failure) -> OAuthRedirect {
        if let got = self.state, got != state { throw .stateMismatch }
        return self
    }

    private static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }

    /// A fresh unguessable `state`: 16 random bytes in hex.
    public static func newState() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The port of a loopback redirect URI (`http://127.0.0.1:PORT/…`,
    /// `http://localhost:PORT/…`, `http://[::1]:PORT/…`), or nil when the URI is not one.
    public static func loopbackPort(of redirectURI: String) -> Int? {
        guard let components = URLComponents(string: redirectURI), components.scheme == "http",
              let host = components.host, ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        else { return nil }
        return components.port ?? 80
    }

    /// The path of a redirect URI (`/callback`), `/` when it has none.
    public static func path(of redirectURI: String) -> String {
        let path = URLComponents(string: redirectURI)?.path ?? ""
        return path.isEmpty ? "/" : path
    }
}
