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
/// does: Weibo by its `/2/` base; else the server's nodeinfo 2.0 or 2.1
/// (`/.well-known/nodeinfo`, then the document it links) names the
/// software, and `api/v1/instance` says whether Mastodon's API answers and
/// as which version. The Mastodon family, and servers with a Mastodon API
/// beside their own (the Misskey family, Pixelfed, Friendica) whose
/// instance answers, are spoken through `MastodonDialect` with the server's
/// `ServerProfile`; software with no Mastodon API (Lemmy, PeerTube, …, or a
/// Misskey whose instance does not answer) is refused in one line. A server
/// without nodeinfo is named by its instance's `version`.
public enum DialectDetector {
    /// What was found: the dialect to speak, and the server when nodeinfo or the instance named it.
    public struct Found: Sendable {
        public var dialect: any Dialect
        public var profile: ServerProfile?
        /// The software, as `profile` names it.
        public var software: ServerSoftware? { profile?.software }
    }

    /// Detects the API at `base` with `http` (the requests carry no token).
    public static func detect(base: String, http: any HTTPClient) async throws(RequestError) -> Found {
        if base.hasSuffix("/2/") { return Found(dialect: WeiboDialect(), profile: nil) }
        let probe = Probe(http)
        let named = await nodeinfo(base: base, probe)
        if let named {
            let speech = KnownServers.row(named.software.name)?.speech
            let shown = KnownServers.displayName(named.software, asSent: named.nameAsSent)
            let runs = [shown, named.software.version].compactMap { $0 }.joined(separator: " ")
            if speech == KnownServers.Speech.none {
                throw .configuration("\(base) runs \(runs) (its nodeinfo says so), which has no Mastodon API "
                    + "(its API is its own): wsh cannot talk to it")
            }
            let instance = await probe.json(base + "api/v1/instance")
            let answered = instance.map(isInstance) ?? false
            if speech == .compatibilityLayer, !answered {
                throw .configuration("\(base) runs \(runs) (its nodeinfo says so), whose Mastodon-compatible API "
                    + "does not answer here (api/v1/instance): wsh cannot talk to it")
            }
            if speech == .mastodon || answered {
                let profile = KnownServers.profile(named.software, nameAsSent: named.nameAsSent, instance: answered ? instance : nil)
                return Found(dialect: MastodonDialect(profile: profile), profile: profile)
            }
        } else if let instance = await probe.json(base + "api/v1/instance"), isInstance(instance) {
            let version = InstanceVersion(instance["version"]?.string ?? "")
            let software = version.software ?? ServerSoftware(name: "mastodon", version: version.bare)
            let profile = KnownServers.profile(software, nameAsSent: version.nameAsSent, instance: instance)
            return Found(dialect: MastodonDialect(profile: profile), profile: profile)
        }
        // Nothing answered at all: the network's failure, not a finding (the next request asks again).
        if !probe.answered, let failure = probe.failure { throw failure }
        return Found(dialect: WeiboDialect(), profile: nil)
    }

    /// The software nodeinfo names, lower-cased for the table, and as it was sent.
    struct Named {
        var software: ServerSoftware
        var nameAsSent: String
    }

    /// The software of `base`'s nodeinfo 2.x document (2.1 before 2.0 when
    /// both are linked); nil when it has none or the document links another
    /// origin (never followed).
    static func nodeinfo(base: String, _ probe: Probe) async -> Named? {
        guard let index = await probe.json(base + ".well-known/nodeinfo"),
              let links = index["links"]?.array else { return nil }
        let documents = links.compactMap { link -> (String, String)? in
            guard let rel = link["rel"]?.string, let href = link["href"]?.string,
                  rel.hasPrefix("http://nodeinfo.diaspora.software/ns/schema/2.")
                    || rel.hasPrefix("https://nodeinfo.diaspora.software/ns/schema/2."),
                  sameOrigin(href, base) else { return nil }
            return (rel.replacing("https:", with: "http:"), href)
        }
        guard let href = documents.max(by: { $0.0 < $1.0 })?.1,
              let document = await probe.json(href),
              let software = document["software"],
              let sent = software["name"]?.string, !sent.isEmpty else { return nil }
        let asSent = String(sent.filter { $0.isLetter || $0.isNumber || ".-_".contains($0) }.prefix(40))
        let version = software["version"]?.string.map { String($0.filter { $0.isLetter || $0.isNumber || ".-+_~".contains($0) }.prefix(40)) }
        return Named(software: ServerSoftware(name: asSent.lowercased(), version: version), nameAsSent: asSent)
    }

    /// True when `object` reads as a Mastodon instance (it has a `uri` or a `version`).
    private static func isInstance(_ object: JSONValue) -> Bool {
        object["uri"] != nil || object["version"] != nil || object["domain"] != nil
    }

    /// The software an instance's `version` names: Mastodon's own (`4.2.0`),
    /// or the one a compatible server names in it (`2.7.2 (compatible; Pleroma 2.5.0)` is pleroma 2.5.0).
    static func software(fromInstanceVersion text: String) -> ServerSoftware {
        let version = InstanceVersion(text)
        return version.software ?? ServerSoftware(name: "mastodon", version: version.bare)
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
