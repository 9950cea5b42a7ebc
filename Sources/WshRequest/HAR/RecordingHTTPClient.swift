import FoundationEssentials
import WshText

/// An `HTTPClient` that sends through another one and appends each finished
/// exchange to a HAR recording (`--record`, `record on`), masked
/// (`HARRedaction`); with no recorder at the moment, it only sends.
///
/// Everything above sees the real client's answers and errors unchanged. A
/// transport failure is recorded as browsers record one (status 0, `_error`),
/// with curl's code, so a replay fails the same way; a recording that cannot
/// be written fails the request, so a session never believes it is recorded
/// when it is not.
public final class RecordingHTTPClient: CancellableHTTPClient, StreamingHTTPClient, WebSocketHTTPClient {
    private let client: any HTTPClient
    private let recorder: @Sendable () -> HARRecorder?
    private let secrets: @Sendable () -> [String]

    /// Records what `client` sends to the recorder `recorder` gives at the
    /// time (none: not recorded); `secrets` gives every secret the session
    /// knows at the moment an entry is written (a token learned by `login`
    /// included).
    public init(wrapping client: any HTTPClient, recorder: @escaping @Sendable () -> HARRecorder?,
                secrets: @escaping @Sendable () -> [String]) {
        self.client = client
        self.recorder = recorder
        self.secrets = secrets
    }

    /// Records everything `client` sends to `recorder`.
    public convenience init(wrapping client: any HTTPClient, recorder: HARRecorder,
                            secrets: @escaping @Sendable () -> [String]) {
        self.init(wrapping: client, recorder: { recorder }, secrets: secrets)
    }

    public func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        guard let recorder = recorder() else { return try await client.send(request) }
        let started = Date()
        let clock = ContinuousClock.now
        let entry: JSONValue
        let outcome: Result<HTTPResponse, RequestError>
        do {
            let response = try await client.send(request)
            outcome = .success(response)
            entry = HAREntry.make(request: request, response: response, started: started,
                                  milliseconds: max(Self.milliseconds(since: clock), response.metrics.totalSeconds * 1000),
                                  secrets: secrets().filter { !$0.isEmpty })
        } catch .transport(let failure) {
            // No response, but an exchange all the same: HAR's status 0, so a
            // replay fails as this request failed (a lost answer stays lost).
            outcome = .failure(.transport(failure))
            entry = HAREntry.make(request: request, failure: failure, started: started,
                                  milliseconds: Self.milliseconds(since: clock), secrets: secrets().filter { !$0.isEmpty })
        } catch {
            // Cancelled, or never formed: nothing was exchanged to record.
            throw error
        }
        do {
            try recorder.append(entry)
        } catch {
            throw .configuration("--record: \(error)")
        }
        return try outcome.get()
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// A stream goes through while nothing records; a HAR entry needs a
    /// response that ends, so while recording a stream is refused in one line
    /// (and `watch --stream` polls instead, each poll recorded).
    public func stream(_ request: HTTPRequest, chunks: @escaping @Sendable (Data) -> Bool) async throws(RequestError) -> HTTPResponse {
        guard recorder() == nil, let streaming = client as? any StreamingHTTPClient else {
            throw .configuration("this connection cannot stream while it records (a HAR entry needs an answer that ends)")
        }
        return try await streaming.stream(request, chunks: chunks)
    }

    /// A WebSocket goes through while nothing records, and is refused while
    /// recording, as a stream is.
    public func webSocket(_ request: HTTPRequest, maxMessageBytes: Int, send: [String],
                          messages: @escaping @Sendable (WebSocketMessage) -> Bool) async throws(RequestError) -> HTTPResponse {
        guard recorder() == nil, let client = client as? any WebSocketHTTPClient else {
            throw .configuration("this connection cannot open a WebSocket while it records (a HAR entry needs an answer that ends)")
        }
        return try await client.webSocket(request, maxMessageBytes: maxMessageBytes, send: send, messages: messages)
    }

    public func cancelCurrentRequest() {
        (client as? any CancellableHTTPClient)?.cancelCurrentRequest()
    }
}
