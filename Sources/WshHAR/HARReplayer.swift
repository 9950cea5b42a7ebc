import FoundationEssentials
import Synchronization
import WshText

/// Answers requests from a HAR recording, as `wsh --replay` and
/// `wsh-sandbox --replay` both do.
///
/// A request matches a recorded exchange by method, path and query: the
/// host is not compared (a recording made against the sandbox on one port,
/// or saved by a browser from another host, answers for any host), query
/// order does not matter, and a recorded `***` (a value masked when
/// recording) matches any value. A request recorded several times gets the
/// recorded answers in order, then the last one again.
///
/// One instance keeps the order for everything it answers: a whole wsh
/// session, or every client of a replaying sandbox.
public final class HARReplayer: Sendable {
    public let recording: HARRecording
    /// How many times each request (by its matching key) was answered.
    private let answered = Mutex<[String: Int]>([:])

    public init(recording: HARRecording) {
        self.recording = recording
    }

    /// The recorded answer to `method` on `url` (absolute or root-relative),
    /// or nil when the recording holds no such request.
    public func answer(method: String, url: String) -> HARRecording.Exchange? {
        let (path, query) = RecordedURL.pathAndQuery(url)
        let method = method.uppercased()
        let candidates = recording.exchanges.filter {
            $0.method == method && $0.path == path && Self.matches(recorded: $0.query, sent: query)
        }
        guard !candidates.isEmpty else { return nil }
        let key = method + " " + path + "?" + query.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: "&")
        let index = answered.withLock { counts in
            let count = counts[key, default: 0]
            counts[key] = count + 1
            return min(count, candidates.count - 1)
        }
        return candidates[index]
    }

    /// `not in the recording: METHOD /path?query`, secrets masked: the one
    /// line both replays give for a request the recording lacks.
    public static func missing(method: String, url: String) -> String {
        "not in the recording: \(method.uppercased()) \(shown(url))"
    }

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
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)...]
        }
        return Redaction.redact(String(rest))
    }
}
