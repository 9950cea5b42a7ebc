import Foundation
import WshSandbox

/// Runs `body` with a sandbox on a free port, stopping it afterwards
/// whatever happens.
func withSandbox(
    _ configuration: SandboxConfiguration = SandboxConfiguration(), _ body: (SandboxServer) async throws -> Void
) async throws {
    let server = try await SandboxServer.start(configuration)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

extension SandboxServer {
    /// GET `/2/<endpoint>?<query>` with the token as a query parameter
    /// (none when `token` is nil), on a fresh connection.
    func get(_ endpoint: String, _ query: String = "", token: String? = nil, useToken: Bool = true)
        async -> HTTPResult {
        var parts = query.isEmpty ? [] : [query]
        if useToken { parts.append("access_token=" + (token ?? self.token)) }
        let target = "/2/" + endpoint + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
        return await TestHTTPConnection(port: port).send("GET", target)
    }

    /// POST a form to `/2/<endpoint>` with the token in the Authorization header.
    func post(_ endpoint: String, form: String) async -> HTTPResult {
        await TestHTTPConnection(port: port).send(
            "POST", "/2/" + endpoint, headers: ["Authorization": "OAuth2 " + token], body: form)
    }

    /// An admin request, e.g. `admin("POST", "faults", body: "{}")`.
    func admin(_ method: String, _ name: String, body: String? = nil) async -> HTTPResult {
        await TestHTTPConnection(port: port).send(method, "/admin/" + name, body: body)
    }

    /// The body of `response` as text, this server's port written `PORT`: the
    /// pictures statuses show are on the sandbox itself, so two sandboxes'
    /// answers differ in that alone.
    func portless(_ response: HTTPResult) -> String {
        response.text.replacingOccurrences(of: "127.0.0.1:\(port)", with: "127.0.0.1:PORT")
    }

    /// The statuses of one timeline page, as JSON objects.
    func timeline(count: Int = 20, page: Int = 1) async -> [[String: Any]] {
        await get("statuses/public_timeline.json", "count=\(count)&page=\(page)").json?["statuses"]
            as? [[String: Any]] ?? []
    }
}

/// Form encoding for a test's POST body.
func formEncoded(_ text: String) -> String {
    // ASCII only: CharacterSet.alphanumerics would let CJK through unencoded.
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed)!
}
