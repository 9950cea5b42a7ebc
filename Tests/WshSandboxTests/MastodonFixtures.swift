import Foundation
import WshSandbox

/// Helpers for tests of the Mastodon side.
extension SandboxServer {
    /// A request to `/api/v1/<path>` (or `/api/v2/…` when `path` starts with `v2/`), with
    /// `Authorization: Bearer TOKEN` unless `token` is nil, and a form body for writes.
    func mastodon(_ method: String, _ path: String, token: String? = nil, form: String? = nil,
                  headers: [String: String] = [:]) async -> HTTPResult {
        var all = headers
        if let token { all["Authorization"] = "Bearer " + token }
        let target = "/api/" + (path.hasPrefix("v2/") ? path : "v1/" + path)
        return await TestHTTPConnection(port: port).send(method, target, headers: all, body: form)
    }

    /// A GET of `/api/v1/<path>`.
    func mastodon(_ path: String, token: String? = nil) async -> HTTPResult {
        await mastodon("GET", path, token: token)
    }

    /// A request to `/oauth/<name>`.
    func mastodonOAuth(_ method: String, _ name: String, query: String = "", form: String? = nil) async -> HTTPResult {
        await TestHTTPConnection(port: port).send(method, "/oauth/" + name + (query.isEmpty ? "" : "?" + query), body: form)
    }

    /// Follows a Link header's URL (absolute, on this server).
    func follow(_ url: String, token: String? = nil) async -> HTTPResult {
        let target = String(url.dropFirst(mastodonBaseURL.count - 1))
        return await TestHTTPConnection(port: port).send(
            "GET", target, headers: token.map { ["Authorization": "Bearer " + $0] } ?? [:])
    }
}

extension HTTPResult {
    /// The body as a JSON array of objects (a timeline, notifications, relationships).
    var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? [] }

    /// The string ids of a JSON array answer.
    var stringIDs: [String] { array.compactMap { $0["id"] as? String } }

    /// Mastodon's `{"error":"…"}`.
    var mastodonError: String? { json?["error"] as? String }

    /// The `Link` header's URLs by `rel`.
    var links: [String: String] {
        guard let header = headers["link"] else { return [:] }
        var found: [String: String] = [:]
        for part in header.components(separatedBy: ", ") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"),
                  let rel = part.range(of: "rel=\"") else { continue }
            let name = part[rel.upperBound...].prefix { $0 != "\"" }
            found[String(name)] = String(part[part.index(after: open)..<close])
        }
        return found
    }
}
