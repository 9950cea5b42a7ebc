import FoundationEssentials
import WshModel

/// A file uploaded through `/api/v2/media`, kept by the sandbox as what it
/// says of it (its bytes are not served back).
struct SandboxMedia: Sendable, Hashable {
    var id: Int64
    /// The uploader's user index: only they may attach it.
    var owner: Int
    /// `image`, `gifv`, `video` or `audio`, read from the content.
    var type: String
    /// The file name extension its type has (`png`).
    var fileExtension: String
    var description: String?
    var size: Int
    /// False until its first `GET /api/v1/media/:id` (or until a status attaches it).
    var processed: Bool
    /// The status it is attached to (an ordinal), if any.
    var attachedTo: Int?
}

/// A poll as a post asks for it: `poll[options][]`, `poll[expires_in]` (seconds), `poll[multiple]`.
struct PollRequest: Sendable, Hashable {
    var options: [String]
    var expiresIn: Int
    var multiple: Bool
}

/// A poll posted with a status.
struct SandboxPoll: Sendable, Hashable {
    var options: [String]
    var expiresAt: Timestamp
    var multiple: Bool
}

/// Uploads, posted polls and votes: what `post --media/--poll` and `vote`
/// leave in the sandbox. Part of the `Timeline` value, so it is reset with it.
struct PostingState: Sendable {
    var media: [Int64: SandboxMedia] = [:]
    var mediaCount = 0
    /// Posted polls by their status's ordinal (a poll's id is that ordinal).
    var polls: [Int: SandboxPoll] = [:]
    /// Each poll's votes (poll id → voter → 0-based choices), generated polls included.
    var votes: [Int: [Int: [Int]]] = [:]
}

/// A poll as it is rendered: a generated one or a posted one, with the votes cast through the API.
struct PollState: Sendable {
    var id: Int
    var options: [String]
    var counts: [Int]
    var voters: Int
    var expiresAt: Timestamp
    var expired: Bool
    var multiple: Bool
    /// The viewer's choices, nil when they have not voted.
    var own: [Int]?
}

extension Timeline {
    /// Uploaded media ids start above every status id and below the generated
    /// media's (`status id × 10 + n`), in the range every id style writes as a real server does.
    static let firstMediaID: Int64 = 6_000_000_000_000_000

    /// The sandbox's "now": the data's newest moment, a minute later for each write.
    var now: Timestamp { lastWriteTime }

    mutating func addMedia(owner: Int, type: String, fileExtension: String, description: String?, size: Int,
                           processed: Bool) -> SandboxMedia {
        posting.mediaCount += 1
        let media = SandboxMedia(id: Self.firstMediaID + Int64(posting.mediaCount), owner: owner, type: type,
                                 fileExtension: fileExtension, description: description, size: size, processed: processed)
        posting.media[media.id] = media
        return media
    }

    func media(id: Int64) -> SandboxMedia? { posting.media[id] }

    /// Marks `id` processed: the step a `GET` takes.
    mutating func processMedia(id: Int64) {
        posting.media[id]?.processed = true
    }

    mutating func describeMedia(id: Int64, description: String?) {
        posting.media[id]?.description = description
    }

    /// Whether `media` may be attached now: its status, if any, was deleted.
    func isUnattached(_ media: SandboxMedia) -> Bool {
        guard let ordinal = media.attachedTo else { return true }
        return isDeleted(ordinal: ordinal)
    }

    /// Attaches media `ids` (checked by the caller) and the poll asked for to
    /// `status`, just posted; attaching finishes processing. The poll closes
    /// `expiresIn` seconds after the status.
    mutating func attach(_ ids: [Int64], poll: PollRequest?, to status: SandboxStatus) {
        for id in ids {
            posting.media[id]?.attachedTo = status.ordinal
            posting.media[id]?.processed = true
        }
        if let poll {
            let closes = status.createdAt.date.addingTimeInterval(TimeInterval(poll.expiresIn))
            posting.polls[status.ordinal] = SandboxPoll(options: poll.options, expiresAt: Timestamp(date: closes),
                                                        multiple: poll.multiple)
        }
    }

    /// The poll of `status`, with the votes cast, as `viewer` sees it; nil when it has none.
    func poll(of status: SandboxStatus, viewer: Int?) -> PollState? {
        let base: (options: [String], counts: [Int], expiresAt: Timestamp, multiple: Bool)
        if let posted = posting.polls[status.ordinal] {
            base = (posted.options, posted.options.map { _ in 0 }, posted.expiresAt, posted.multiple)
        } else if hasGeneratedPoll(status) {
            let options = [["今天吃什么", "Pizza", "火锅"], ["Swift", "Kotlin"], ["早起", "熬夜", "都不", "Both"]][status.ordinal % 3]
            base = (options, options.indices.map { (status.ordinal * (7 + $0 * 13)) % 97 },
                    Timestamp(date: status.createdAt.date.addingTimeInterval(86_400)), status.ordinal % 2 == 0)
        } else {
            return nil
        }
        var counts = base.counts
        let cast = posting.votes[status.ordinal] ?? [:]
        for choices in cast.values { for choice in choices where counts.indices.contains(choice) { counts[choice] += 1 } }
        // A generated poll's voters are its votes (one choice each), plus those who voted here.
        let voters = (posting.polls[status.ordinal] == nil ? base.counts.reduce(0, +) : 0) + cast.count
        return PollState(id: status.ordinal, options: base.options, counts: counts, voters: voters,
                         expiresAt: base.expiresAt, expired: base.expiresAt.date <= now.date, multiple: base.multiple,
                         own: viewer.flatMap { cast[$0] })
    }

    mutating func vote(in poll: Int, by voter: Int, choices: [Int]) {
        posting.votes[poll, default: [:]][voter] = choices
    }
}
