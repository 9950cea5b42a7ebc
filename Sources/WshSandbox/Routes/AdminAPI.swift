import FoundationEssentials
import Hummingbird

/// The admin endpoints, outside `/2/`, which need no token and meet no faults:
/// `GET|POST /admin/faults`, `POST /admin/reset`, `GET /admin/stats`,
/// `GET /admin/accounts`, `POST /admin/tokens/expire`, `GET|POST /admin/mastodon`.
///
/// They exist for tests and teaching on loopback; the sandbox is never a
/// public service. Since they reset and inspect everything, they hold the
/// state every route reads: the server and its responder reach it here.
struct AdminAPI: Sendable {
    let faults: FaultInjector
    let store: SandboxStore
    let stats: StatsRecorder
    let tokens: TokenStore
    let rateLimiter: RateLimiter
    let mastodon: MastodonState

    func respond(to request: Request) async throws -> ByteBuffer {
        switch (request.method, request.uri.path) {
        case (.get, "/admin/faults"):
            return try encode(faults.faults)
        case (.post, "/admin/faults"):
            let body = try await request.body.collect(upTo: 64 * 1024)
            let text = String(buffer: body)
            let new: SandboxFaults
            do {
                new = try JSONDecoder().decode(SandboxFaults.self, from: Data((text.isEmpty ? "{}" : text).utf8))
            } catch {
                throw WeiboError.parameter("faults JSON not understood: \(Self.describe(error))")
            }
            faults.set(new)
            return try encode(new)
        case (.post, "/admin/reset"):
            reset()
            return try encode(faults.faults)
        case (.get, "/admin/stats"):
            return try encode(stats.stats)
        case (.get, "/admin/accounts"):
            return try encode(accounts.map(AccountJSON.init))
        case (.post, "/admin/tokens/expire"):
            let body = try await request.body.collect(upTo: 64 * 1024)
            guard let asked = try? JSONDecoder().decode([String: String].self, from: Data(String(buffer: body).utf8)),
                  let token = asked["token"], !token.isEmpty else {
                throw WeiboError.parameter("expected {\"token\": \"…\"}")
            }
            guard tokens.expire(token) else { throw WeiboError.parameter("no such token") }
            return try encode(["expired": token])
        case (.get, "/admin/mastodon"):
            return try encode(MastodonSettings(public_preview: mastodon.publicPreview, apps: mastodon.appCount))
        case (.post, "/admin/mastodon"):
            let body = try await request.body.collect(upTo: 64 * 1024)
            guard let asked = try? JSONDecoder().decode([String: Bool].self, from: Data(String(buffer: body).utf8)),
                  let on = asked["public_preview"] else {
                throw WeiboError.parameter("expected {\"public_preview\": true or false}")
            }
            mastodon.setPublicPreview(on)
            return try encode(MastodonSettings(public_preview: mastodon.publicPreview, apps: mastodon.appCount))
        case (_, "/admin/faults"), (_, "/admin/reset"), (_, "/admin/stats"), (_, "/admin/accounts"),
             (_, "/admin/tokens/expire"), (_, "/admin/mastodon"):
            throw WeiboError.methodNotSupported
        default:
            throw WeiboError.apiNotFound
        }
    }

    /// Clears faults, the rate-limit counts, the statistics and every write
    /// (posts, deletions, reposts, comments, favourites, follows); forgets the
    /// tokens and codes issued through OAuth and makes the accounts' tokens valid again;
    /// forgets Mastodon apps, app tokens and idempotency keys; public preview as configured.
    func reset() {
        faults.set(SandboxFaults())
        store.reset()
        stats.reset()
        tokens.reset()
        rateLimiter.reset()
        mastodon.reset()
    }

    /// What `GET /admin/mastodon` shows: the public-preview switch and how many apps are registered.
    private struct MastodonSettings: Encodable {
        var public_preview: Bool
        var apps: Int
    }

    /// The accounts, in order: the first generated users with their tokens.
    var accounts: [SandboxAccount] {
        let users = store.timeline.data.users
        return tokens.accountTokens.enumerated().map { index, token in
            SandboxAccount(uid: users[index].id, screenName: users[index].screenName, token: token)
        }
    }

    private struct AccountJSON: Encodable {
        var uid: Int64
        var screen_name: String
        var token: String

        init(_ account: SandboxAccount) {
            uid = account.uid
            screen_name = account.screenName
            token = account.token
        }
    }

    private func encode(_ value: some Encodable) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ByteBuffer(bytes: try encoder.encode(value))
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context): return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: return "\(error)"
        }
    }
}
