import FoundationEssentials
import WshText
import WshModel
import WshRequest

/// The software a server runs, as its nodeinfo says: `gotosocial 0.17.3`.
public struct ServerSoftware: Sendable, Hashable, CustomStringConvertible {
    /// nodeinfo's `software.name`, lower-cased (`mastodon`, `pleroma`, `akkoma`, `gotosocial`).
    public var name: String
    public var version: String?

    public init(name: String, version: String?) {
        self.name = name
        self.version = version
    }

    public var description: String { version.map { "\(name) \($0)" } ?? name }
}

/// Finds out which API answers at a base URL, as megalodon's `detector()`
/// does: Weibo by its `/2/` base; else the server's nodeinfo
/// (`/.well-known/nodeinfo`, then the 2.x document it links) names the
/// software — the Mastodon family is spoken through `MastodonDialect`,
/// software with an API of its own (Misskey and its forks, Lemmy, …) is
/// refused in one line; a server without nodeinfo is asked `api/v1/instance`.
public enum DialectDetector {
    /// Software that serves Mastodon's client API.
    static let mastodonFamily: Set<String> = [
        "mastodon", "hometown", "glitchsoc", "glitch-soc", "pleroma", "akkoma", "gotosocial", "friendica", "honk",
    ]
    /// Software with a client API of its own, which wsh does not speak.
    static let otherAPIs: Set<String> = [
        "misskey", "firefish", "calckey", "sharkey", "iceshrimp", "foundkey", "cherrypick", "meisskey",
        "lemmy", "mbin", "kbin", "peertube", "writefreely", "plume", "bookwyrm", "funkwhale", "pixelfed",
    ]

    /// What was found: the dialect to speak, and the software when nodeinfo named it.
    public struct Found: Sendable {
        public var dialect: any Dialect
        public var software: ServerSoftware?
    }

    /// Detects the API at `base` with `http` (the requests carry no token).
    public static func detect(base: String, http: any HTTPClient) async throws(RequestError) -> Found {
        if base.hasSuffix("/2/") { return Found(dialect: WeiboDialect(), software: ServerSoftware(name: "weibo", version: nil)) }
        let probe = Probe(http)
        if let software = await nodeinfo(base: base, probe) {
            if mastodonFamily.contains(software.name) { return Found(dialect: MastodonDialect(), software: software) }
            if otherAPIs.contains(software.name) {
                throw .configuration("\(base) runs \(software) (its nodeinfo says so), whose API is its own, "
                    + "not Mastodon's or Weibo's: wsh cannot talk to it")
            }
        }
        if let software = await instanceSoftware(base: base, probe) {
            return Found(dialect: MastodonDialect(), software: software)
        }
        // Nothing answered at all: the network's failure, not a finding (the next request asks again).
        if !probe.answered, let failure = probe.failure { throw failure }
        return Found(dialect: WeiboDialect(), software: nil)
    }

    /// The software of `base`'s nodeinfo 2.x document; nil when it has none
    /// or the document links another origin (never followed).
    static func nodeinfo(base: String, _ probe: Probe) async -> ServerSoftware? {
        guard let index = await probe.json(base + ".well-known/nodeinfo"),
              let links = index["links"]?.array else { return nil }
        let documents = links.compactMap { link -> (String, String)? in
            guard let rel = link["rel"]?.string, let href = link["href"]?.string,
                  rel.hasPrefix("http://nodeinfo.diaspora.software/ns/schema/2."), sameOrigin(href, base) else { return nil }
            return (rel, href)
        }
        guard let href = documents.max(by: { $0.0 < $1.0 })?.1,
              let document = await probe.json(href),
              let software = document["software"],
              let name = software["name"]?.string?.lowercased(), !name.isEmpty else { return nil }
        let version = software["version"]?.string.map { String($0.prefix(40)) }
        return ServerSoftware(name: String(name.prefix(40)), version: version)
    }

    /// The software of a server that answers `GET api/v1/instance` with a
    /// Mastodon instance (nil when it does not), from the instance's
    /// `version`: Mastodon's own (`4.2.0`), or the one a compatible server
    /// names in it (`2.7.2 (compatible; Pleroma 2.5.0)` is pleroma 2.5.0).
    static func instanceSoftware(base: String, _ probe: Probe) async -> ServerSoftware? {
        guard let instance = await probe.json(base + "api/v1/instance"),
              instance["uri"] != nil || instance["version"] != nil else { return nil }
        return software(fromInstanceVersion: instance["version"]?.string ?? "")
    }

    /// `4.2.0` is mastodon 4.2.0; `… (compatible; Akkoma 3.13.2)` is akkoma 3.13.2; no version is mastodon.
    static func software(fromInstanceVersion text: String) -> ServerSoftware {
        let clean = String(text.prefix(120).filter { $0.isLetter || $0.isNumber || " .-+_();".contains($0) })
        if let compatible = clean.firstRange(of: "(compatible; ") {
            let named = clean[compatible.upperBound...].prefix { $0 != ")" }.split(separator: " ")
            if let name = named.first {
                return ServerSoftware(name: String(name.lowercased().prefix(40)), version: named.dropFirst().first.map { String($0.prefix(40)) })
            }
        }
        let version = clean.split(separator: " ").first.map { String($0.prefix(40)) }
        return ServerSoftware(name: "mastodon", version: version)
    }

    /// The requests of one detection: each answer's JSON object, and whether
    /// the server answered any request at all (any status) or only failed.
    final class Probe: @unchecked Sendable {
        private let http: any HTTPClient
        private(set) var answered = false
        /// The last transport failure or cancellation, when nothing answered.
        private(set) var failure: RequestError?

        init(_ http: any HTTPClient) {
            self.http = http
        }

        /// The JSON object at `url` (a 200 answer), else nil.
        func json(_ url: String) async -> JSONValue? {
            let response: HTTPResponse
            do {
                response = try await http.send(HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")]))
            } catch {
                switch error {
                case .transport, .cancelled: failure = error
                default: answered = true
                }
                return nil
            }
            answered = true
            guard response.status == 200, let object = JSONValue.parse(response.body), object.object != nil else { return nil }
            return object
        }
    }

    private static func sameOrigin(_ a: String, _ b: String) -> Bool {
        OAuthApp.sameOrigin(a, b)
    }
}
