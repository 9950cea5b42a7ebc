import FoundationEssentials
import Glibc
import WshModel
import WshRequest

/// What `post` needs before its one request (the media it attaches,
/// uploaded) and `vote`.
extension StatusDataController {
    /// The largest file wsh uploads (Mastodon's own limits are lower for images: 16 MB).
    public static let mediaSizeLimit = 40 << 20
    /// How many times an upload still processing is asked after (about 10 s in all).
    static let mediaProcessingChecks = 8

    /// `draft` with each file in `media` uploaded (in order, after any ids it
    /// already had) and `media` emptied: what `post` sends, and what redo
    /// sends again without uploading twice. Every file is checked before
    /// the first is sent, so a bad path uploads nothing.
    public func upload(_ draft: StatusDraft) async throws(RequestError) -> StatusDraft {
        guard !draft.media.isEmpty else { return draft }
        if !dialect.capabilities.uploadsMedia { throw .configuration("--media: \(dialect.name) has no media uploads") }
        for file in draft.media { try Self.check(file) }
        // An API whose picture goes with the post itself (Weibo) uploads nothing first.
        if dialect.capabilities.picturesWithPost { return draft }
        var uploaded = draft
        for file in draft.media {
            var media = try await api.run("StatusDataController.uploadMedia(\(file.filename))", count: { _ in 1 }) {
                try await $0.uploadMedia(file, $1)
            }
            // Processing (url null): asked again, a little later each time, a bounded number of times.
            var checks = 0
            while media.url == nil {
                guard checks < Self.mediaProcessingChecks else {
                    throw .configuration("--media \(file.path): the server was still processing it (media \(media.id)) after \(checks) checks; try again later")
                }
                if checks > 0 {
                    do { try await Task.sleep(for: .milliseconds(100 << min(checks, 5))) } catch { throw .cancelled }
                }
                checks += 1
                let id = media.id
                media = try await api.run("StatusDataController.media(id: \(id))", count: { _ in 1 }) {
                    try await $0.media(id: id, $1)
                }
            }
            uploaded.mediaIDs.append(media.id)
        }
        uploaded.media = []
        return uploaded
    }

    /// Throws one line unless `file` is a readable regular file within the limit.
    static func check(_ file: MediaFile) throws(RequestError) {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw .configuration("--media \(file.path): no such file")
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw .configuration("--media \(file.path): is a directory") }
        guard access(file.path, R_OK) == 0 else { throw .configuration("--media \(file.path): not readable") }
        let size = Int(info.st_size)
        guard size > 0 else { throw .configuration("--media \(file.path): the file is empty") }
        guard size <= mediaSizeLimit else {
            throw .configuration("--media \(file.path): \(size >> 20) MiB is over wsh's limit of \(mediaSizeLimit >> 20) MiB")
        }
    }

    /// Votes `choices` (0-based) in the poll `pollID` of the status `statusID`;
    /// the poll after the vote, which the cached status then shows too.
    public func vote(statusID: String, pollID: String, choices: [Int]) async throws(RequestError) -> Poll {
        let poll = try await api.run("StatusDataController.vote(poll: \(pollID), choices: \(choices))", count: { _ in 1 }) {
            try await $0.vote(pollID: pollID, choices: choices, $1)
        }
        if var status = cachedStatus(id: statusID) {
            status.poll = poll
            remember([status])
        }
        return poll
    }
}

extension TimelineDataController {
    /// Why the connected API cannot post `draft` (one line), or nil: so a refusal comes before any request.
    public func refusal(of draft: StatusDraft) -> String? {
        statuses.dialect.capabilities.refusal(of: draft, api: statuses.dialect.name)
    }

    /// `draft` with its files uploaded (see `StatusDataController.upload(_:)`).
    public func upload(_ draft: StatusDraft) async throws(RequestError) -> StatusDraft {
        try await statuses.upload(draft)
    }

    /// Votes in the poll `pollID` of `statusID` (see `StatusDataController.vote(statusID:pollID:choices:)`).
    public func vote(statusID: String, pollID: String, choices: [Int]) async throws(RequestError) -> Poll {
        try await statuses.vote(statusID: statusID, pollID: pollID, choices: choices)
    }
}
