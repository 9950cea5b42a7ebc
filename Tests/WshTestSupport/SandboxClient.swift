import WshRequest
import WshSandbox

/// Runs `body` with an embedded sandbox on a free port and a real
/// `APIClient` (libcurl, keep-alive) holding its token, stopping the
/// sandbox afterwards whatever happens.
///
/// ```swift
/// try await withSandboxClient { server, client in
///     let page = try await StatusDataController(client: client, dialect: WeiboDialect()).publicTimeline(count: 5)
/// }
/// ```
///
/// With `mastodon`, the client talks to the sandbox's Mastodon side (its
/// root, `Authorization: Bearer`).
public func withSandboxClient(
    _ configuration: SandboxConfiguration = SandboxConfiguration(statuses: 200), mastodon: Bool = false,
    _ body: (SandboxServer, APIClient) async throws -> Void
) async throws {
    let server = try await SandboxServer.start(configuration)
    let http = CurlHTTPClient(secrets: [server.token])
    var api = APIConfiguration(baseURL: mastodon ? server.mastodonBaseURL : server.baseURL, token: .value(Secret(server.token)))
    if mastodon { api.authScheme = "Bearer" }
    let client = APIClient(configuration: api, http: http, errors: mastodon ? MastodonErrors() : WeiboErrors())
    do {
        try await body(server, client)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
