import Foundation
import WshModel
import WshRequest

/// The one seam between wsh and the API it talks to: endpoints, paging,
/// auth and decoding into the Model.
///
/// The DataControllers speak one vocabulary, Weibo's (`statuses/show.json`,
/// `count`, `max_id` …), because Weibo was first. A dialect carries each of
/// those calls out on its API and decodes the answer into the Model types the
/// DataControllers asked for. `WeiboDialect` sends the calls as they are;
/// `MastodonDialect` turns them into `/api/v1/…` requests (sometimes two,
/// e.g. a lookup of an account id first) and maps Mastodon's entities onto
/// the same `Status`, `User` and `Comment`. Nothing above the DataControllers
/// knows which dialect answers.
public protocol Dialect: Sendable {
    /// `weibo` or `mastodon`, as `--dialect` and `status` name it.
    var name: String { get }
    /// How the token is sent: `Authorization: SCHEME TOKEN`.
    var authScheme: String { get }
    /// Carries out `endpoint` on this API and decodes its answer as `T`.
    func perform<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint, on client: WeiboClient)
        async throws(RequestError) -> DialectAnswer<T>
    /// The largest page `source` serves; nil when this API has no such timeline.
    func maximumCount(for source: TimelineSource) -> Int?
    /// True when `source` pages by cursor (`max_id`, `since_id`), not by page number.
    func pagesByCursor(_ source: TimelineSource) -> Bool
    /// True when `max_id` includes the status it names (Weibo), so the next
    /// page is asked one larger and the boundary dropped; false when it is
    /// exclusive and the server says where the next page starts (Mastodon's `Link`).
    var maxIDIsInclusive: Bool { get }
    /// The API's OAuth flow on `apiBase` (its authorize page, code exchange,
    /// token info, revocation), sent through `http`.
    func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow
}

/// The dialects by the names accounts record them under.
public enum Dialects {
    /// The dialect called `name` (`weibo`, `mastodon`); Weibo for nil
    /// (accounts stored before Mastodon) or a name this wsh does not know.
    public static func named(_ name: String?) -> any Dialect {
        name == MastodonDialect().name ? MastodonDialect() : WeiboDialect()
    }
}

/// What a dialect brought back: the value, the last HTTP response, and the
/// request it really sent (what `trace on` shows).
public struct DialectAnswer<T: Sendable>: Sendable {
    public var value: T
    public var response: HTTPResponse
    public var method: HTTPMethod
    public var url: String

    public init(value: T, response: HTTPResponse, method: HTTPMethod, url: String) {
        self.value = value
        self.response = response
        self.method = method
        self.url = url
    }
}

/// Weibo API v2: the calls go out as the DataControllers write them.
public struct WeiboDialect: Dialect {
    public init() {}

    public var name: String { "weibo" }
    public var authScheme: String { "OAuth2" }

    public func perform<T: Decodable & Sendable>(_ type: T.Type, _ endpoint: Endpoint, on client: WeiboClient)
        async throws(RequestError) -> DialectAnswer<T> {
        var endpoint = endpoint
        if endpoint.path == StatusDataController.unrepostPath {
            // Weibo takes a repost back by deleting the repost status.
            endpoint = Endpoint(.post, "statuses/destroy.json",
                                parameters: endpoint.parameters.filter { $0.0 == "id" })
        }
        let (value, response) = try await client.fetch(endpoint, decode: TracedCall.decoder(for: T.self))
        return DialectAnswer(value: value, response: response, method: endpoint.method,
                             url: endpoint.url(base: client.configuration.baseURL))
    }

    public func maximumCount(for source: TimelineSource) -> Int? {
        switch source {
        case .public: 200
        case .home, .user, .mentions, .reposts: 100
        case .local, .tag: nil
        }
    }

    public func pagesByCursor(_ source: TimelineSource) -> Bool { source != .public }

    public var maxIDIsInclusive: Bool { true }

    /// Weibo's OAuth2 beside its API (`oauth2/…`), with an app registered at open.weibo.com.
    public func oauthFlow(apiBase: String, http: any HTTPClient) -> any OAuthFlow {
        OAuthClient(apiBase: apiBase, http: http)
    }
}
