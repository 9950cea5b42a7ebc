import FoundationEssentials
import WshText

/// What comes back from the authorize page: the redirect's `code` and
/// `state`, caught by the loopback listener or pasted by the user.
public struct OAuthRedirect: Sendable, Hashable {
    /// The authorization code; a short-lived secret.
    public var code: String
    /// The `state` the redirect carried; nil when it carried none or only a bare code was pasted.
    public var state: String?
    /// True when the user pasted the code alone (copied from the server's
    /// out-of-band page they opened themselves), so there is no state to check.
    /// A redirect — caught by the listener, or pasted as a URL or query — is never bare.
    public var isBareCode: Bool

    public init(code: String, state: String?, isBareCode: Bool = false) {
        self.code = code
        self.state = state
        self.isBareCode = isBareCode
    }

    /// Why a redirect or pasted text gives no code.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The authorize page sent `error=…` (the user said no).
        case denied(String)
        /// Nothing that looks like a code.
        case noCode
        /// The redirect carries no `state`: it is not the answer to this login (a forged one, login CSRF).
        case stateMissing
        /// The redirect's `state` is not the one this login sent.
        case stateMismatch

        public var description: String {
            switch self {
            case .denied(let reason): "the authorization was refused: \(reason)"
            case .noCode: "no authorization code: paste the code, or the whole URL the browser was sent to"
            case .stateMissing: "the redirect carries no state, so it is not the answer to this login; refusing its code"
            case .stateMismatch: "the redirect's state does not match this login's; refusing its code"
            }
        }

        /// True for a redirect that does not belong to this login (no state, or another one).
        public var isForeign: Bool { self == .stateMissing || self == .stateMismatch }
    }

    /// Reads what the user pasted: the URL the browser was redirected to
    /// (`…?code=…&state=…`), a bare query (`code=…&state=…`) or the code alone.
    /// A URL or query must carry `expectedState` (when given), as a caught redirect must.
    public static func parse(pasted text: String, expecting expectedState: String? = nil) throws(Failure) -> OAuthRedirect {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .noCode }
        if trimmed.contains("://") || trimmed.contains("?") || trimmed.contains("code=") || trimmed.contains("error=") {
            let query: Substring
            if let mark = trimmed.firstIndex(of: "?") {
                query = trimmed[trimmed.index(after: mark)...]
            } else {
                query = Substring(trimmed)
            }
            return try fromQuery(String(query.split(separator: "#").first ?? ""), expecting: expectedState)
        }
        // A bare code: one word of printable ASCII.
        guard trimmed.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .noCode }
        return OAuthRedirect(code: trimmed, state: nil, isBareCode: true)
    }

    /// Reads a redirect's query string: `code` and `state`, or `error`.
    ///
    /// With `expectedState`, the state is checked first (in constant time),
    /// before anything else the query says: a forged redirect — another
    /// person's code, or an `error` meant to end the login — carries no state
    /// or a wrong one, and is refused whatever else it holds.
    public static func fromQuery(_ query: String, expecting expectedState: String? = nil) throws(Failure) -> OAuthRedirect {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(String(parts[0]))
            if fields[key] == nil { fields[key] = parts.count > 1 ? decode(String(parts[1])) : "" }
        }
        if let expectedState { try check(fields["state"], expecting: expectedState) }
        if let error = fields["error"] {
            let reason = fields["error_description"].map { "\(error) (\($0))" } ?? error
            throw .denied(TerminalText.sanitize(reason))
        }
        guard let code = fields["code"], !code.isEmpty,
              code.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .noCode }
        return OAuthRedirect(code: code, state: fields["state"])
    }

    /// Checks the state against the one this login sent: a redirect must
    /// carry exactly that state. A pasted bare code has none to check (the
    /// user copied it from the out-of-band page of the login they opened).
    public func checked(expecting state: String) throws(Failure) -> OAuthRedirect {
        if !isBareCode { try Self.check(self.state, expecting: state) }
        return self
    }

    private static func check(_ got: String?, expecting expected: String) throws(Failure) {
        guard let got, !got.isEmpty else { throw .stateMissing }
        guard ConstantTime.equal(got, expected) else { throw .stateMismatch }
    }

    private static func decode(_ text: String) -> String {
        PercentEncoding.formDecoded(text)
    }

    /// A fresh unguessable `state`: 16 random bytes in hex.
    public static func newState() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in Decimals.hex(UInt8.random(in: 0...255, using: &generator)) }.joined()
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
