import WshArchive
import WshModel
import WshRequest

/// How the timeline consults the local archive: where the file is, and
/// whether to answer from it alone (`--offline`) or keep what is read live
/// (`archive on`). Without `offline`, the archive answers only when the
/// server cannot be reached.
public struct ArchiveAttachment: Sendable {
    /// The archive file; opened the first time it is needed, so a session
    /// that never falls back pays nothing for it.
    public var path: String
    /// The server's key in the archive (`ArchiveScope.server`).
    public var server: String
    /// The account, when known; nil: any account's rows on `server`.
    public var account: String?
    /// `mastodon` or `weibo`, for pages kept live.
    public var api: String
    /// Answer every timeline from the archive, sending nothing.
    public var offline: Bool
    /// Keep each page read from the server in the archive as it arrives.
    public var keepsLive: Bool
    /// The most pages the file may grow to (`ArchiveStore`'s `maximumPages`); nil: no limit but the disk's.
    public var maximumPages: Int?
    /// The store, once opened.
    var store: ArchiveStore?

    public init(path: String, server: String, account: String?, api: String, offline: Bool, keepsLive: Bool,
                maximumPages: Int? = nil) {
        self.path = path
        self.server = server
        self.account = account
        self.api = api
        self.offline = offline
        self.keepsLive = keepsLive
        self.maximumPages = maximumPages
    }
}

extension TimelineDataController {
    /// Attaches (or with nil detaches) the local archive as one more source.
    public func attachArchive(_ attachment: ArchiveAttachment?) {
        archive.withLock { $0 = attachment }
    }

    /// The archive attached, if any.
    public var archiveAttachment: ArchiveAttachment? {
        archive.withLock { $0 }
    }

    /// A page of `source`: from the archive when offline; else from the
    /// server (kept in the archive when `archive on`), and from the archive
    /// when the server cannot be reached and the archive has the source.
    /// The trace says which answered; the ViewModel above never knows.
    func loadConsultingArchive(_ source: TimelineSource, count: Int, from cursor: TimelineCursor?)
        async throws(RequestError) -> TimelineSlice {
        if case .archive(let query, let file) = source { return try archiveMatches(query, file: file, count: count, from: cursor) }
        guard let attachment = archiveAttachment else { return try await statuses.timeline(source, count: count, from: cursor) }
        if attachment.offline {
            return try archivedPage(source, count: count, from: cursor, failure: nil)
        }
        let body = attachment.keepsLive ? KeptBody() : nil
        do {
            let slice = try await statuses.timeline(source, count: count, from: cursor, body: body)
            if let body { keepLive(slice, body: body, source: source) }
            return slice
        } catch {
            guard case .transport = error else { throw error }
            return try archivedPage(source, count: count, from: cursor, failure: error)
        }
    }

    /// The page the archive holds for `source`, below `cursor`'s id. With a
    /// `failure` (the server could not be reached), no page there means that failure.
    private func archivedPage(_ source: TimelineSource, count: Int, from cursor: TimelineCursor?, failure: RequestError?)
        throws(RequestError) -> TimelineSlice {
        let call = "ArchiveStore.statuses(\(source), count: \(count)\(cursor.map { ", from: \($0)" } ?? ""))"
        let olderThan: String?
        switch cursor {
        case nil: olderThan = nil
        case .olderThan(let id)?: olderThan = id
        case .page, .link:
            if let failure { throw failure }
            olderThan = nil
        }
        let found: [Status]
        do {
            guard let store = try openArchive() else {
                if let failure { throw failure }
                throw RequestError.configuration("offline, and there is no archive yet (archive sync makes one)")
            }
            found = try store.statuses(server: archiveAttachment?.server ?? "", account: archiveAttachment?.account,
                                       source: source.description, limit: count, olderThan: olderThan)
        } catch let error as RequestError {
            throw error
        } catch {
            if let failure { throw failure }
            throw RequestError.configuration("\(error)")
        }
        if found.isEmpty, cursor == nil, let failure { throw failure }
        statuses.api.archiveHit(call: call, itemCount: found.count)
        statuses.remember(found)
        let next = found.count < count ? nil : found.last?.identifier.map { TimelineCursor.olderThan(id: $0) }
        return TimelineSlice(statuses: found, next: next)
    }

    /// `archive search`: the best `count` matches of `query` in the archive
    /// `file`, as a timeline's rows (one page: the best are all there is).
    /// A status deleted on the server comes marked `deleted`. `detail N`
    /// opens each from here too (`archivedStatus`), with no request.
    private func archiveMatches(_ query: String, file: String, count: Int, from cursor: TimelineCursor?)
        throws(RequestError) -> TimelineSlice {
        guard cursor == nil else { return TimelineSlice(statuses: [], next: nil) }
        let matches: [ArchiveMatch]
        do {
            let store = archiveAttachment?.path == file ? try openArchive() : nil
            matches = try (store ?? ArchiveStore(path: file, create: false)).search(query, limit: count)
        } catch let error as ArchiveError {
            throw RequestError.configuration(error.message)
        } catch {
            throw RequestError.configuration("\(error)")
        }
        let found = matches.map { match in
            var status = match.status
            if match.deletedAt != nil { status.deleted = true }
            return status
        }
        archiveAnswered.withLock { answered in
            answered = Dictionary(found.compactMap { status in status.identifier.map { ($0, status) } },
                                  uniquingKeysWith: { first, _ in first })
        }
        statuses.api.archiveHit(call: "ArchiveStore.search(\(String(reflecting: query)), limit: \(count))", itemCount: found.count)
        statuses.remember(found)
        return TimelineSlice(statuses: found, next: nil)
    }

    /// A status the last `archive search` showed, as the archive keeps it (nil: not one of them).
    func archivedStatus(id: String) -> Status? {
        guard let status = archiveAnswered.withLock({ $0[id] }) else { return nil }
        statuses.api.archiveHit(call: "ArchiveStore.status(id: \(String(reflecting: id)))", itemCount: 1)
        return status
    }

    /// The attached archive's store, opened once; nil when the file does not exist.
    private func openArchive() throws(ArchiveError) -> ArchiveStore? {
        if let store = archiveAttachment?.store { return store }
        guard let path = archiveAttachment?.path else { return nil }
        let store: ArchiveStore
        do {
            store = try ArchiveStore(path: path, create: archiveAttachment?.keepsLive ?? false,
                                     maximumPages: archiveAttachment?.maximumPages)
        } catch where error.message.hasPrefix("no archive") {
            return nil
        }
        archive.withLock { $0?.store = store }
        return store
    }

    /// `archive on`: the page just read, kept (its cursors untouched: a sync walks its own).
    /// A write that fails (a full disk, a read-only file) leaves the page shown as it
    /// arrived: the failure is traced once, as a failed `ArchiveStore.store`, and
    /// keeping stops until `archive on` again.
    private func keepLive(_ slice: TimelineSlice, body: KeptBody, source: TimelineSource) {
        guard let attachment = archiveAttachment else { return }
        let call = "ArchiveStore.store(\(source), count: \(slice.statuses.count))"
        let store: ArchiveStore
        do {
            guard let opened = try openArchive() else { return }
            store = opened
        } catch {
            return pauseKeeping(call: call, error)
        }
        let raw = body.data.map(RawStatuses.byID) ?? [:]
        let page = slice.statuses.map { status in
            if let kept = status.identifier.flatMap({ raw[$0] }) {
                return ArchivedStatus(status: status, json: kept.json, language: kept.language)
            }
            return ArchivedStatus(status: status, json: ArchiveCursorText.modelJSON(status), modelEncoded: true)
        }
        let scope = ArchiveScope(server: attachment.server, account: attachment.account ?? "anonymous", api: attachment.api,
                                 source: source.description)
        do {
            try store.store(page, scope: scope, cursors: nil)
        } catch {
            pauseKeeping(call: call, error)
        }
    }

    private func pauseKeeping(call: String, _ error: ArchiveError) {
        archive.withLock { $0?.keepsLive = false }
        statuses.api.archiveFailed(call: call,
                                   message: "archive on: \(error.message); keeping timelines is paused (archive on starts it again)")
    }
}
