import FoundationEssentials
import WshText

/// One API call: method, path under the base URL, and parameters.
///
/// The access token is not a parameter: `APIClient` adds it as an
/// `Authorization: OAuth2` header, so it is never part of a URL that could
/// be printed.
public struct Endpoint: Sendable, Hashable {
    public var method: HTTPMethod
    /// Relative to the base URL, e.g. `api/v1/timelines/public`.
    public var path: String
    /// Query parameters for GET and DELETE, form fields for POST, PUT and PATCH, in order.
    public var parameters: [(String, String)]
    /// A JSON body sent instead of the form (`api … --json BODY`); parameters then go in the query.
    public var jsonBody: [UInt8]?
    /// A `multipart/form-data` body (a POST uploading a file); parameters then go in the query.
    public var multipart: [MultipartPart]?
    /// A query sent exactly as given, already percent-encoded, before any `parameters`
    /// (a server's own link to its next page, e.g. Mastodon's `Link` header).
    public var rawQuery: String?

    public init(_ method: HTTPMethod = .get, _ path: String, parameters: [(String, String)] = [], jsonBody: [UInt8]? = nil,
                multipart: [MultipartPart]? = nil, rawQuery: String? = nil) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.jsonBody = jsonBody
        self.multipart = multipart
        self.rawQuery = rawQuery
    }

    /// The request for a call as an API's documentation writes it,
    /// `/api/v1/statuses/:id/favourite`: relative to the base, `id`
    /// percent-encoded in place of `:id` (an id never becomes a path of its own).
    public init(_ method: HTTPMethod, documented path: String, id: String, parameters: [(String, String)]) {
        self.init(method, String(path.drop { $0 == "/" }).replacing(":id", with: PercentEncoding.encoded(id)), parameters: parameters)
    }

    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.jsonBody == rhs.jsonBody && lhs.multipart == rhs.multipart
            && lhs.rawQuery == rhs.rawQuery
            && lhs.parameters.elementsEqual(rhs.parameters, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(rawQuery)
        for (key, value) in parameters {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    /// The URL of this call under `baseURL`, with the query for a GET or DELETE
    /// (`rawQuery` as given, then the parameters).
    public func url(base baseURL: String) -> String {
        var url = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        url += path.hasPrefix("/") ? String(path.dropFirst()) : path
        if let rawQuery, !rawQuery.isEmpty {
            url += (url.contains("?") ? "&" : "?") + rawQuery
        }
        if !method.sendsBody || jsonBody != nil || multipart != nil, !parameters.isEmpty {
            url += (url.contains("?") ? "&" : "?") + FormEncoding.encode(parameters)
        }
        return url
    }

    /// The form body of a POST (`application/x-www-form-urlencoded`).
    public var formBody: [UInt8] {
        Array(FormEncoding.encode(parameters).utf8)
    }
}

/// Percent-encoding of UTF-8 query strings and form bodies (RFC 3986 unreserved set).
public enum FormEncoding {
    /// `k=v&k2=v2`, each part percent-encoded.
    public static func encode(_ parameters: [(String, String)]) -> String {
        // Appended in a loop: `joined(separator:)` is the standard library's generic,
        // which looks the array's conformances up by name (a scan of every record) on
        // its first call, and a request's URL is the first text a fetch joins.
        var encoded = ""
        for (name, value) in parameters {
            if !encoded.isEmpty { encoded += "&" }
            encoded += PercentEncoding.encoded(name)
            encoded += "="
            encoded += PercentEncoding.encoded(value)
        }
        return encoded
    }
}

/// Sends `Endpoint`s to the connected API, whichever it is: adds the token,
/// interprets statuses and error bodies, and decodes results.
///
/// This is where the demo's three outcomes part: a 2xx response is data, an
/// API error body is `.api`, anything else that failed is `.http` or
/// `.transport`.
public struct APIClient: Sendable {
    public let configuration: APIConfiguration
    public let http: any HTTPClient
    /// How the connected API's error bodies read: the dialect's own rules,
    /// so each body is read once, by the API that wrote it.
    public let errors: any APIErrors

    /// A client for `configuration` over `http` that reads error bodies by `errors`' rules.
    public init(configuration: APIConfiguration, http: any HTTPClient, errors: any APIErrors) {
        self.configuration = configuration
        self.http = http
        self.errors = errors
    }

    /// This client reading error bodies by `errors`' rules instead (each
    /// dialect's operations go out through a client that reads its own).
    public func reading(_ errors: any APIErrors) -> APIClient {
        APIClient(configuration: configuration, http: http, errors: errors)
    }

    /// The request `endpoint` becomes: URL, headers (token included) and body.
    public func request(for endpoint: Endpoint) throws(RequestError) -> HTTPRequest {
        guard configuration.baseURL.hasPrefix("http://") || configuration.baseURL.hasPrefix("https://") else {
            throw .configuration("API base URL must start with http:// or https://: \(Redaction.redact(configuration.baseURL))")
        }
        var headers = [HTTPHeader("Accept", "application/json")]
        if let token = try configuration.token.resolve() {
            headers.append(HTTPHeader("Authorization", "\(configuration.authScheme) \(token.revealed)"))
        }
        var body: Data?
        if let json = endpoint.jsonBody {
            headers.append(HTTPHeader("Content-Type", "application/json; charset=utf-8"))
            body = Data(json)
        } else if endpoint.multipart != nil {
            // libcurl writes the Content-Type with its boundary.
        } else if endpoint.method.sendsBody {
            headers.append(HTTPHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"))
            body = Data(endpoint.formBody)
        }
        return HTTPRequest(method: endpoint.method, url: endpoint.url(base: configuration.baseURL), headers: headers, body: body,
                           multipart: endpoint.multipart)
    }

    /// Sends `endpoint`; returns the response when its status is 2xx.
    public func send(_ endpoint: Endpoint) async throws(RequestError) -> HTTPResponse {
        try await send(endpoint, readingQuickly: { _ -> Never? in nil }).response
    }

    /// Sends `endpoint`; returns the response when its status is 2xx, and
    /// what `quickly` read of its body, if anything.
    ///
    /// `quickly` reads a 2xx body in one pass and must give nil for one with
    /// any of `errors.errorFieldKeys` among its top-level keys: a body it reads is
    /// then no API error body, and the separate check for one is skipped.
    /// Any other answer is checked as always.
    public func send<T>(_ endpoint: Endpoint, readingQuickly quickly: (Data) -> T?)
        async throws(RequestError) -> (response: HTTPResponse, value: T?) {
        let response = try await http.send(try request(for: endpoint))
        if (200..<300).contains(response.status), let value = quickly(response.body) { return (response, value) }
        try Self.check(response, url: Redaction.redact(endpoint.url(base: configuration.baseURL), secrets: secrets), secrets: secrets,
                       errors: errors)
        return (response, nil)
    }

    /// Sends `endpoint` and decodes its body with `decode`, which names what
    /// did not fit (see `RequestError.decoding`).
    public func fetch<T>(_ endpoint: Endpoint, decode: @Sendable (Data) throws(RequestError) -> T) async throws(RequestError) -> (T, HTTPResponse) {
        let response = try await send(endpoint)
        return (try decode(response.body), response)
    }

    /// Opens the server-sent event stream at `url` (an absolute URL the
    /// dialect built, never one a server chose alone) with the token; a 2xx
    /// body goes to `chunks` as it arrives. Throws for another status, as
    /// `send` does, and when this client cannot stream (a recording).
    public func stream(url: String, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        guard let streaming = http as? any StreamingHTTPClient else {
            throw .configuration("this connection cannot stream (it replays a recording)")
        }
        var headers = [HTTPHeader("Accept", "text/event-stream")]
        if let token = try configuration.token.resolve() {
            headers.append(HTTPHeader("Authorization", "\(configuration.authScheme) \(token.revealed)"))
        }
        let request = HTTPRequest(method: .get, url: url, headers: headers)
        let response = try await streaming.stream(request, chunks: chunks)
        try Self.check(response, url: Redaction.redact(request.url, secrets: secrets), secrets: secrets, errors: errors)
        return response
    }

    /// The most bytes one WebSocket message may have: a status with its
    /// account, card and poll is a few kilobytes; a server's message past
    /// this is refused in one line.
    public static let maxWebSocketMessageBytes = 1 << 20

    /// Opens a WebSocket at `url` (an absolute http:// or https:// URL the
    /// dialect built, never one a server chose alone) with the token, in the
    /// `Authorization` header and as `Sec-WebSocket-Protocol`, the two ways
    /// Mastodon and GoToSocial take it on an upgrade; `messages` hears
    /// `.opened`, then each text message. Throws for an answer other than
    /// `101`, as `send` does for a failure status, and when this client
    /// cannot open one (a recording).
    public func webSocket(url: String, send outgoing: [String] = [],
                          messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
        guard let client = http as? any WebSocketHTTPClient else {
            throw .configuration("this connection cannot open a WebSocket (it replays a recording)")
        }
        var headers: [HTTPHeader] = []
        if let token = try configuration.token.resolve() {
            headers.append(HTTPHeader("Authorization", "\(configuration.authScheme) \(token.revealed)"))
            // A protocol name is an HTTP token: a token with other characters goes in the header alone.
            if !token.revealed.isEmpty, token.revealed.utf8.allSatisfy({ Self.isTokenCharacter($0) }) {
                headers.append(HTTPHeader("Sec-WebSocket-Protocol", token.revealed))
            }
        }
        let request = HTTPRequest(method: .get, url: url, headers: headers)
        let response = try await client.webSocket(request, maxMessageBytes: Self.maxWebSocketMessageBytes, send: outgoing,
                                                  messages: messages)
        guard response.status != 101 else { return response }
        let redacted = Redaction.redact(url, secrets: secrets)
        try Self.check(response, url: redacted, secrets: secrets, errors: errors)
        // A 2xx is a server that ignored the upgrade: no WebSocket there either.
        throw .http(status: response.status, url: redacted, excerpt: "the server did not upgrade to a WebSocket")
    }

    /// RFC 9110's `tchar`: what a token (and so a protocol name) may hold.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Secrets this client knows, for redacting messages.
    var secrets: [String] {
        ((try? configuration.token.resolve()) ?? nil).map { [$0.revealed] } ?? []
    }

    /// Throws unless `response` is a success. A body that `errors` reads as
    /// its API's error body is an API error whatever the status (Weibo
    /// sometimes answers 200 with an error body), classified by that API.
    /// Servers echo what they were sent: `secrets` are masked in what the
    /// error quotes of the body.
    public static func check(_ response: HTTPResponse, url: String, secrets: [String] = [],
                             errors: any APIErrors) throws(RequestError) {
        if var failure = errors.failure(in: response, secrets: secrets) {
            if failure.isRateLimit { failure.rateLimitReset = RateLimitReset.fromHeaders(response.headers) }
            throw .api(failure)
        }
        guard (200..<300).contains(response.status) else {
            throw .http(status: response.status, url: url, excerpt: excerpt(response.body, secrets: secrets))
        }
    }

    /// False when `body` is an object whose top-level keys (all plain, none
    /// escaped) include none of `fields`: then JSONDecoder would find no
    /// error fields either, whether it reads the body (it is valid JSON, so
    /// its top-level keys are the ones found here) or fails to.
    ///
    /// Every response passes here, so the common answer is found by one pass
    /// over the bytes (`JSONBytes`) that materialises nothing.
    public static func mayHoldErrorFields(_ body: Data, _ fields: [StaticString]) -> Bool {
        body.withUnsafeBytes { bytes in
            JSONBytes.read(bytes) { reader throws(JSONBytes.Declined) in
                try reader.enterObject()
                var first = true
                while let key = try reader.nextKey(&first) {
                    // An error field: JSONDecoder reads the body.
                    if fields.contains(where: { reader.key(key, is: $0) }) { throw JSONBytes.Declined() }
                    // Nested values are stepped over by their brackets: were the body not
                    // valid JSON, JSONDecoder would find no error in it either.
                    let next = reader.peek()
                    if next == UInt8(ascii: "{") || next == UInt8(ascii: "[") {
                        try reader.skipContainerLoosely()
                    } else {
                        try reader.skipValue()
                    }
                }
                return false
            } ?? true
        }
    }

    /// What a body without an API error says, on one printable line of at
    /// most `excerptLength` characters: an HTML error page gives its text
    /// (`502 Bad Gateway nginx`), not its markup.
    static func excerpt(_ body: Data, secrets: [String] = []) -> String {
        var text = String(decoding: body.prefix(4096), as: UTF8.self)
        if text.drop(while: \.isWhitespace).first == "<" { text = HTMLText.plainText(text) }
        let words = TerminalText.sanitize(Redaction.redact(text, secrets: secrets)).split(separator: " ", omittingEmptySubsequences: true)
        let line = words.joined(separator: " ")
        return line.count > excerptLength ? String(line.prefix(excerptLength - 1)) + "…" : line
    }

    /// The longest excerpt of a failed body that an error quotes.
    static let excerptLength = 160
}
