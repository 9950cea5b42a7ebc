import FoundationEssentials
import Synchronization
import WshArchive
import WshRequest
import WshText

/// What one `archive media` run may take.
public struct ArchiveMediaLimits: Sendable, Hashable {
    /// The largest file kept; a larger one is cut and not kept.
    public var maxBytes: Int
    /// A file whose bytes stop coming for this long is cut (a server that never ends).
    public var stall: Duration
    /// The longest one file may take in all, however slowly its bytes keep coming.
    public var total: Duration
    /// Files fetched at once from hosts other than the API's (the API's own are one at a time, paced).
    public var lanes: Int
    /// The most files tried in this run (`--limit N`); nil for all that are missing.
    public var count: Int?

    public init(maxBytes: Int = 100 << 20, stall: Duration = .seconds(30), total: Duration = .seconds(600), lanes: Int = 4,
                count: Int? = nil) {
        self.maxBytes = maxBytes
        self.stall = stall
        self.total = total
        self.lanes = lanes
        self.count = count
    }
}

/// A URL this run tried and did not keep, and why (one line).
public struct ArchiveMediaFailure: Sendable, Hashable {
    public let url: String
    public let reason: String
}

/// How an `archive media` run went.
public struct ArchiveMediaResult: Sendable {
    public enum End: Sendable {
        /// Every file tried (or `--limit` of them).
        case done
        /// Ctrl-C: what was kept stays kept, the file under way was removed.
        case interrupted
        /// The folder or the archive could not be written (a full disk, a read-only folder): the run stopped.
        case failed(ArchiveError)
    }

    /// Files kept in this run, and their bytes.
    public var kept = 0
    public var keptBytes = 0
    /// URLs tried and not kept, in the order they failed.
    public var failures: [ArchiveMediaFailure] = []
    /// URLs the statuses show that are still not kept after the run.
    public var missing = 0
    public var end = End.done
}

/// The HTTP client one lane of downloads uses: its body streamed to a file,
/// its transfer stopped when the file stalls.
public typealias MediaHTTPClient = StreamingHTTPClient & CancellableHTTPClient

extension TimelineDataController {
    /// Downloads the files the kept statuses of `sources` show (all kept
    /// statuses when nil; only those of `rowids` when given): attachments, avatars, custom emojis, each noted in
    /// `media_files` first, then each missing one fetched into the media folder
    /// beside the archive (`ArchiveMediaFolder`), named by its SHA-256 once
    /// it passed its checks (HTTP 200, its whole length, a picture, video or
    /// sound type its first bytes agree with, within `limits`). A file on the
    /// API's host waits for the rate-limit budget, one at a time; others go
    /// `limits.lanes` at once, each lane on a client `client` makes. Ctrl-C
    /// (the task cancelled) stops it with what was kept; `progress` hears how
    /// many files were tried.
    public func fetchArchiveMedia(_ store: ArchiveStore, sources: [String]?, ofStatuses rowids: [Int64]? = nil, limits: ArchiveMediaLimits,
                                  client: @escaping @Sendable () -> any MediaHTTPClient,
                                  progress: @escaping @Sendable (Int) -> Void = { _ in }) async -> ArchiveMediaResult {
        let folder = ArchiveMediaFolder(archivePath: store.path)
        let noted: (wanted: [ArchiveMediaWanted], missing: Int)
        do {
            try folder.prepare()
            noted = try store.noteMedia(sources: sources, statuses: rowids)
        } catch {
            var result = ArchiveMediaResult()
            result.end = .failed(error)
            return result
        }
        let wanted = limits.count.map { Array(noted.wanted.prefix($0)) } ?? noted.wanted
        let apiOrigin = MediaDownload.origin(of: statuses.api.client.configuration.baseURL)
        let onAPIHost = wanted.filter { MediaDownload.origin(of: $0.url) == apiOrigin }
        let elsewhere = MediaQueue(wanted.filter { MediaDownload.origin(of: $0.url) != apiOrigin })
        let run = MediaRun(store: store, folder: folder, limits: limits, progress: progress)
        await withTaskGroup(of: Void.self) { group in
            if !onAPIHost.isEmpty {
                let queue = MediaQueue(onAPIHost)
                let pacer = MediaPacer(budget: await requestBudget(), refresh: { [self] in await requestBudget() })
                group.addTask { await run.lane(queue, client: client(), pacer: pacer) }
            }
            for _ in 0..<min(max(1, limits.lanes), elsewhere.count) {
                group.addTask { await run.lane(elsewhere, client: client(), pacer: nil) }
            }
        }
        var result = run.result
        result.missing = max(0, noted.missing - result.kept)
        if case .done = result.end, Task.isCancelled { result.end = .interrupted }
        return result
    }
}

/// The URLs a lane takes its next from.
final class MediaQueue: Sendable {
    private let items: Mutex<ArraySlice<ArchiveMediaWanted>>
    var count: Int { items.withLock { $0.count } }

    init(_ items: [ArchiveMediaWanted]) {
        self.items = Mutex(items[...])
    }

    func next() -> ArchiveMediaWanted? {
        items.withLock { $0.popFirst() }
    }
}

/// One run's lanes, what they kept, and whether the run must stop.
final class MediaRun: Sendable {
    private let store: ArchiveStore
    private let folder: ArchiveMediaFolder
    private let limits: ArchiveMediaLimits
    private let progress: @Sendable (Int) -> Void
    /// The result so far; the store is written under the same lock (one connection, one user at a time).
    private let state = Mutex(ArchiveMediaResult())

    init(store: ArchiveStore, folder: ArchiveMediaFolder, limits: ArchiveMediaLimits, progress: @escaping @Sendable (Int) -> Void) {
        self.store = store
        self.folder = folder
        self.limits = limits
        self.progress = progress
    }

    var result: ArchiveMediaResult { state.withLock { $0 } }

    private var stopped: Bool {
        state.withLock { if case .done = $0.end { false } else { true } }
    }

    /// Downloads the URLs of `queue` one after another, each after the pause
    /// `pacer` asks for (nil: no pause), until the queue is empty, Ctrl-C, or the run stops.
    func lane(_ queue: MediaQueue, client: any MediaHTTPClient, pacer: MediaPacer?) async {
        var pacer = pacer
        while !stopped, !Task.isCancelled, let item = queue.next() {
            if let pause = await pacer?.pauseBeforeNextFile(), pause > .zero {
                do { try await Task.sleep(for: pause) } catch { return }
            }
            let download = MediaDownload(url: item.url, folder: folder, limits: limits, client: client)
            record(item, await download.run())
        }
    }

    private func record(_ item: ArchiveMediaWanted, _ outcome: MediaDownload.Outcome) {
        let tried = state.withLock { result -> Int? in
            guard case .done = result.end else { return nil }
            do throws(ArchiveError) {
                switch outcome {
                case .kept(let sha256, let bytes, let type):
                    try store.keepMedia(url: item.url, sha256: sha256, bytes: bytes, type: type)
                    result.kept += 1
                    result.keptBytes += bytes
                case .refused(let reason):
                    try store.failMedia(url: item.url, failure: reason)
                    result.failures.append(ArchiveMediaFailure(url: item.url, reason: reason))
                case .folderFailed(let error):
                    // The folder's fault, not the URL's: no try is counted.
                    result.end = .failed(error)
                case .cancelled:
                    result.end = .interrupted
                }
            } catch {
                result.end = .failed(error)
            }
            return result.kept + result.failures.count
        }
        if let tried { progress(tried) }
    }
}

/// The pace of files on the API's host: the account's rate-limit budget, as
/// a sync is paced. The budget is asked of the server again every
/// `refreshEvery` files, since a server may not count its files against
/// it: the pause grows only when the server's own count runs low.
struct MediaPacer: Sendable {
    var budget: RequestBudget
    let refresh: @Sendable () async -> RequestBudget
    private var files = 0

    static let refreshEvery = 50

    init(budget: RequestBudget, refresh: @escaping @Sendable () async -> RequestBudget) {
        self.budget = budget
        self.refresh = refresh
    }

    /// The pause before the next file, counting it.
    mutating func pauseBeforeNextFile() async -> Duration {
        defer { files += 1 }
        if files > 0, files % Self.refreshEvery == 0 { budget = await refresh() }
        let pause = budget.pauseBeforeNextRequest()
        return files == 0 ? .zero : pause
    }
}

/// One file's download: streamed into a temporary file of the folder, cut
/// when it stalls, grows past the limit or turns out to be no media, then
/// checked and kept under its hash, or removed.
struct MediaDownload {
    let url: String
    let folder: ArchiveMediaFolder
    let limits: ArchiveMediaLimits
    let client: any MediaHTTPClient

    enum Outcome: Sendable {
        case kept(sha256: String, bytes: Int, type: String)
        /// The server's answer was not kept: why, in one line.
        case refused(String)
        /// The folder could not be written: the run stops.
        case folderFailed(ArchiveError)
        case cancelled
    }

    /// The redirects followed (a CDN's, from `http` to `https`).
    static let redirects = 5

    func run() async -> Outcome {
        var target = url
        for _ in 0...Self.redirects {
            switch await fetch(target) {
            case .redirect(let location):
                // Never to a local file or another protocol libcurl speaks: only to the web.
                guard location.hasPrefix("http://") || location.hasPrefix("https://") else {
                    return .refused("redirected to \(location.prefix(60)), which is not http or https")
                }
                target = location
            case .outcome(let outcome):
                return outcome
            }
        }
        return .refused("more than \(Self.redirects) redirects")
    }

    private enum Step {
        case redirect(String)
        case outcome(Outcome)
    }

    private func fetch(_ target: String) async -> Step {
        let file: ArchiveMediaFile
        do { file = try folder.newFile() } catch { return .outcome(.folderFailed(error)) }
        let transfer = MediaTransfer(file: file, limits: limits)
        let watchdog = Task { [client] in await transfer.watch(client) }
        defer { watchdog.cancel() }
        let request = HTTPRequest(url: target, headers: [HTTPHeader("Accept", "image/*, video/*, audio/*, */*;q=0.1")])
        let response: HTTPResponse
        do {
            response = try await client.stream(request) { transfer.receive($0) }
        } catch {
            file.discard()
            if let cut = transfer.cut { return .outcome(cut.outcome(limits)) }
            if case .cancelled = error { return .outcome(.cancelled) }
            return .outcome(.refused(Self.line(error)))
        }
        watchdog.cancel()
        guard response.status == 200 else {
            file.discard()
            if (300..<400).contains(response.status), let location = response.headers["location"] {
                return .redirect(Self.resolve(location, against: target))
            }
            return .outcome(.refused("the server answered HTTP \(response.status), not 200"))
        }
        if let cut = transfer.cut {
            file.discard()
            if case .notMedia = cut, case .failure(let refusal) = ArchiveMediaType.checked(contentType: response.headers["content-type"],
                                                                                          head: file.head) {
                return .outcome(.refused(refusal.line))
            }
            return .outcome(cut.outcome(limits))
        }
        // A length the server announced is checked, unless it announced that of a compressed body libcurl decoded.
        if response.headers["content-encoding"] == nil, let announced = response.headers["content-length"].flatMap({ Int($0) }),
           announced != file.bytes {
            file.discard()
            return .outcome(.refused("the server announced \(announced) bytes and sent \(file.bytes)"))
        }
        switch ArchiveMediaType.checked(contentType: response.headers["content-type"], head: file.head) {
        case .failure(let refusal):
            file.discard()
            return .outcome(.refused(refusal.line))
        case .success(let type):
            do {
                let sha256 = try file.keep(type: type)
                return .outcome(.kept(sha256: sha256, bytes: file.bytes, type: type))
            } catch {
                file.discard()
                return .outcome(.folderFailed(error))
            }
        }
    }

    /// A failed transfer in one line, without the URL (the row says it).
    private static func line(_ error: RequestError) -> String {
        if case .transport(let failure) = error { return failure.kind.rawValue + ": " + failure.message }
        return error.description
    }

    /// `scheme://host:port` of `url`, lower-cased: what says whether a file is on the API's host.
    static func origin(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return (url[..<scheme.upperBound] + authority).lowercased()
    }

    /// A `Location` header as a whole URL: absolute, or a path on `base`'s host.
    static func resolve(_ location: String, against base: String) -> String {
        if location.contains("://") { return location }
        if location.hasPrefix("//") { return String(base.prefix { $0 != ":" }) + ":" + location }
        if location.hasPrefix("/") { return origin(of: base) + location }
        let folder = base.lastIndex(of: "/").map { String(base[...$0]) } ?? base + "/"
        return folder + location
    }
}

/// The state one transfer shares between the thread that receives its
/// bytes and the watchdog that cuts it when they stop coming.
final class MediaTransfer: Sendable {
    /// Why a transfer was cut before its end.
    enum Cut: Sendable {
        case stalled
        case tooLong
        case tooLarge
        /// Its first bytes are no picture, video or sound: the rest is not worth reading.
        case notMedia
        case folderFailed(ArchiveError)

        func outcome(_ limits: ArchiveMediaLimits) -> MediaDownload.Outcome {
            switch self {
            case .stalled: .refused("no byte came for \(MediaTransfer.seconds(limits.stall)): cut, nothing kept")
            case .tooLong: .refused("still coming after \(MediaTransfer.seconds(limits.total)): cut, nothing kept")
            case .tooLarge: .refused("larger than the limit of \(MediaTransfer.megabytes(limits.maxBytes)) (--max-size): cut, nothing kept")
            case .notMedia: .refused("its bytes are no picture, video or sound")
            case .folderFailed(let error): .folderFailed(error)
            }
        }
    }

    private struct State {
        var lastByte = ContinuousClock.now
        var cut: Cut?
    }

    /// Touched only by the thread the client receives on, one chunk at a time.
    private let file: Mutex<ArchiveMediaFile>
    private let limits: ArchiveMediaLimits
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(file: ArchiveMediaFile, limits: ArchiveMediaLimits) {
        self.file = Mutex(file)
        self.limits = limits
    }

    var cut: Cut? { state.withLock { $0.cut } }

    /// Writes one chunk; false stops the transfer.
    func receive(_ data: Data) -> Bool {
        if state.withLock({ $0.cut != nil }) { return false }
        let problem: Cut? = file.withLock { file in
            if file.bytes + data.count > limits.maxBytes { return .tooLarge }
            if ContinuousClock.now - started > limits.total { return .tooLong }
            let headWasShort = file.head.count < ArchiveMediaType.headLength
            do throws(ArchiveError) { try file.write(data) } catch { return .folderFailed(error) }
            // Judged once, as soon as the first bytes are in.
            if headWasShort, file.head.count == ArchiveMediaType.headLength, ArchiveMediaType.sniffed(file.head) == nil {
                return .notMedia
            }
            return nil
        }
        return state.withLock { state in
            if let problem, state.cut == nil { state.cut = problem }
            state.lastByte = .now
            return state.cut == nil
        }
    }

    /// Cuts the transfer when no byte came for `limits.stall`, or it ran past `limits.total`; returns when cancelled.
    func watch(_ client: any MediaHTTPClient) async {
        let tick = min(Duration.milliseconds(250), limits.stall / 4)
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            let now = ContinuousClock.now
            let cut = state.withLock { state -> Bool in
                guard state.cut == nil else { return false }
                if now - state.lastByte > limits.stall { state.cut = .stalled } else if now - started > limits.total { state.cut = .tooLong }
                return state.cut != nil
            }
            if cut {
                client.cancelCurrentRequest()
                return
            }
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
    }
}
