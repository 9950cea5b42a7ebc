import FoundationEssentials
import WshHAR
import WshText

/// An `HTTPClient` that answers every request from a HAR recording
/// (`--replay`), with no network, matched as `HARReplayer` matches them; a
/// request not in the recording fails with one line naming it.
///
/// One instance serves a whole session, so the order holds across every
/// client the session makes.
public final class ReplayHTTPClient: CancellableHTTPClient {
    private let replayer: HARReplayer

    /// `replaying FILE (N exchanges)`, as `status` says it.
    public var summary: String {
        "replaying \(replayer.recording.name) (\(replayer.recording.size))"
    }

    public init(recording: HARRecording) {
        replayer = HARReplayer(recording: recording)
    }

    /// A new replayer over the same recording, from its first exchange again
    /// (a request recorded several times gets its first answer again).
    public func fresh() -> ReplayHTTPClient {
        ReplayHTTPClient(recording: replayer.recording)
    }

    public func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        let method = request.method.rawValue
        guard let exchange = replayer.answer(method: method, url: request.url) else {
            throw .configuration(HARReplayer.missing(method: method, url: request.url))
        }
        if let failure = exchange.failure {
            throw .transport(TransportFailure(curlCode: failure.curlCode, message: failure.message,
                                              url: Redaction.redact(request.url)))
        }
        return HTTPResponse(status: exchange.status, headers: exchange.headers, body: exchange.body,
                            metrics: TransferMetrics(bytesReceived: exchange.body.count, replayed: true))
    }

    /// Nothing is in flight long enough to stop.
    public func cancelCurrentRequest() {}
}
