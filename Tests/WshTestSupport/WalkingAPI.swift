import Foundation
import Synchronization
import WshRequest

/// A Weibo and a Mastodon API whose paged lists go the way a test says: as
/// a server should (older page after older page, then the end), or the
/// wrong way, as a server with a broken cursor does (issue 45: older pages
/// that carry higher ids, a `max_id` that rises). For `FakeHTTPClient`, or
/// on 127.0.0.1 through `LoopbackHTTPServer`.
///
/// ```swift
/// let api = WalkingAPI(.backwards)
/// let http = FakeHTTPClient { request in api.respond(to: request) }
/// ```
///
/// Paged, each page `pageSize` items, newest first:
/// - Weibo (a base ending in `/2/`): `statuses/public_timeline.json` by
///   `page`, `statuses/home_timeline.json` by `max_id` (inclusive, as
///   Weibo's is), `friendships/followers.json` by `cursor` (an offset: it
///   rises as it should);
/// - Mastodon (any other base): `api/v1/timelines/home` and `…/public`,
///   `api/v1/favourites`, `api/v1/notifications`, `api/v1/accounts/:id/followers`,
///   each by the `max_id` of its `Link: <…>; rel="next"`.
///
/// Page k's items and the `max_id` of its next link follow from `way`; ids
/// are numbers around `base`. After `cap` paged requests every
/// page is empty, with no next link: a walk that never notices the wrong way
/// ends there, so a test fails rather than hangs. Anything else answers as
/// a small server would: `api/v1/instance` (Mastodon 4.2.0), `verify_credentials`
/// and `users/show` an account, the rest 404.
public final class WalkingAPI: Sendable {
    /// Which way the pages go.
    public enum Way: Sendable, Hashable {
        /// As a server should: each page older than the one before, `pages` of them.
        case older(pages: Int)
        /// A broken cursor: each next page carries higher ids, and its `max_id` rises.
        case backwards
        /// Each next page carries higher ids, while its `max_id` falls as it should.
        case risingIDs
        /// A moving timeline paged by number (Weibo's public): before each page
        /// after the first, `posted` statuses are posted on top, so each page
        /// repeats the last `posted` of the one before; `pages` of them.
        case moving(pages: Int, posted: Int)
    }

    public let way: Way
    public let pageSize: Int
    public let cap: Int
    /// Ids are numbers near this one: the first page's newest is `base + pageSize - 1`
    /// going backwards, `base` going older.
    public let base: Int64
    private let log = Mutex<[String]>([])

    public init(_ way: Way, pageSize: Int = 20, cap: Int = 200, base: Int64 = 9_000_000) {
        self.way = way
        self.pageSize = pageSize
        self.cap = cap
        self.base = base
    }

    /// The paths of the paged requests answered so far, oldest first.
    public var pagedRequests: [String] { log.withLock { $0 } }

    /// The ids of page `k` (from 1), newest first; empty past the last page.
    public func ids(page k: Int) -> [Int64] {
        let size = Int64(pageSize)
        let k64 = Int64(k)
        switch way {
        case .older(let pages):
            guard k <= pages else { return [] }
            return (0..<size).map { base - (k64 - 1) * size - $0 }
        case .backwards, .risingIDs:
            return (0..<size).map { base + k64 * size - 1 - $0 }
        case .moving(let pages, let posted):
            guard k <= pages else { return [] }
            // When page k is asked, (k - 1) × posted statuses are above the first page's newest.
            let newest = base + Int64((k - 1) * posted)
            return (0..<size).map { newest - (k64 - 1) * size - $0 }
        }
    }

    /// The `max_id` of page k's next link: its oldest id, or (`risingIDs`) one that falls as it should.
    func nextMaxID(page k: Int) -> Int64 {
        if way == .risingIDs { return base - Int64(k * pageSize) }
        return ids(page: k).last ?? 0
    }

    /// The page a `max_id` asks for: the inverse of `nextMaxID`.
    func page(maxID: Int64) -> Int {
        let size = Int64(pageSize)
        switch way {
        case .older, .moving: return Int((base - maxID) / size) + 2
        case .backwards: return Int((maxID - base) / size) + 2
        case .risingIDs: return Int((base - maxID) / size) + 1
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        let query = request.queryItems
        let weibo = path.hasPrefix("/2/")
        let pagedPaths = ["public_timeline.json", "home_timeline.json", "friendships/followers.json", "timelines/home", "timelines/public",
                          "favourites", "notifications", "/followers"]
        guard pagedPaths.contains(where: path.hasSuffix) else { return other(path, weibo: weibo) }
        let count = log.withLock { log in
            log.append(path)
            return log.count
        }
        var k: Int
        if weibo {
            if let maxID = query["max_id"].flatMap({ Int64($0) }) {
                // Inclusive: asked from the last id of page k, the walk wants page k + 1.
                k = page(maxID: maxID)
            } else {
                k = Int(query["page"] ?? "") ?? (Int(query["cursor"] ?? "0").map { $0 / pageSize + 1 } ?? 1)
            }
        } else {
            k = query["max_id"].flatMap { Int64($0) }.map(page(maxID:)) ?? 1
        }
        if count > cap { k = Int.max }
        let ids = k == Int.max ? [] : ids(page: k)
        if weibo {
            if path.hasSuffix("followers.json") {
                let users = ids.map(Self.weiboUser).joined(separator: ",")
                let next = ids.isEmpty ? 0 : k * pageSize
                return .json(#"{"users":[\#(users)],"next_cursor":\#(next),"total_number":100000}"#)
            }
            return .json(#"{"statuses":[\#(ids.map(Self.weiboStatus).joined(separator: ","))],"total_number":100000}"#)
        }
        let items: [String]
        if path.hasSuffix("notifications") {
            items = ids.map(Self.mastodonNotification)
        } else if path.hasSuffix("followers") {
            items = ids.map(Self.mastodonAccount)
        } else if path.hasSuffix("favourites") {
            // Favourites come in the order they were favourited: their status ids are any.
            items = ids.map { Self.mastodonStatus(($0 * 7_919) % 1_000_003) }
        } else {
            items = ids.map(Self.mastodonStatus)
        }
        var headers = ["content-type": "application/json"]
        if !ids.isEmpty {
            let origin = request.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.url
            headers["link"] = #"<\#(origin)?limit=\#(pageSize)&max_id=\#(nextMaxID(page: k))>; rel="next""#
        }
        let body = "[" + items.joined(separator: ",") + "]"
        return HTTPResponse(status: 200, headers: headers, body: Data(body.utf8),
                            metrics: TransferMetrics(totalSeconds: 0.001, bytesReceived: body.utf8.count))
    }

    private func other(_ path: String, weibo: Bool) -> HTTPResponse {
        switch path {
        case "/api/v1/accounts/verify_credentials": .json(Self.mastodonAccount(7))
        case "/api/v1/instance": .json(#"{"uri":"127.0.0.1","title":"walking","version":"4.2.0"}"#)
        case "/2/users/show.json": .json(Self.weiboUser(7))
        case "/2/account/get_uid.json": .json(#"{"uid":7}"#)
        default: .json(weibo ? #"{"error":"not found","error_code":20101,"request":"\#(path)"}"# : #"{"error":"Record not found"}"#, status: 404)
        }
    }

    static func weiboUser(_ id: Int64) -> String {
        #"{"id":\#(id),"idstr":"\#(id)","screen_name":"user\#(id)","name":"User \#(id)","followers_count":1,"friends_count":1,"statuses_count":1}"#
    }

    static func weiboStatus(_ id: Int64) -> String {
        #"{"id":\#(id),"idstr":"\#(id)","mid":"\#(id)","created_at":"Tue May 31 17:46:55 +0800 2011","text":"status \#(id)","user":\#(weiboUser(7))}"#
    }

    static func mastodonAccount(_ id: Int64) -> String {
        #"{"id":"\#(id)","username":"user\#(id)","acct":"user\#(id)","display_name":"User \#(id)","followers_count":1,"following_count":1,"statuses_count":1}"#
    }

    static func mastodonStatus(_ id: Int64) -> String {
        #"{"id":"\#(id)","created_at":"2026-11-01T00:00:00.000Z","content":"<p>status \#(id)</p>","account":\#(mastodonAccount(7))}"#
    }

    static func mastodonNotification(_ id: Int64) -> String {
        #"{"id":"\#(id)","type":"mention","created_at":"2026-11-01T00:00:00.000Z","account":\#(mastodonAccount(8)),"status":\#(mastodonStatus(id))}"#
    }
}
