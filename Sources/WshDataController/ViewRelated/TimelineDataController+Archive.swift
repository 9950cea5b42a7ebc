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
    /// The store, once opened.
    var store: ArchiveStore?

    public init(path: String, server: String, account: String?, api: String, offline: Bool, keepsLive: Bool) {
        self.path = path
        self.server = server
        self.account = account
        self.api = api
        self.offline = offline
        self.keepsLive = keepsLive
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

    /// The attached archive's store, opened once; nil when the file does not exist.
    private func openArchive() throws(ArchiveError) -> ArchiveStore? {
        if let store = archiveAttachment?.store { return store }
        guard let path = archiveAttachment?.path else { return nil }
        let store: ArchiveStore
        do {
            store = try ArchiveStore(path: path, create: archiveAttachment?.keepsLive ?? false)
        } catch where error.message.hasPrefix("no archive") {
            return nil
        }
        archive.withLock { $0?.store = store }
        return store
    }

    /// `archive on`: the page just read, kept (its cursors untouched: a sync walks its own).
    private func keepLive(_ slice: TimelineSlice, body: KeptBody, source: TimelineSource) {
        guard let attachment = archiveAttachment, let store = try? openArchive() else { return }
        let raw = body.data.map(RawStatuses.byID) ?? [:]
        let page = slice.statuses.map { status in
            if let json = status.identifier.flatMap({ raw[$0] }) { return ArchivedStatus(status: status, json: json) }
            return ArchivedStatus(status: status, json: ArchiveCursorText.modelJSON(status), modelEncoded: true)
        }
        let scope = ArchiveScope(server: attachment.server, account: attachment.account ?? "anonymous", api: attachment.api,
                                 source: source.description)
        _ = try? store.store(page, scope: scope, cursors: nil)
    }
}
