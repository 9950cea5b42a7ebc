import WshText

/// Every way a request can fail, kept apart as the Weibo demo's result
/// blocks keep them: the service said no (`api`), HTTP failed without a
/// Weibo body (`http`), the request never completed (`transport`), or the
/// body was not what the Model expects (`decoding`).
///
/// No case ever holds an access token: URLs and messages are redacted
/// before they are stored. Server text (error messages, page excerpts,
/// curl's messages) is untrusted, so `description` passes the one
/// sanitizer: it is one line with no terminal control sequences.
public enum RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The API answered with its error body.
    case api(APIFailure)
    /// An HTTP error status without a Weibo error body.
    case http(status: Int, url: String, excerpt: String)
    /// No complete response: refused, DNS, timeout, TLS, dropped, truncated.
    case transport(TransportFailure)
    /// A response whose body does not decode: what, where, and why.
    case decoding(what: String, where: String, detail: String)
    /// The request was cancelled (Ctrl-C, or the task was cancelled).
    case cancelled
    /// The request could not be formed: no token, or a bad base URL.
    case configuration(String)

    public var description: String {
        TerminalText.sanitize(unsanitizedDescription)
    }

    private var unsanitizedDescription: String {
        switch self {
        case .api(let failure):
            return failure.description
        case .http(let status, let url, let excerpt):
            let tail = excerpt.isEmpty ? "" : ": \(excerpt)"
            let later = status == 429 ? "; \(RateLimitReset.unknownAdvice)" : ""
            return "HTTP \(status) \(HTTPStatusText.reason(status)) from \(url)\(tail)\(later)"
        case .transport(let failure):
            return failure.description
        case .decoding(let what, let place, let detail):
            return "cannot decode \(what)\(place.isEmpty ? "" : " at \(place)"): \(detail)"
        case .cancelled:
            return "request cancelled"
        case .configuration(let message):
            return message
        }
    }
}

/// The Weibo error body of a failed call.
public struct APIFailure: Sendable, Hashable, CustomStringConvertible {
    /// Weibo's `error_code`, e.g. 21327; nil when the body had none readable.
    public var code: Int?
    /// Weibo's `error` text.
    public var message: String
    /// The path the service names in `request`, e.g. Weibo's `/2/` path of the call.
    public var request: String?
    /// The HTTP status it came with.
    public var httpStatus: Int
    /// For a rate-limit error (`isRateLimit`): when the limit resets, from
    /// the answer's headers or from the API's rate-limit call; nil
    /// when nobody said.
    public var rateLimitReset: RateLimitReset?
    /// What the API that answered says this failure means; nil when it did
    /// not classify it (then `RequestError.kind` reads the HTTP status).
    public var kind: ErrorKind?

    /// A failure as the answer said it; `rateLimitReset` is added once known.
    public init(code: Int?, message: String, request: String?, httpStatus: Int, kind: ErrorKind? = nil) {
        self.code = code
        self.message = message
        self.request = request
        self.httpStatus = httpStatus
        self.kind = kind
    }

    /// True for a rate-limit error: Weibo's 10022 (IP), 10023 (user), 10024
    /// (user, one endpoint), or one its API classified so (HTTP 429).
    public var isRateLimit: Bool {
        (kind ?? ErrorKind(httpStatus: httpStatus)) == .rateLimited || (code.map(RateLimitReset.errorCodes.contains) ?? false)
    }

    public var description: String {
        var text = "API error"
        if let code { text += " \(code)" }
        text += ": \(message.isEmpty ? "(no message)" : message)"
        if let request { text += " (\(request), HTTP \(httpStatus))" } else { text += " (HTTP \(httpStatus))" }
        if isRateLimit { text += "; " + (rateLimitReset?.description ?? RateLimitReset.unknownAdvice) }
        return text
    }
}

/// A request that did not complete, in curl's terms.
public struct TransportFailure: Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, for callers that react differently to each.
    public enum Kind: String, Sendable, Hashable {
        case refused = "connection refused"
        case dns = "host not found"
        case timeout = "timed out"
        case tls = "TLS failure"
        /// The server's certificate did not verify: an unknown CA, a name
        /// or date that does not fit.
        case untrusted = "certificate not trusted"
        case dropped = "connection dropped"
        case tooLarge = "response too large"
        /// A header line, or the header block, passed libcurl's limit.
        case headerTooLarge = "response header too large"
        /// A WebSocket server broke the protocol (RFC 6455): a wrong handshake, a bad frame, a message past the limit.
        case webSocket = "WebSocket failure"
        case other = "transfer failed"
    }

    public var kind: Kind
    /// libcurl's CURLcode.
    public var curlCode: Int
    /// libcurl's message, redacted.
    public var message: String
    /// The URL, redacted.
    public var url: String
    /// The CAs the client trusted, for a certificate failure's message; nil when not known.
    public var authorities: CertificateAuthorities?

    /// A failure; `inHeaders` says the transfer stopped inside the response's
    /// header block, which tells an oversize header from other failures
    /// libcurl reports with the same code.
    public init(kind: Kind? = nil, curlCode: Int, message: String, url: String, inHeaders: Bool = false,
                authorities: CertificateAuthorities? = nil) {
        self.kind = kind ?? Self.kind(ofCurlCode: curlCode, message: message, inHeaders: inHeaders)
        self.curlCode = curlCode
        self.message = message
        self.url = url
        self.authorities = authorities
    }

    public var description: String {
        switch kind {
        case .untrusted:
            // The way out only when a CA could be the problem, not a name or a date.
            let caProblem = !["name", "expired", "not yet valid"].contains { message.lowercased().contains($0) }
            let advice = caProblem ? authorities?.advice.map { "; \($0)" } ?? "" : ""
            return "\(Self.origin(of: url)): the server's certificate is not trusted by "
                + "\(authorities?.description ?? "the client's CAs") (curl \(curlCode): \(message))\(advice)"
        case .tls where curlCode == 77:
            return "\(Self.origin(of: url)): cannot use \(authorities?.description ?? "the CA bundle") "
                + "(curl \(curlCode): \(message))"
        case .tls where message.contains("wrong version number"):
            return "\(kind.rawValue): the server did not answer in TLS; is it an http:// server? "
                + "(curl \(curlCode): \(message), \(url))"
        case .headerTooLarge:
            // curl's own words are often "Out of memory", which misleads.
            return "\(kind.rawValue): the server sent a header line or header block larger than libcurl accepts "
                + "(curl \(curlCode), \(url))"
        case .webSocket:
            // Not curl's: wsh read these bytes itself.
            return "\(kind.rawValue): \(message) (\(url))"
        default:
            return "\(kind.rawValue): \(message) (curl \(curlCode), \(url))"
        }
    }

    /// Maps CURLcode values (curl/curl.h) to a kind.
    static func kind(ofCurlCode code: Int, message: String = "", inHeaders: Bool = false) -> Kind {
        if isHeaderTooLarge(code: code, message: message, inHeaders: inHeaders) { return .headerTooLarge }
        switch code {
        case 7: return .refused                         // COULDNT_CONNECT
        case 5, 6: return .dns                          // COULDNT_RESOLVE_PROXY, _HOST
        case 28: return .timeout                        // OPERATION_TIMEDOUT
        case 51, 60: return .untrusted                  // PEER_FAILED_VERIFICATION (51 before 7.62)
        case 35, 53, 54, 58, 59, 64, 66, 77, 80, 82, 83, 90, 91: return .tls
        case 18, 52, 55, 56: return .dropped            // PARTIAL_FILE, GOT_NOTHING, SEND_ERROR, RECV_ERROR
        case 63: return .tooLarge                       // FILESIZE_EXCEEDED (wsh's body limit)
        default: return .other
        }
    }

    /// An oversize response header: libcurl says OUT_OF_MEMORY (27, up to 8.5),
    /// TOO_LARGE (100, from 8.6) or RECV_ERROR (56, "Too large response
    /// headers") depending on its version and on whether one line or the
    /// whole block passed its limit.
    private static func isHeaderTooLarge(code: Int, message: String, inHeaders: Bool) -> Bool {
        let text = message.lowercased()
        if text.contains("header"), text.contains("too large") || text.contains("giant") { return true }
        return inHeaders && (code == 27 || code == 100)
    }

    /// `scheme://host[:port]/` of `url`: where a server is, without the path and query.
    static func origin(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<scheme.upperBound]) + host + "/"
    }
}

/// Reason phrases for the statuses wsh reports.
enum HTTPStatusText {
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : ""
        }
    }
}

extension APIFailure {
    /// What is wrong with the token, when the API refused it as such.
    public enum TokenProblem: Sendable, Hashable {
        /// 21315, 21327: it has expired.
        case expired
        /// 21314, 21316, 21317, 21332: revoked, used up or not a token the server knows.
        case invalid
    }

    /// Whether this failure is the token's: Weibo's token error codes, or
    /// any failure its API classified as unauthorized (Mastodon's 401).
    public var tokenProblem: TokenProblem? {
        switch code {
        case 21315, 21327: .expired
        case 21314, 21316, 21317, 21332: .invalid
        default: kind == .unauthorized ? .invalid : nil
        }
    }
}
