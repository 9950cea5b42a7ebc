import FoundationEssentials
import HTTPTypes
import HummingbirdWebSocket
import NIOCore
import WshText

/// The streaming API over a WebSocket: `GET /api/v1/streaming[?stream=NAME]`
/// upgraded, as Mastodon and GoToSocial serve it. The token comes as
/// `access_token`, `Authorization: Bearer` or `Sec-WebSocket-Protocol` (which
/// is then echoed). Each event is a text message `{"stream":["NAME"],
/// "event":"update","payload":"<the Status's JSON as a string>"}` (the user
/// stream also `notification`); a client may send `{"type":"subscribe",
/// "stream":"NAME"}` (with `tag` or `list`) and `unsubscribe`. An upgrade it
/// refuses (another path, an unknown stream, a bad token, a user stream
/// without one) is answered by Hummingbird: 400 with no body.
extension MastodonAPI {
    /// The server's side of one WebSocket, as Hummingbird runs it.
    typealias WebSocketHandler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    /// The most bytes a client's message may have (a subscribe is a few dozen).
    static let maxClientMessageBytes = 4096

    /// Whether `head` may upgrade, and what its socket then serves.
    func webSocketUpgrade(_ head: HTTPRequest) -> ShouldUpgradeResult<WebSocketHandler> {
        let target = head.path ?? ""
        let path = target.prefix { $0 != "?" }
        let query = target.firstIndex(of: "?").map { target[target.index(after: $0)...] } ?? ""
        guard state.streamingTransports.servesWebSocket, path == "/api/v1/streaming" || path == "/api/v1/streaming/",
              let pairs = FormFields.pairs(query) else { return .dontUpgrade }
        var parameters = Parameters()
        for (name, value) in pairs { parameters.add(name, value) }
        let protocolToken = head.headerFields[.secWebSocketProtocol]?.split(separator: ",").first.map { String($0.trimmingSpaces) }
        guard let caller = try? authorize(parameters["access_token"] ?? protocolToken,
                                          header: head.headerFields[.authorization]) else { return .dontUpgrade }
        var first: [WebSocketSubscription] = []
        if let name = parameters["stream"] {
            guard let subscription = try? subscription(name, parameters, caller: caller) else { return .dontUpgrade }
            first.append(subscription)
        }
        var headers: HTTPFields = [:]
        if let protocolToken { headers[.secWebSocketProtocol] = protocolToken }
        let store = self.store, state = self.state, api = self, initial = first
        return .upgrade(headers) { inbound, outbound, _ in
            let subscriptions = Locked(initial)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The client's messages: subscribe and unsubscribe. Its close ends the socket.
                    for try await message in inbound.messages(maxSize: Self.maxClientMessageBytes) {
                        guard case .text(let text) = message else { continue }
                        api.apply(text, to: subscriptions, caller: caller)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: Self.streamPoll)
                        let messages = subscriptions.withLock { current in
                            current.indices.flatMap { index in
                                Self.newEvents(current[index].stream, viewer: caller.user, cursor: &current[index].cursor,
                                               store: store, state: state)
                                    .map { Self.webSocketMessage(stream: current[index].names, event: $0.event, payload: $0.payload) }
                            }
                        }
                        for message in messages { try await outbound.write(.text(message)) }
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    /// One stream a socket follows: its names as events carry them, and where it has got to.
    struct WebSocketSubscription: Sendable {
        var stream: Stream
        var names: [String]
        var cursor: StreamCursor
    }

    /// The subscription `name` asks for, for `caller`; throws when there is no such stream or the caller may not have it.
    private func subscription(_ name: String, _ parameters: Parameters, caller: Caller) throws -> WebSocketSubscription {
        guard let stream = Stream(name, parameters) else { throw MastodonError(status: .badRequest, error: "Unknown stream type") }
        let viewer = try stream.needsUser ? signedIn(caller) : previewer(caller)
        var names = [name.replacing("/", with: ":")]
        if let tag = parameters["tag"], case .hashtag = stream { names.append(tag) }
        if let list = parameters["list"], case .list = stream { names.append(list) }
        return WebSocketSubscription(stream: stream, names: names, cursor: StreamCursor(store: store, viewer: viewer))
    }

    /// Applies a client's `{"type":"subscribe"|"unsubscribe","stream":…}`;
    /// anything else, or a stream it may not have, is ignored, as Mastodon
    /// answers such a message with an error event the sandbox has no need for.
    private func apply(_ text: String, to subscriptions: Locked<[WebSocketSubscription]>, caller: Caller) {
        guard case .object(let object)? = JSONValue.parse(Data(text.utf8)),
              case .string(let type)? = object["type"], case .string(let name)? = object["stream"] else { return }
        var parameters = Parameters()
        for key in ["tag", "list"] {
            if case .string(let value)? = object[key] { parameters.add(key, value) }
        }
        guard let wanted = try? subscription(name, parameters, caller: caller) else { return }
        subscriptions.withLock { current in
            current.removeAll { $0.names == wanted.names }
            if type == "subscribe" { current.append(wanted) }
        }
    }

    /// `{"stream":[…],"event":…,"payload":"…"}`: the payload is the JSON as a string, as Mastodon sends it.
    static func webSocketMessage(stream: [String], event: String, payload: String) -> String {
        var json = JSONWriter(capacity: payload.utf8.count + 64)
        json.objectStart()
        json.member("stream", stream)
        json.member("event", event)
        json.member("payload", payload)
        json.objectEnd()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
