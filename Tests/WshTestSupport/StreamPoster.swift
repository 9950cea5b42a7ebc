import Foundation
import WshRequest
import WshSandbox

/// Posts a new status to the sandbox's Mastodon side as `account` every
/// 200 ms until cancelled, so that one lands after a stream opened, whenever
/// that is (a status posted before the stream opened never shows on it).
/// Tests wait for what they expect with a deadline; this only keeps statuses coming.
public func keepPosting(to server: SandboxServer, as account: SandboxAccount) -> Task<Void, Never> {
    Task {
        let http = CurlHTTPClient(secrets: [account.token])
        var count = 0
        while !Task.isCancelled {
            count += 1
            _ = try? await http.send(HTTPRequest(
                method: .post, url: server.mastodonBaseURL + "api/v1/statuses",
                headers: [HTTPHeader("Authorization", "Bearer " + account.token),
                          HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("status=streamed%20\(count)".utf8)))
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// Posts `text N` (N = 1, 2, …) to the Mastodon side at `baseURL` (`http://127.0.0.1:PORT/`)
/// with `token` every 200 ms until cancelled: another client of a sandbox this
/// process did not start (one embedded in a `wsh` under test), as `keepPosting(to:as:)`.
public func keepPosting(toMastodon baseURL: String, token: String, text: String) -> Task<Void, Never> {
    Task {
        let http = CurlHTTPClient(secrets: [token])
        var count = 0
        while !Task.isCancelled {
            count += 1
            _ = try? await http.send(HTTPRequest(
                method: .post, url: baseURL + "api/v1/statuses",
                headers: [HTTPHeader("Authorization", "Bearer " + token),
                          HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("status=\(text)%20\(count)".utf8)))
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}
