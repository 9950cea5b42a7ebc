import FoundationEssentials
import Synchronization
import WshModel
import WshRequest
import WshText

/// Mastodon's streaming API: server-sent events on `/api/v1/streaming/…`
/// where the server serves them, else the WebSocket on
/// `/api/v1/streaming?stream=…` (GoToSocial serves only that), at the URL
/// `/api/v1/instance` names (`urls.streaming_api`; v2:
/// `configuration.urls.streaming`). Only a URL on the API's own host is
/// taken, so a server cannot send the token elsewhere; otherwise the API's
/// own origin serves it, as it does on most servers.
extension MastodonDialect {
    public func streamTimeline(_ source: TimelineSource, _ exchange: DialectExchange,
                               event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        let names: (path: String, webSocket: String)
        switch source {
        case .public: names = ("public", "public")
        case .local: names = ("public/local", "public:local")
        case .home: names = ("user", "user")
        case .mentions: names = ("user/notification", "user:notification")
        case .tag(let tag):
            let query = "&tag=" + PercentEncoding.encoded(tag)
            names = ("hashtag?" + query.dropFirst(), "hashtag" + query)
        case .list(let name):
            // A list is streamed by its id: a title is looked up first (GET /api/v1/lists).
            let list = try await Call(exchange).list(named: name)
            let query = "&list=" + PercentEncoding.encoded(list.id)
            names = ("list?" + query.dropFirst(), "list" + query)
        case .user, .reposts, .bookmarks, .favourites, .archive: throw .configuration("Mastodon has no stream of \(source)")
        }
        let base = try await streamingBase(exchange)
        let mentionsOnly = source == .mentions
        let eventStream: RequestError
        do {
            try await serverSentEvents(base + "api/v1/streaming/" + names.path, exchange, mentionsOnly: mentionsOnly,
                                       event: event)
            return
        } catch {
            guard let missing = Self.lacksStream(error) else { throw error }
            eventStream = missing
        }
        do {
            try await webSocket(base + "api/v1/streaming?stream=" + names.webSocket, exchange, mentionsOnly: mentionsOnly,
                                why: "the server has no server-sent events", event: event)
        } catch {
            guard Self.lacksStream(error) != nil else { throw error }
            throw .configuration("the server has neither server-sent events (\(Self.brief(eventStream))) "
                + "nor a WebSocket (\(Self.brief(error))) at \(base)api/v1/streaming")
        }
    }

    /// Follows server-sent events at `url`. An answer that is a page, not an
    /// event stream, is a missing stream (`lacksStream`), as a 404 is.
    private func serverSentEvents(_ url: String, _ exchange: DialectExchange, mentionsOnly: Bool,
                                  event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        let reader = Mutex((parser: ServerSentEventParser(), opened: false, page: false))
        _ = try await exchange.stream(url: url) { chunk in
            let (first, page, events) = reader.withLock { state in
                let first = !state.opened
                state.opened = true
                // An event stream's lines start with a field name or `:`; `<` is an HTML page served with 200.
                if first, chunk.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "<") { state.page = true }
                return (first, state.page, state.page ? [] : state.parser.feed(chunk))
            }
            if page { return false }
            if first && !event(.opened(.serverSentEvents)) { return false }
            for received in events {
                guard let status = Self.status(in: received, mentionsOnly: mentionsOnly) else { continue }
                if !event(.status(status)) { return false }
            }
            return true
        }
        if reader.withLock({ $0.page }) {
            throw .http(status: 200, url: url, excerpt: "a page, not an event stream")
        }
    }

    /// Follows the WebSocket at `url` (http(s)://, which the upgrade turns
    /// into ws(s)://): each message is `{"stream":[…],"event":…,"payload":"…"}`,
    /// the payload the same JSON an event's data would be.
    private func webSocket(_ url: String, _ exchange: DialectExchange, mentionsOnly: Bool, why: String?,
                           event: @escaping @Sendable (TimelineStreamEvent) -> Bool) async throws(RequestError) {
        _ = try await exchange.webSocket(url: url) { message in
            switch message {
            case .opened:
                return event(.opened(.webSocket(why: why)))
            case .text(let text):
                guard let received = Self.serverSentEvent(fromWebSocket: text),
                      let status = Self.status(in: received, mentionsOnly: mentionsOnly) else { return true }
                return event(.status(status))
            }
        }
    }

    /// A WebSocket message as the event it carries; nil for one that is not
    /// such an object (Mastodon's error messages, anything a server invents).
    static func serverSentEvent(fromWebSocket text: String) -> ServerSentEvent? {
        guard case .object(let object)? = JSONValue.parse(Data(text.utf8)),
              case .string(let name)? = object["event"] else { return nil }
        guard case .string(let payload)? = object["payload"] else { return ServerSentEvent(event: name, data: "") }
        return ServerSentEvent(event: name, data: payload)
    }

    /// The failure, when `error` says the server does not serve the stream
    /// that way (404, 400, 405, 410, 501, a page), rather than that something
    /// went wrong (a token refused, a connection lost), which is thrown as it is.
    static func lacksStream(_ error: RequestError) -> RequestError? {
        let missing: Set<Int> = [200, 400, 404, 405, 406, 410, 426, 501]
        switch error {
        case .http(let status, _, _) where missing.contains(status): return error
        case .api(let failure) where missing.contains(failure.httpStatus): return error
        default: return nil
        }
    }

    /// `HTTP 404`: what a missing stream's answer was, for the one line.
    private static func brief(_ error: RequestError) -> String {
        switch error {
        case .http(let status, _, let excerpt) where status == 200: return excerpt
        case .http(let status, _, _): return "HTTP \(status)"
        case .api(let failure): return "HTTP \(failure.httpStatus)"
        default: return error.description
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
            var status = notification.status?.status
            status?.serverJSON = ServerJSON.member("status", of: data)
            return status
        }
        guard event.event == "update", var status = (try? ModelDecoding.decode(MastodonStatus.self, from: data))?.status else { return nil }
        // As the server sent it, for `--json`.
        status.serverJSON = ServerJSON(data)
        return status
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
