import WshText

/// One Weibo API call: method, path under the base URL, and parameters.
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
