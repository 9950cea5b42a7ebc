import FoundationEssentials
import WshText
import Hummingbird
import NIOCore
import WshModel

/// A file of a multipart body.
struct UploadedFile: Sendable {
    var filename: String
    var contentType: String
    var bytes: [UInt8]
}

/// Media uploads (`POST /api/v2/media` answers 202 and processes the file
/// on its first `GET /api/v1/media/:id`; `/api/v1/media` answers it done),
/// the media and polls of `POST /api/v1/statuses`, polls and votes.
extension MastodonAPI {
    /// The largest upload the sandbox takes (forms and JSON stay at 64 KB).
    static let maximumMediaBytes = 8 << 20

    /// Whether a request is a media upload, whose body may be up to `maximumMediaBytes`.
    static func isUpload(path: String, contentType: String) -> Bool {
        contentType.lowercased().hasPrefix("multipart/form-data") && (path == "/api/v1/media" || path == "/api/v2/media")
    }

    // MARK: Multipart

    /// The fields of a `multipart/form-data` body: text parts as parameters, file parts as files.
    static func readMultipart(_ body: ByteBuffer, contentType: String, into parameters: inout Parameters) throws {
        guard let boundary = contentType.split(separator: ";").lazy
            .map({ $0.trimmingSpaces })
            .first(where: { $0.lowercased().hasPrefix("boundary=") })
            .map({ String($0.dropFirst(9)).trimming("\"") }),
            !boundary.isEmpty else {
            throw MastodonError.badParameter("multipart/form-data without a boundary")
        }
        let bytes = Array(body.readableBytesView)
        let delimiter = Array("--\(boundary)".utf8)
        var starts = positions(of: delimiter, in: bytes)
        guard starts.count >= 2 else { throw MastodonError.badParameter("the multipart body has no parts") }
        for (start, end) in zip(starts, starts.dropFirst()) {
            var part = Array(bytes[(start + delimiter.count)..<end])
            // Each part: CRLF, headers, a blank line, the content, CRLF before the next delimiter.
            if part.starts(with: [13, 10]) { part.removeFirst(2) }
            if part.suffix(2) == [13, 10] { part.removeLast(2) }
            guard let blank = positions(of: [13, 10, 13, 10], in: part).first else { continue }
            let headers = String(decoding: part[..<blank], as: UTF8.self)
            let content = Array(part[(blank + 4)...])
            var name: String?
            var filename: String?
            var type = "application/octet-stream"
            for line in headers.split(separator: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    name = Self.dispositionValue("name", in: String(line))
                    filename = Self.dispositionValue("filename", in: String(line))
                } else if lower.hasPrefix("content-type:") {
                    type = line.dropFirst("content-type:".count).trimmingSpaces
                }
            }
            guard let name else { continue }
            if let filename {
                parameters.files[name] = UploadedFile(filename: filename, contentType: type, bytes: content)
            } else {
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw MastodonError.badParameter("parameter encoding is not valid UTF-8")
                }
                parameters.add(name, text)
            }
        }
    }

    /// `name="value"` of a Content-Disposition line.
    private static func dispositionValue(_ key: String, in line: String) -> String? {
        for piece in line.split(separator: ";").map({ $0.trimmingSpaces }) {
            guard piece.lowercased().hasPrefix(key + "=") else { continue }
            return String(piece.dropFirst(key.count + 1)).trimming("\"")
        }
        return nil
    }

    /// Where `needle` starts in `haystack`, left to right, not overlapping.
    private static func positions(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        var index = 0
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The kind of a file from its first bytes, as Mastodon reads it: (`type`, extension); nil for one it refuses.
    static func mediaKind(_ bytes: [UInt8]) -> (type: String, fileExtension: String)? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return ("image", "png") }
        if starts([0xFF, 0xD8, 0xFF]) { return ("image", "jpg") }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return ("gifv", "gif") }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return ("image", "webp") }
        if starts(Array("ftyp".utf8), at: 4) { return ("video", "mp4") }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return ("video", "webm") }
        if starts(Array("OggS".utf8)) { return ("audio", "ogg") }
        if starts(Array("ID3".utf8)) { return ("audio", "mp3") }
        return nil
    }

    // MARK: Media

    /// `POST /api/v2/media` (202, processed later) and `/api/v1/media` (200, done): `file`, `description`.
    func uploadMedia(_ call: Call, actor: Int, synchronous: Bool) throws -> Reply {
        guard let file = call.parameters.files["file"] else { throw MastodonError.validation("File can't be blank") }
        guard let kind = Self.mediaKind(file.bytes) else {
            throw MastodonError.validation("File content type is invalid, File is invalid")
        }
        let description = call.parameters.nonEmpty("description")
        if let description, description.count > 1500 {
            throw MastodonError.validation("Description is too long (maximum is 1500 characters)")
        }
        return write(as: actor, status: synchronous ? .ok : .accepted) { timeline, render in
            let media = timeline.addMedia(owner: actor, type: kind.type, fileExtension: kind.fileExtension,
                                          description: description, size: file.bytes.count, processed: synchronous)
            return render(timeline).mediaJSON(media)
        }
    }

    /// `GET /api/v1/media/:id`: the caller's upload; asking is the step that finishes processing.
    func showMedia(_ call: Call, actor: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        guard let media = store.timeline.media(id: id), media.owner == actor else { throw MastodonError.notFound }
        return write(as: actor, effect: media.processed ? nil : .write) { timeline, render in
            timeline.processMedia(id: id)
            return render(timeline).mediaJSON(timeline.media(id: id)!)
        }
    }

    /// `PUT /api/v1/media/:id`: a new `description` for the caller's upload.
    func updateMedia(_ call: Call, actor: Int, id: String) throws -> Reply {
        let id = try identifier(id)
        guard let media = store.timeline.media(id: id), media.owner == actor else { throw MastodonError.notFound }
        let description = call.parameters.nonEmpty("description")
        return write(as: actor) { timeline, render in
            timeline.describeMedia(id: id, description: description ?? media.description)
            return render(timeline).mediaJSON(timeline.media(id: id)!)
        }
    }

    // MARK: Statuses with media and polls

    /// The media ids (parsed, not yet checked against their owner) and the
    /// poll of a post; 422 as Mastodon words it for what it refuses.
    func attachments(_ parameters: Parameters) throws -> (media: [Int64], poll: PollRequest?) {
        let media = try parameters.list("media_ids").map { text -> Int64 in
            guard let id = state.ids.parse(text) else { throw MastodonError.validation("Media ids are invalid") }
            return id
        }
        guard media.count <= 4 else { throw MastodonError.validation("Media attachments must be at most 4") }
        let options = parameters.list("poll[options]")
        guard !options.isEmpty else { return (media, nil) }
        guard media.isEmpty else { throw MastodonError.validation("Poll cannot be attached to a status with media") }
        guard (2...4).contains(options.count) else { throw MastodonError.validation("Poll must have between 2 and 4 options") }
        guard options.allSatisfy({ !$0.isEmpty && $0.count <= 50 }) else {
            throw MastodonError.validation("Poll options must be 1 to 50 characters")
        }
        guard Set(options).count == options.count else { throw MastodonError.validation("Poll options must be unique") }
        guard let expiresIn = parameters["poll[expires_in]"].flatMap({ Int($0) }), (300...2_629_746).contains(expiresIn) else {
            throw MastodonError.validation("Poll expiration must be between 5 minutes and 1 month")
        }
        return (media, PollRequest(options: options, expiresIn: expiresIn, multiple: parameters.flag("poll[multiple]")))
    }

    /// Refuses `media` unless each is the actor's own and not on another status.
    static func checkAttachable(_ media: [Int64], by actor: Int, in timeline: Timeline) throws {
        for id in media {
            guard let uploaded = timeline.media(id: id), uploaded.owner == actor else {
                throw MastodonError.validation("Media attachments are invalid")
            }
            guard timeline.isUnattached(uploaded) else {
                throw MastodonError.validation("Media attachments are already attached to another status")
            }
        }
    }

    // MARK: Polls

    /// The status a poll id names (polls are numbered by their status's ordinal) and its poll.
    private func pollStatus(_ text: String, in timeline: Timeline, viewer: Int?) throws -> (SandboxStatus, PollState) {
        guard let number = state.ids.parse(text), number > 0, number <= Int64(timeline.ordinalCount),
              !timeline.isDeleted(ordinal: Int(number)), let status = timeline.status(ordinal: Int(number)),
              let poll = timeline.poll(of: status, viewer: viewer) else { throw MastodonError.notFound }
        return (status, poll)
    }

    /// `GET /api/v1/polls/:id`.
    func showPoll(_ call: Call, viewer: Int?, id: String) throws -> Reply {
        let timeline = store.timeline
        let (_, poll) = try pollStatus(id, in: timeline, viewer: viewer)
        return Self.json(renderer(timeline, viewer: viewer).pollJSON(poll))
    }

    /// `POST /api/v1/polls/:id/votes` with `choices[]` (0-based): 422 for a
    /// closed poll, a second vote, a choice out of range, or several on a single-choice poll.
    func vote(_ call: Call, actor: Int, id: String) throws -> Reply {
        let choiceTexts = call.parameters.list("choices")
        return try write(as: actor) { timeline, render in
            let (status, poll) = try pollStatus(id, in: timeline, viewer: actor)
            guard !poll.expired else { throw MastodonError.validation("The poll has already ended") }
            guard poll.own == nil else { throw MastodonError.validation("You have already voted on this poll") }
            let choices = try choiceTexts.map { text -> Int in
                guard let choice = Int(text), poll.options.indices.contains(choice) else {
                    throw MastodonError.validation("Choice \(text) is not one of the poll's options")
                }
                return choice
            }
            guard !choices.isEmpty else { throw MastodonError.validation("Choices can't be blank") }
            guard Set(choices).count == choices.count else { throw MastodonError.validation("Choices must be unique") }
            guard poll.multiple || choices.count == 1 else {
                throw MastodonError.validation("This poll takes one choice")
            }
            timeline.vote(in: poll.id, by: actor, choices: choices)
            let after = timeline.poll(of: status, viewer: actor)!
            return render(timeline).pollJSON(after)
        }
    }
}
