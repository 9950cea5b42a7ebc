import Foundation
import Synchronization
import WshText

/// An `HTTPClient` that answers every request from a HAR recording
/// (`--replay`), with no network.
///
/// A request matches a recorded exchange by method, path and query: the
/// host is not compared (a recording made against the sandbox on one port,
/// or saved by a browser from another host, answers for whatever `--api`
/// says), query order does not matter, and a recorded `***` (a value masked
/// when recording) matches any value. A request recorded several times gets
/// the recorded answers in order, then the last one again. A request not in
/// the recording fails with one line naming it.
///
/// One instance serves a whole session, so the order holds across every
/// client the session makes.
public final class ReplayHTTPClient: CancellableHTTPClient {
    private let recording: HARRecording
    /// How many times each request (by its matching key) was answered.
    private let answered = Mutex<[String: Int]>([:])

    /// `replaying FILE (N exchanges)`, as `status` says it.
    public var summary: String { "replaying \(recording.name) (\(recording.exchanges.count) exchanges)" }

    public init(recording: HARRecording) {
        self.recording = recording
    }

    public func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        let (path, query) = RecordedURL.pathAndQuery(request.url)
        let method = request.method.rawValue
        let candidates = recording.exchanges.filter {
            $0.method == method && $0.path == path && Self.matches(recorded: $0.query, sent: query)
        }
        guard !candidates.isEmpty else {
            throw .configuration("not in the recording: \(method) \(Self.shown(request.url))")
        }
        let key = method + " " + path + "?" + query.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: "&")
        let index = answered.withLock { counts in
            let count = counts[key, default: 0]
            counts[key] = count + 1
            return min(count, candidates.count - 1)
        }
        let exchange = candidates[index]
        return HTTPResponse(status: exchange.status, headers: exchange.headers, body: exchange.body,
                            metrics: TransferMetrics(bytesReceived: exchange.body.count, replayed: true))
    }

    /// Nothing is in flight long enough to stop.
    public func cancelCurrentRequest() {}

    /// Whether the same names carry the same values, in any order, a recorded `***` matching any value.
    static func matches(recorded: [(String, String)], sent: [(String, String)]) -> Bool {
        guard recorded.count == sent.count else { return false }
        var unmatched = sent
        for (name, value) in recorded {
            guard let index = unmatched.firstIndex(where: { $0.0 == name && ($0.1 == value || value == Redaction.mask) })
            else { return false }
            unmatched.remove(at: index)
        }
        return true
    }

    /// The path and query of `url`, as the error shows it.
    private static func shown(_ url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)...]
        }
        return Redaction.redact(String(rest))
    }
}
