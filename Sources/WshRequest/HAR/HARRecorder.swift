#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import WshHAR
import WshText
import Synchronization

/// The HAR 1.2 file `--record FILE` writes: every exchange of the session,
/// appended as it completes.
///
/// The whole file is rewritten after each entry, to a temporary file in the
/// same folder then renamed over the old one, so at every moment the path
/// holds a complete, valid HAR: a script killed mid-session (even `kill -9`)
/// leaves every exchange finished before it. The file is created mode 0600,
/// as it holds the session's data (its secrets are masked, its timelines are
/// not). An existing file at the path is replaced when recording starts.
/// Shared by every `RecordingHTTPClient` of a session.
public final class HARRecorder: Sendable {
    /// Where the recording is written.
    public let path: String
    private let state: Mutex<State>

    private struct State: Sendable {
        var log: JSONValue
        var entries: [JSONValue] = []
    }

    /// Starts a recording at `path`, writing an empty HAR there at once, so
    /// a path that cannot be written is found before any command runs.
    /// `creator` names the program, `version` its version.
    public init(path: String, creator: String, version: String) throws(HARError) {
        self.path = path
        let log: JSONValue = [
            "version": "1.2",
            "creator": ["name": JSONValue(creator), "version": JSONValue(version)],
            "pages": [],
        ]
        state = Mutex(State(log: log))
        try state.withLock { state throws(HARError) in try rewrite(state) }
    }

    /// Notes where the API is and its dialect, once (the first API client
    /// of the session), so `--replay` without `--api` finds the same API.
    /// Written as the log's `_wsh` field, which HAR allows for extensions.
    public func noteAPI(base: String, dialect: String?) {
        state.withLock { state in
            guard state.log["_wsh"] == nil else { return }
            var note: JSONValue = ["api": JSONValue(base)]
            if let dialect { note["dialect"] = JSONValue(dialect) }
            state.log["_wsh"] = note
        }
    }

    /// Appends one entry (already masked) and rewrites the file.
    func append(_ entry: JSONValue) throws(HARError) {
        try state.withLock { state throws(HARError) in
            state.entries.append(entry)
            try rewrite(state)
        }
    }

    private func rewrite(_ state: State) throws(HARError) {
        var log = state.log
        log["entries"] = JSONValue(state.entries)
        let data = JSONValue(["log": log]).encoded(pretty: true)
        let temporary = path + ".tmp\(getpid())"
        // A fresh file, never through a link someone planted at the temporary
        // name: a leftover is removed first, and O_EXCL | O_NOFOLLOW refuses
        // whatever appears there meanwhile.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw HARError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += count
            }
            _ = write(descriptor, "\n", 1)
        }
        close(descriptor)
        guard failure == 0, rename(temporary, path) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw HARError("cannot write '\(path)': \(String(cString: strerror(code)))")
        }
    }
}
