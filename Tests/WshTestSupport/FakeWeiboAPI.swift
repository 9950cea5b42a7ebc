import Foundation
import WshModel
import WshRequest

/// A small Weibo API in memory, for `FakeHTTPClient`: a public timeline of
/// generated statuses, their comments, users, and posting.
///
/// ```swift
/// let api = FakeWeiboAPI(statusCount: 50)
/// let http = FakeHTTPClient { request in api.respond(to: request) }
/// ```
///
/// Status `n` (from 1, newest first) has id `api.statusID(n)`, is written
/// by `users[(n - 1) % users.count]` and says `status n by @name`.
public struct FakeWeiboAPI: Sendable {
    /// The public timeline, newest first.
    public var statuses: [Status]
    /// The authors, in the order they take turns writing.
    public var users: [User]
    /// Comments each status has.
    public var commentsPerStatus: Int

    /// The screen names the generated users get, in order.
    public static let screenNames = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]

    /// A timeline of `statusCount` statuses by `userCount` users (at most 8).
    public init(statusCount: Int = 60, userCount: Int = 4, commentsPerStatus: Int = 3) {
        users = (0..<min(userCount, Self.screenNames.count)).map { i in
            User(id: Int64(1001 + i), idstr: String(1001 + i), screenName: Self.screenNames[i],
                 name: Self.screenNames[i].capitalized, location: "Beijing",
                 description: "I am \(Self.screenNames[i])", followersCount: 100 + i,
                 friendsCount: 10 + i, statusesCount: 1000 + i)
        }
        self.commentsPerStatus = commentsPerStatus
        let users = self.users
        statuses = (1...max(statusCount, 1)).prefix(statusCount).map { n in
            Self.makeStatus(n, by: users[(n - 1) % users.count])
        }
    }

    /// The id of status `n` (from 1): newer statuses have larger ids.
    public static func statusID(_ n: Int) -> Int64 { 4_000_000_000_000_000 - Int64(n) }

    /// `Tue May 31 17:46:00 +0800 2011` minus `n` minutes.
    public static func time(_ n: Int) -> Timestamp {
        Timestamp(weiboText: "Tue May 31 17:46:00 +0800 2011")!.addingMinutes(-n)
    }

    /// Generated status `n`: every 4th reposts another, every 3rd has two pictures.
    public static func makeStatus(_ n: Int, by user: User) -> Status {
        let id = statusID(n)
        let retweet = n % 4 == 0
            ? Status(id: 3_000_000_000_000_000 + Int64(n), idstr: String(3_000_000_000_000_000 + Int64(n)),
                     createdAt: time(n + 600), text: "original of \(n)",
                     user: User(id: 9999, idstr: "9999", screenName: "origin"))
            : nil
        return Status(
            id: id, idstr: String(id), mid: String(id), createdAt: time(n),
            text: "status \(n) by @\(user.screenName ?? "")",
            source: "<a href=\"http://app.weibo.com/t/feed/1\" rel=\"nofollow\">Weibo Web</a>",
            picURLs: n % 3 == 0 ? ["http://ww1.sinaimg.cn/thumbnail/\(n)a.jpg", "http://ww1.sinaimg.cn/thumbnail/\(n)b.jpg"] : [],
            user: user, repostsCount: n % 5, commentsCount: n % 7, attitudesCount: n,
            retweetedStatus: retweet)
    }

    /// Answers `request` as the Weibo API would.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let fields = request.method == .post ? Self.formFields(request.body) : request.queryItems
        switch request.path {
        case "/2/statuses/public_timeline.json":
            let count = Int(fields["count"] ?? "20") ?? 20
            let page = Int(fields["page"] ?? "1") ?? 1
            let start = min((page - 1) * count, statuses.count)
            let slice = Array(statuses[start..<min(start + count, statuses.count)])
            return Self.encode(TimelinePage(statuses: slice, totalNumber: statuses.count))
        case "/2/statuses/home_timeline.json", "/2/statuses/user_timeline.json", "/2/statuses/mentions.json",
             "/2/statuses/repost_timeline.json":
            return cursorPage(request.path, fields)
        case "/2/statuses/show.json":
            guard let status = statuses.first(where: { $0.idstr == fields["id"] }) else {
                return Self.apiError(20101, "target weibo does not exist", request.path)
            }
            return Self.encode(status)
        case "/2/comments/show.json":
            guard let status = statuses.first(where: { $0.idstr == fields["id"] }) else {
                return Self.apiError(20101, "target weibo does not exist", request.path)
            }
            let comments = (1...max(commentsPerStatus, 1)).prefix(commentsPerStatus).map { i in
                Comment(id: Int64(i), idstr: String(i), createdAt: Self.time(i),
                        text: "comment \(i) on \(status.idstr ?? "")", user: users[i % users.count])
            }
            return Self.encode(CommentsPage(comments: comments, totalNumber: comments.count))
        case "/2/users/show.json":
            let user = users.first { $0.idstr == fields["uid"] || $0.screenName == fields["screen_name"] }
            guard let user else { return Self.apiError(20003, "user does not exist", request.path) }
            return Self.encode(user)
        case "/2/statuses/update.json":
            let text = fields["status"] ?? ""
            return Self.encode(Status(id: 5_000_000_000_000_000, idstr: "5000000000000000",
                                      createdAt: Self.time(0), text: text, user: users[0]))
        default:
            return Self.apiError(10001, "no such endpoint", request.path, status: 404)
        }
    }

    /// A cursor timeline as Weibo serves it: newest first, `since_id` keeps
    /// larger ids, `max_id` smaller **or equal** ones (inclusive), `count`
    /// at most 100. Home is every status, a user's are theirs, mentions
    /// every fifth, reposts (under the key `reposts`) every third.
    private func cursorPage(_ path: String, _ fields: [String: String]) -> HTTPResponse {
        var pool: [Status]
        switch path {
        case "/2/statuses/user_timeline.json":
            pool = statuses.filter { $0.user?.idstr == fields["uid"] || $0.user?.screenName == fields["screen_name"] }
        case "/2/statuses/mentions.json": pool = statuses.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        case "/2/statuses/repost_timeline.json": pool = statuses.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        default: pool = statuses
        }
        let count = Int(fields["count"] ?? "20") ?? 20
        guard (1...100).contains(count) else { return Self.apiError(10017, "count out of range", path) }
        if let since = fields["since_id"].flatMap(Int64.init) { pool = pool.filter { ($0.id ?? 0) > since } }
        if let max = fields["max_id"].flatMap(Int64.init) { pool = pool.filter { ($0.id ?? 0) <= max } }
        let page = Array(pool.prefix(count))
        if path.hasSuffix("repost_timeline.json") {
            let body = try! JSONEncoder().encode(TimelinePage(statuses: page, totalNumber: pool.count))
            return .json(String(decoding: body, as: UTF8.self).replacingOccurrences(of: #"{"statuses":"#, with: #"{"reposts":"#))
        }
        return Self.encode(TimelinePage(statuses: page, totalNumber: pool.count))
    }

    /// This API with `count` newer statuses on top (ids above every other),
    /// as if they had just been posted.
    public func adding(newStatuses count: Int) -> FakeWeiboAPI {
        var copy = self
        let newest = statuses.first?.id ?? Self.statusID(0)
        let fresh = (1...max(count, 1)).prefix(count).map { k in
            var status = Self.makeStatus(k, by: users[k % users.count])
            status.id = newest + Int64(count - k + 1)
            status.idstr = String(status.id!)
            status.text = "new status \(count - k + 1)"
            status.retweetedStatus = nil
            return status
        }
        copy.statuses = fresh + statuses
        return copy
    }

    /// `{"error": message, "error_code": code, "request": path}` with HTTP `status`.
    public static func apiError(_ code: Int, _ message: String, _ path: String, status: Int = 400) -> HTTPResponse {
        .json(#"{"error":"\#(message)","error_code":\#(code),"request":"\#(path)"}"#, status: status)
    }

    private static func encode<T: Encodable>(_ value: T) -> HTTPResponse {
        let data = try! JSONEncoder().encode(value)
        return .json(String(decoding: data, as: UTF8.self))
    }

    private static func formFields(_ body: Data?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            fields[String(parts[0])] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
        }
        return fields
    }
}

extension Timestamp {
    /// This time moved by `minutes`, in the same UTC offset.
    func addingMinutes(_ minutes: Int) -> Timestamp {
        Timestamp(date: date.addingTimeInterval(TimeInterval(minutes * 60)), utcOffset: utcOffset)
    }
}
