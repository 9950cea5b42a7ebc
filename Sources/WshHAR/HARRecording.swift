import FoundationEssentials
import WshText

/// A HAR file read for `--replay`: its exchanges in recorded order.
///
/// Accepts what wsh records and what browsers save: absolute URLs on any
/// host, header names in any case, bodies in `encoding: "base64"`, any
/// `httpVersion` (`HTTP/2`, `http/2.0`) and extra `_fields`, all ignored
/// where replay does not need them.
public struct HARRecording: Sendable {
    /// One recorded exchange, as replay needs it.
    public struct Exchange: Sendable {
        public var method: String
        /// The path, percent-decoded, e.g. `/api/v1/timelines/home`.
        public var path: String
        /// The query's name–value pairs, decoded, in recorded order.
        public var query: [(String, String)]
        public var status: Int
        /// Header fields by lower-cased name, as `HTTPResponse` holds them.
        public var headers: [String: String]
        public var body: Data
        /// A request that got no response (HAR status 0): how it failed.
        public var failure: Failure?
    }

    /// How a recorded request failed without a response: curl's code and
    /// message (wsh's `_transport`), or a browser's `_error` mapped onto the
    /// curl code of the same failure (`net::ERR_CONNECTION_REFUSED` is 7).
    public struct Failure: Sendable, Hashable {
        public var curlCode: Int
        public var message: String
    }

    public var exchanges: [Exchange]

    /// `1 exchange`, `42 exchanges`: how big the recording is, as `status` and the sandbox say it.
    public var size: String { exchanges.count == 1 ? "1 exchange" : "\(exchanges.count) exchanges" }
    /// What the recording is called: its file, as given.
    public var name = ""
    /// The API base the recording was made against: what wsh noted
    /// (`log._wsh.api`), else the first entry's origin (with Weibo's `/2/`
    /// when its path starts so).
    public var apiBase: String?
    /// The dialect wsh noted when recording (`log._wsh.dialect`), if any.
    public var dialect: String?

    /// Reads the HAR file at `path`; a file that cannot be read or is not a
    /// HAR with at least one usable entry throws one line saying why.
    public static func load(path: String) throws(HARError) -> HARRecording {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw HARError("cannot read '\(path)'\(FileManager.default.fileExists(atPath: path) ? "" : ": no such file")")
        }
        var recording = try parse(data, name: path)
        recording.name = path
        return recording
    }

    /// Reads a HAR document; `name` is what errors call it.
    public static func parse(_ data: Data, name: String) throws(HARError) -> HARRecording {
        guard let root = JSONValue.parse(data), root.object != nil else {
            throw HARError("'\(name)' is not a HAR file: not a JSON object")
        }
        guard let log = root["log"], let entries = log["entries"]?.array else {
            throw HARError("'\(name)' is not a HAR file: no log.entries")
        }
        var exchanges: [Exchange] = []
        for (index, entry) in entries.enumerated() {
            guard let exchange = exchange(entry) else {
                throw HARError("'\(name)': entry \(index + 1) has no request method and URL or no response status")
            }
            exchanges.append(exchange)
        }
        guard !exchanges.isEmpty else { throw HARError("'\(name)' holds no exchanges to replay") }
        let note = log["_wsh"]
        var recording = HARRecording(exchanges: exchanges, apiBase: note?["api"]?.string,
                                     dialect: note?["dialect"]?.string)
        if recording.apiBase == nil, let url = entries.first?["request"]?["url"]?.string,
           let origin = RecordedURL.origin(url) {
            recording.apiBase = origin + (exchanges[0].path.hasPrefix("/2/") ? "2/" : "")
        }
        return recording
    }

    private static func exchange(_ entry: JSONValue) -> Exchange? {
        guard let request = entry["request"],
              let method = request["method"]?.string, let url = request["url"]?.string,
              let response = entry["response"], response.object != nil,
              let status = response["status"]?.int else { return nil }
        var headers: [String: String] = [:]
        for header in response["headers"]?.array ?? [] {
            guard let name = header["name"]?.string, let value = header["value"]?.string else { continue }
            headers[name.lowercased()] = value
        }
        // A browser saves the body decoded: its transfer encoding and length no longer apply.
        headers["content-encoding"] = nil
        headers["content-length"] = nil
        var body = Data()
        if let content = response["content"], let text = content["text"]?.string {
            if content["encoding"]?.string?.lowercased() == "base64" {
                body = Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data()
            } else {
                body = Data(text.utf8)
            }
        }
        let (path, query) = RecordedURL.pathAndQuery(url)
        return Exchange(method: method.uppercased(), path: path, query: query, status: status,
                        headers: headers, body: body, failure: status == 0 ? failure(response) : nil)
    }

    /// How a status-0 response failed: wsh's `_transport`, else a browser's `_error`.
    private static func failure(_ response: JSONValue) -> Failure {
        if let transport = response["_transport"], let code = transport["curlCode"]?.int {
            return Failure(curlCode: code, message: transport["message"]?.string ?? "")
        }
        let error = response["_error"]?.string ?? ""
        return Failure(curlCode: browserErrorCurlCodes.first { error.contains($0.key) }?.value ?? 56,
                       message: error.isEmpty ? "no response was recorded" : error)
    }

    /// Chromium's `net::ERR_…` names (Firefox writes similar words) and the
    /// curl code of the same failure; anything else reads as a dropped connection (56).
    private static let browserErrorCurlCodes: KeyValuePairs<String, Int> = [
        "CONNECTION_REFUSED": 7, "NAME_NOT_RESOLVED": 6, "TIMED_OUT": 28, "CERT_": 60, "SSL_": 35,
        "EMPTY_RESPONSE": 52, "CONNECTION_RESET": 56, "CONNECTION_CLOSED": 56,
    ]
}

/// Taking a URL apart as replay compares it: scheme and host aside, the
/// path decoded, the query as decoded pairs.
public enum RecordedURL {
    /// `https://host:port/` of an absolute URL.
    public static func origin(_ url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : String(url[..<scheme.upperBound]) + host + "/"
    }

    /// The path (decoded) and query pairs of an absolute or root-relative URL.
    public static func pathAndQuery(_ url: String) -> (path: String, query: [(String, String)]) {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let rawPath: Substring
        var query: [(String, String)] = []
        if let question = rest.firstIndex(of: "?") {
            rawPath = rest[..<question]
            query = FormDecoding.pairs(String(rest[rest.index(after: question)...]))
        } else {
            rawPath = rest
        }
        let path = PercentEncoding.decoded(rawPath) ?? String(rawPath)
        return (path.isEmpty ? "/" : path, query)
    }
}
