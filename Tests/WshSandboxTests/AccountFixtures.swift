import Foundation
import WshSandbox

/// Helpers for tests that act as several accounts and speak OAuth2.
extension SandboxServer {
    /// POST a form to `/2/<endpoint>` as the account with `token`.
    func post(_ endpoint: String, form: String, as token: String) async -> HTTPResult {
        await TestHTTPConnection(port: port).send(
            "POST", "/2/" + endpoint, headers: ["Authorization": "OAuth2 " + token], body: form)
    }

    /// A request to `/oauth2/<name>`, with a form body for POST.
    func oauth(_ method: String, _ name: String, query: String = "", form: String? = nil) async -> HTTPResult {
        await TestHTTPConnection(port: port).send(
            method, "/oauth2/" + name + (query.isEmpty ? "" : "?" + query), body: form)
    }

    /// The second account (uid 1700000001, token `sandbox-token-2` by default).
    var second: SandboxAccount { accounts[1] }
}

extension HTTPResult {
    /// The statuses of a timeline answer (or the `reposts` of repost_timeline).
    var statuses: [[String: Any]] {
        json?["statuses"] as? [[String: Any]] ?? json?["reposts"] as? [[String: Any]] ?? []
    }

    /// The ids of those statuses, as numbers.
    var ids: [Int64] {
        statuses.compactMap { ($0["idstr"] as? String).flatMap(Int64.init) }
    }

    /// The `idstr` of a single status or comment answer.
    var idstr: String? { json?["idstr"] as? String }
}

/// The query of a `Location` header, decoded.
func queryItems(ofLocation location: String?) -> [String: String] {
    guard let location, let components = URLComponents(string: location) else { return [:] }
    return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
}

/// The sandbox's default app, and a callback URI for it.
enum App {
    static let key = SandboxConfiguration.defaultAppKey
    static let secret = SandboxConfiguration.defaultAppSecret
    static let redirect = "http://127.0.0.1:9/callback"
}
