import WshRequest
import WshSandbox

/// Runs `body` with an embedded sandbox on a free port and a real
/// `WeiboClient` (libcurl, keep-alive) holding its token, stopping the
/// sandbox afterwards whatever happens.
///
/// ```swift
/// try await withSandboxClient { server, client in
///     let page = try await StatusDataController(client: client).publicTimeline(count: 5)
/// }
/// ```
public func withSandboxClient(
    _ configuration: SandboxConfiguration = SandboxConfiguration(statuses: 200),
    _ body: (SandboxServer, WeiboClient) async throws -> Void
) async throws {
    let server = try await SandboxServer.start(configuration)
    let http = CurlHTTPClient(secrets: [server.token])
    let client = WeiboClient(
        configuration: APIConfiguration(baseURL: server.baseURL, token: .value(Secret(server.token))), http: http)
    do {
        try await body(server, client)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
