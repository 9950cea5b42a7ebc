import WshDataController
import WshLanguage
import WshModel
import WshText
import WshViewModel

/// `post` (text, and on Mastodon visibility, a content warning, a reply,
/// a language, media and a poll) and `vote`: writes recorded with their undo.
extension Shell {
    func postCommands() -> [CommandSpec] {
        var post = CommandSpec(
            name: "post", abstract: "Post a status (needs a token); it becomes row 1.",
            discussion: """
                Weibo: text, and one picture (--media FILE, JPG, GIF or PNG, under 5 MB) sent with the
                text in the post's own request (multipart, streamed from disk). Mastodon: POST /api/v1/statuses
                with visibility, spoiler_text (--cw), in_reply_to_id (--reply N: row N of the screen on top,
                as detail N reads it: a notification's status, a search result, else the list), language,
                media_ids[] and poll[options][], poll[expires_in], poll[multiple]. Each --media FILE is
                uploaded first (POST /api/v2/media, multipart, streamed from disk; at most 40 MiB), its
                --alt TEXT (the --alt after it) as the description; while the server answers
                `url: null` wsh asks GET /api/v1/media/:id again, a little later each time, for about
                10 seconds. undo deletes the status; redo posts the same draft again, re-using the
                uploaded media. An option the connected API lacks is refused before any request.
                --at TIME schedules the text instead (Mastodon): TIME is +30m, +1h, +2d, HH:MM
                (today, or tomorrow once past) or ISO 8601, at least 5 minutes ahead. The answer is
                a scheduled status (see scheduled), not a row; undo cancels it. --at carries every
                other option as a post does (--visibility, --cw, --reply, --language, --media, uploaded
                now, and --poll), and redo or undo of unschedule schedules them all again. With --at,
                --json prints {id, scheduled_at, text, visibility, spoiler_text, language, media_ids, poll}.
                  post --cw spoilers --visibility unlisted the butler did it
                  post --media cat.png --alt "a cat asleep" --language en my cat
                  post --poll "tea|coffee" --poll-expires 1h which one?
                  post --cw later --poll "yes|no" --at +1h shall we?
                """,
            arguments: [ArgumentSpec("TEXT", help: "the status text", arity: .oneOrMore)],
            options: [
                .valued("visibility", valueName: "V", help: "public, unlisted, private or direct (Mastodon)"),
                .valued("cw", valueName: "TEXT", help: "a content warning: the text stays behind it (Mastodon)"),
                .valued("reply", valueName: "N", help: "reply to row N, as detail N reads it (Mastodon)"),
                .valued("language", valueName: "xx", help: "the ISO 639-1 language code, e.g. en (Mastodon)"),
                .valued("media", valueName: "FILE", help: "attach FILE (Mastodon: uploaded first, repeatable; Weibo: one picture)"),
                .valued("alt", valueName: "TEXT", help: "alt text of the --media before it (Mastodon)"),
                .valued("poll", valueName: "\"a|b|c\"", help: "attach a poll with these options (Mastodon)"),
                .valued("poll-expires", valueName: "TIME", help: "how long the poll stays open: 30m, 1h, 3d (default 1d)"),
                .flag("multiple", help: "the poll takes several choices"),
                .valued("at", valueName: "TIME", help: "schedule it for TIME instead (Mastodon)"),
                .flag("json", help: "with --at: the scheduled status as JSON"),
            ],
            completion: { [unowned self] request in
                switch request.previousWords.last {
                case "--visibility": StatusDraft.Visibility.allCases.map(\.rawValue)
                case "--reply": rowNumbers()
                case "--poll-expires": ["30m", "1h", "6h", "1d", "3d", "7d"]
                default: []
                }
            },
            handler: { [unowned self] context in
                let (draft, replyTo) = try draft(from: context.arguments)
                if let at = context.arguments.option("at") {
                    return try schedulePost(context, draft: draft, replyTo: replyTo, at: at)
                }
                if context.arguments.flag("json") { throw LanguageError.usage("--json goes with --at: post TEXT --at TIME --json") }
                try drive(context, input: "SessionViewModel.post(…)") { try await $0.post(draft, replyTo: replyTo) }
                noteLastOperation(context)
            })
        post.currentNotes = { [unowned self] in postNotes() }
        let vote = CommandSpec(
            name: "vote", abstract: "Vote in the poll of row N: CHOICE… as detail N numbers the options.",
            discussion: """
                Mastodon: POST /api/v1/polls/:id/votes with choices[] (0-based; wsh counts from 1).
                Refused before any request: a closed poll, one you voted in, a choice out of range,
                several choices on a single-choice poll. undo cannot take a vote back: Mastodon
                has no such call, and undo says so.
                """,
            arguments: [ArgumentSpec("N", help: "the row number from list"),
                        ArgumentSpec("CHOICE", help: "an option number from detail N", arity: .oneOrMore)],
            completion: { [unowned self] request in request.argumentIndex == 0 ? rowNumbers() : [] },
            handler: { [unowned self] context in
                try refuseUnless(\.polls, "has no polls")
                let index = try integer(context.arguments["N"], name: "N") ?? 0
                var choices: [Int] = []
                for word in context.arguments.values("CHOICE") { choices.append(try integer(word, name: "CHOICE") ?? 0) }
                try drive(context, input: "SessionViewModel.vote(index: \(index), choices: \(choices))") {
                    try await $0.vote(index: index, choices: choices)
                }
                noteLastOperation(context)
            })
        return [post, vote]
    }

    /// The draft `post`'s words make, checked before anything is sent: one
    /// line for a bad value, or for an option the connected API lacks.
    func draft(from arguments: ParsedArguments) throws(LanguageError) -> (StatusDraft, replyTo: Int?) {
        var draft = StatusDraft(text: arguments.values("TEXT").joined(separator: " "))
        if let visibility = arguments.option("visibility") {
            guard let value = StatusDraft.Visibility(rawValue: visibility.lowercased()) else {
                throw .usage("--visibility: \(visibility) is not one of public, unlisted, private, direct")
            }
            draft.visibility = value
        }
        if let spoiler = arguments.option("cw") {
            guard !spoiler.allSatisfy(\.isWhitespace) else { throw .usage("--cw: the content warning is empty") }
            draft.spoiler = spoiler
        }
        let replyTo = try integer(arguments.option("reply"), name: "--reply")
        if let language = arguments.option("language") {
            guard StatusDraft.isLanguageCode(language) else {
                throw .usage("--language: \(language) is not an ISO 639-1 code (two letters, e.g. en, zh)")
            }
            draft.language = language.lowercased()
        }
        // Each --alt belongs to the --media before it.
        for given in arguments.givenOptions where given.name == "media" || given.name == "alt" {
            if given.name == "media" {
                draft.media.append(MediaFile(path: given.value))
            } else {
                guard let last = draft.media.indices.last, draft.media[last].description == nil else {
                    throw .usage("--alt goes after the --media it describes (one --alt each)")
                }
                draft.media[last].description = given.value
            }
        }
        if let options = arguments.option("poll") {
            let titles = options.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingSpaces }
            guard titles.count >= 2, !titles.contains(where: \.isEmpty) else {
                throw .usage("--poll: give two or more options separated by |, e.g. \"yes|no\"")
            }
            var poll = PollDraft(options: titles, multiple: arguments.flag("multiple"))
            if let expires = arguments.option("poll-expires") {
                guard let seconds = PollDraft.seconds(expires) else {
                    throw .usage("--poll-expires: \(expires) is not a duration (30m, 1h, 3d, or seconds)")
                }
                poll.expiresIn = seconds
            }
            draft.poll = poll
        } else if arguments.flag("multiple") || arguments.option("poll-expires") != nil {
            throw .usage("--multiple and --poll-expires go with --poll")
        }
        if draft.poll != nil && !draft.media.isEmpty {
            throw .usage("--poll and --media do not go together: a status carries media or a poll")
        }
        var checked = draft
        if replyTo != nil { checked.inReplyTo = "" }
        if let dialect = connection.knownDialect, let refusal = dialect.capabilities.refusal(of: checked, api: dialect.name) {
            throw .usage(refusal)
        }
        return (draft, replyTo)
    }

    /// What `help post` says of the connected API's options.
    func postNotes() -> String? {
        guard let dialect = connection.knownDialect else { return nil }
        let capabilities = dialect.capabilities
        let lacking = [(capabilities.postOptions, "--visibility, --cw, --reply, --language"),
                       (capabilities.uploadsMedia, "--media, --alt"),
                       (capabilities.polls, "--poll, --poll-expires, --multiple")].filter { !$0.0 }.map(\.1)
        guard !lacking.isEmpty else { return "On this API (\(dialect.name)): every option." }
        if capabilities.uploadsMedia && capabilities.picturesWithPost {
            return "On this API (\(dialect.name)): text, and one picture (--media, JPG, GIF or PNG, sent with the post; no --alt); "
                + "it has no \(lacking.joined(separator: "; "))."
        }
        return "On this API (\(dialect.name)): text only; it has no \(lacking.joined(separator: "; "))."
    }
}
