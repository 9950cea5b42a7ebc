import FoundationEssentials
import Synchronization
import WshModel
import WshRequest
import WshText

/// Mastodon's streaming API: server-sent events on `/api/v1/streaming/…`,
/// at the URL `/api/v1/instance` names (`urls.streaming_api`; v2:
/// `configuration.urls.streaming`). Only a URL on the API's own host is
/// taken, so a server cannot send the token elsewhere; otherwise the API's
/// own origin serves it, as it does on most servers.
extension MastodonDialect {
    public func streamTimeline(_ source: TimelineSource, _ exchange: DialectExchange,
                               event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        let stream: String
        switch source {
        case .public: stream = "public"
        case .local: stream = "public/local"
        case .home: stream = "user"
        case .mentions: stream = "user/notification"
        case .tag(let tag): stream = "hashtag?tag=" + PercentEncoding.encoded(tag)
        case .user, .reposts, .list, .bookmarks, .favourites: throw .configuration("Mastodon has no stream of \(source)")
        }
        let base = try await streamingBase(exchange)
        let reader = Mutex((parser: ServerSentEventParser(), opened: false))
        let mentionsOnly = source == .mentions
        _ = try await exchange.stream(url: base + "api/v1/streaming/" + stream) { chunk in
            let (first, events) = reader.withLock { state in
                let first = !state.opened
                state.opened = true
                return (first, state.parser.feed(chunk))
            }
            if first && !event(.opened) { return false }
            for received in events {
                guard let status = Self.status(in: received, mentionsOnly: mentionsOnly) else { continue }
                if !event(.status(status)) { return false }
            }
            return true
        }
    }

    /// The status an event carries: an `update`'s Status, or (for mentions)
    /// a `mention` notification's; nil for anything else or what does not decode.
    private static func status(in event: ServerSentEvent, mentionsOnly: Bool) -> Status? {
        let data = Data(event.data.utf8)
        if mentionsOnly {
            guard event.event == "notification",
                  let notification = try? ModelDecoding.decode(MastodonNotification.self, from: data),
                  notification.type == "mention" else { return nil }
            return notification.status?.status
        }
        guard event.event == "update" else { return nil }
        return (try? ModelDecoding.decode(MastodonStatus.self, from: data))?.status
    }

    /// `http(s)://host[:port]/` of the streaming API: the instance's URL when
    /// it is on the API's host and no weaker than the API's scheme (ws→http,
    /// wss→https), else the API's origin.
    /// A server whose instance names no streaming URL has none.
    private func streamingBase(_ exchange: DialectExchange) async throws(RequestError) -> String {
        let instance = try await Call(exchange).get(MastodonInstanceURLs.self, "api/v1/instance")
        guard let named = instance.streaming, !named.isEmpty,
              var components = URLComponents(string: named) else {
            throw .configuration("this server names no streaming API in /api/v1/instance")
        }
        let api = URLComponents(string: exchange.client.configuration.baseURL)
        switch components.scheme?.lowercased() {
        case "ws", "http": components.scheme = "http"
        case "wss", "https": components.scheme = "https"
        default: throw .configuration("the streaming URL in /api/v1/instance is not ws:// or wss://")
        }
        // Another host, or plain ws:// under an https:// API, would send the token
        // where the user did not point wsh, or in clear: the API's own origin serves instead.
        let downgrades = api?.scheme?.lowercased() == "https" && components.scheme == "http"
        guard let api, components.host?.lowercased() == api.host?.lowercased(), !downgrades else {
            return Self.origin(exchange.client.configuration.baseURL)
        }
        components.path = "/"
        components.query = nil
        return components.string ?? Self.origin(exchange.client.configuration.baseURL)
    }

    /// `scheme://host[:port]/` of `url`.
    private static func origin(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/"
        components.query = nil
        return components.string ?? url
    }
}

/// The parts of Mastodon's `Instance` (v1 `urls.streaming_api`) the stream needs.
struct MastodonInstanceURLs: Decodable, Sendable {
    var streaming: String?

    private enum Keys: String, CodingKey { case urls, configuration, streamingAPI = "streaming_api", streaming }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let urls = try? c.nestedContainer(keyedBy: Keys.self, forKey: .urls)
        streaming = (try? urls?.decodeIfPresent(String.self, forKey: .streamingAPI)) ?? nil
        if streaming == nil, let configuration = try? c.nestedContainer(keyedBy: Keys.self, forKey: .configuration),
           let v2 = try? configuration.nestedContainer(keyedBy: Keys.self, forKey: .urls) {
            streaming = (try? v2.decodeIfPresent(String.self, forKey: .streaming)) ?? nil
        }
    }
}
