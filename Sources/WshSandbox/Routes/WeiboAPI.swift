import Foundation
import Hummingbird

/// The Weibo API v2 endpoints the sandbox serves, under `/2/`.
///
/// Each answer is a `ByteBuffer` of JSON; anything else is thrown as a
/// `SandboxError`, which the responder turns into a Weibo error body.
struct WeiboAPI: Sendable {
    let store: SandboxStore
    let token: String

    /// The endpoints, by path. `home_timeline` serves the public timeline, so
    /// a client written for either works.
    enum Endpoint: String {
        case publicTimeline = "/2/statuses/public_timeline.json"
        case homeTimeline = "/2/statuses/home_timeline.json"
        case showStatus = "/2/statuses/show.json"
        case comments = "/2/comments/show.json"
        case showUser = "/2/users/show.json"
        case update = "/2/statuses/update.json"
        case destroy = "/2/statuses/destroy.json"
        case userTimeline = "/2/statuses/user_timeline.json"

        var method: HTTPRequest.Method { isWrite ? .post : .get }

        /// True for the endpoints that change the data (POST).
        var isWrite: Bool { self == .update || self == .destroy }
    }

    /// The largest request body read (a 140-character post is far smaller).
    static let maximumBodySize = 64 * 1024

    func respond(to request: Request) async throws -> ByteBuffer {
        guard let endpoint = Endpoint(rawValue: request.uri.path) else { throw SandboxError.apiNotFound }
        let method = request.method == .head ? .get : request.method
        guard method == endpoint.method else { throw SandboxError.methodNotSupported }
        guard var fields = FormFields.parse(request.uri.query.map { Substring($0) } ?? "") else {
            throw SandboxError.parameter("parameter encoding is not valid UTF-8")
        }
        if endpoint.isWrite {
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Self.maximumBodySize)
            } catch {
                throw SandboxError.parameter("request body over \(Self.maximumBodySize / 1024) KB")
            }
            guard let form = FormFields.parse(Substring(String(buffer: body))) else {
                throw SandboxError.parameter("parameter encoding is not valid UTF-8")
            }
            // A POST may carry access_token in its body, as Weibo allows.
            fields.merge(form) { query, _ in query }
        }
        try authorize(fields["access_token"], header: request.headers[.authorization])

        switch endpoint {
        case .publicTimeline, .homeTimeline:
            let count = try integer(fields, "count", default: 20, in: 1...200)
            let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
            // A page past the end is still a page (empty), so this always renders.
            guard let body = store.response(for: "timeline \(count) \(page)", render: {
                Renderer(timeline: $0).timelinePage(count: count, page: page)
            }) else { throw SandboxError.systemError }
            return body
        case .showStatus:
            let id = try identifier(fields, "id")
            guard let body = store.response(for: "status \(id)", render: { timeline in
                timeline.status(id: id).map { Renderer(timeline: timeline).statusJSON($0) }
            }) else { throw SandboxError.statusNotFound }
            return body
        case .comments:
            let id = try identifier(fields, "id")
            let count = try integer(fields, "count", default: 50, in: 1...200)
            let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
            guard let body = store.response(for: "comments \(id) \(count) \(page)", render: { timeline in
                timeline.status(id: id).map { Renderer(timeline: timeline).commentsPage(of: $0, count: count, page: page) }
            }) else { throw SandboxError.statusNotFound }
            return body
        case .showUser:
            let key: String
            let find: (Timeline) -> SandboxUser?
            if fields["uid"] != nil {
                let uid = try identifier(fields, "uid")
                (key, find) = ("user \(uid)", { $0.user(id: uid) })
            } else if let name = fields["screen_name"], !name.isEmpty {
                (key, find) = ("user @\(name)", { $0.user(screenName: name) })
            } else {
                throw SandboxError.parameter("parameter (uid or screen_name) is required")
            }
            guard let body = store.response(for: key, render: { timeline in
                find(timeline).map { Renderer(timeline: timeline).userJSON($0) }
            }) else { throw SandboxError.userNotFound }
            return body
        case .userTimeline:
            // Weibo: no uid or screen_name means the token's own account.
            let user: SandboxUser
            let key: String
            if fields["uid"] != nil {
                let uid = try identifier(fields, "uid")
                guard let found = store.timeline.user(id: uid) else { throw SandboxError.userNotFound }
                (user, key) = (found, "uid \(uid)")
            } else if let name = fields["screen_name"], !name.isEmpty {
                guard let found = store.timeline.user(screenName: name) else { throw SandboxError.userNotFound }
                (user, key) = (found, "uid \(found.id)")
            } else {
                user = store.timeline.data.users[Timeline.posterIndex]
                key = "uid \(user.id)"
            }
            let count = try integer(fields, "count", default: 20, in: 1...100)
            let page = try integer(fields, "page", default: 1, in: 1...Int(Int32.max))
            let sinceID = try optionalIdentifier(fields, "since_id") ?? 0
            let maxID = try optionalIdentifier(fields, "max_id") ?? 0
            guard let body = store.response(for: "user_timeline \(key) \(count) \(page) \(sinceID) \(maxID)", render: { timeline in
                // since_id: ids greater; max_id: ids less than or equal (0 = no bound), as Weibo documents.
                let ordinals = timeline.ordinals(of: user).filter { ordinal in
                    let id = SandboxStatus.firstID + Int64(ordinal)
                    return id > sinceID && (maxID == 0 || id <= maxID)
                }
                return Renderer(timeline: timeline).userTimelinePage(
                    ordinals: ordinals, count: count, page: page, total: timeline.statusesCount(of: user))
            }) else { throw SandboxError.systemError }
            return body
        case .destroy:
            return ByteBuffer(bytes: try store.delete(id: try identifier(fields, "id")))
        case .update:
            let text = fields["status"] ?? ""
            guard !text.allSatisfy(\.isWhitespace) else {
                throw SandboxError.parameter("parameter (status)'s value invalid: empty")
            }
            guard weiboLength(text) <= 140 else { throw SandboxError.textTooLong }
            return ByteBuffer(bytes: store.post(text: text, source: ("wsh", "https://github.com/wsh")))
        }
    }

    /// Accepts the token from `access_token` or `Authorization: OAuth2 TOKEN`
    /// (`Bearer` too); no token is 21301, a wrong one 21327.
    private func authorize(_ parameter: String?, header: String?) throws {
        var presented = parameter
        if presented == nil, let header {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["oauth2", "bearer"].contains(parts[0].lowercased()) {
                presented = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        guard let presented, !presented.isEmpty else { throw SandboxError.authMissing }
        guard presented == token else { throw SandboxError.tokenExpired }
    }

    private func integer(_ fields: [String: String], _ name: String, default value: Int,
                         in range: ClosedRange<Int>) throws -> Int {
        guard let text = fields[name] else { return value }
        guard let number = Int(text) else {
            throw SandboxError.parameter("parameter (\(name))'s value invalid, expect (\(name) = int), but get (\(name) = \(text))")
        }
        guard range.contains(number) else {
            throw SandboxError.invalidValue("parameter (\(name))'s value invalid, expect (\(name) in \(range.lowerBound)...\(range.upperBound)), but get (\(name) = \(text))")
        }
        return number
    }

    /// An id parameter that may be left out (or `0`, meaning no bound).
    private func optionalIdentifier(_ fields: [String: String], _ name: String) throws -> Int64? {
        guard let text = fields[name], !text.isEmpty else { return nil }
        return try identifier(fields, name)
    }

    private func identifier(_ fields: [String: String], _ name: String) throws -> Int64 {
        guard let text = fields[name], !text.isEmpty else {
            throw SandboxError.parameter("parameter (\(name)) is required")
        }
        guard let id = Int64(text) else {
            throw SandboxError.parameter("parameter (\(name))'s value invalid, expect (\(name) = int64), but get (\(name) = \(text))")
        }
        return id
    }
}
