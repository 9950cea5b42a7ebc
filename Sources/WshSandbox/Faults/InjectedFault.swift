import HTTPTypes

/// A failure the fault injector makes a request meet, before an API words
/// it: each face answers it in its own words (`WeiboError.injected`,
/// `MastodonError.injected`), but for a proxy's page, which is no API's.
struct InjectedFault: Sendable, Equatable {
    /// The HTTP status (`fail_status`, or 403 for Weibo's rate limit).
    var status: Int
    /// The `rate_limit` fault: Weibo's 403 10023, Mastodon's 429.
    var isRateLimit = false
    /// The rate-limit fault's `Retry-After` seconds (`retry_after`), if set.
    var retryAfter: Int?

    static let rateLimited = InjectedFault(status: 403, isRateLimit: true)

    /// 502, 503 and 504 come from the proxy in front of an API, as an nginx page.
    var isProxyPage: Bool { (502...504).contains(status) }

    /// The status with its reason phrase.
    var httpStatus: HTTPResponse.Status {
        HTTPResponse.Status(code: status, reasonPhrase: Self.reasonPhrases[status] ?? "")
    }

    private static let reasonPhrases = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// nginx's error page for the status, as a proxy sends it.
    var proxyPage: [UInt8] {
        let title = "\(status) \(httpStatus.reasonPhrase)"
        return Array("<html>\r\n<head><title>\(title)</title></head>\r\n<body>\r\n<center><h1>\(title)</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".utf8)
    }
}
