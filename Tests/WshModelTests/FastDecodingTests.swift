import Foundation
import Testing
@testable import WshModel

/// The fast decoding (FastDecoding/) against JSONDecoder: over every real
/// fixture and thousands of generated bodies, the fast path gives values
/// `==` to JSONDecoder's or declines; `ModelDecoding.decode` gives the same
/// values and the same errors as JSONDecoder alone; and ordinary bodies do
/// take the fast path.
@Suite("Fast decoding matches JSONDecoder")
struct FastDecodingTests {
    /// One Model type the fast path reads, compared as a value.
    struct Checked: Sendable {
        let name: String
        /// JSONDecoder's answer, `ModelDecoding.decode`'s, and the fast path's (nil when it declines).
        let compare: @Sendable (Data) -> (foundation: Result<AnyHashable, ModelDecodingError>,
                                          decoded: Result<AnyHashable, ModelDecodingError>, fast: AnyHashable?)

        static func of<T: Decodable & Hashable & Sendable>(_ type: T.Type) -> Checked {
            of(type, String(describing: T.self)) { $0 }
        }

        static func of<T: Decodable & Sendable, V: Hashable>(_ type: T.Type, _ name: String, _ value: @escaping @Sendable (T) -> V) -> Checked {
            Checked(name: name) { data in
                let foundation = Result { () throws(ModelDecodingError) in
                    AnyHashable(value(try ModelDecoding.decodeWithFoundation(T.self, from: data)))
                }
                let decoded = Result { () throws(ModelDecodingError) in
                    AnyHashable(value(try ModelDecoding.decode(T.self, from: data)))
                }
                return (foundation, decoded, FastModelDecoding.decode(T.self, from: data).map { AnyHashable(value($0)) })
            }
        }
    }

    static let types: [Checked] = [
        .of(TimelinePage.self), .of(CommentsPage.self), .of(Status.self), .of(User.self), .of(Comment.self),
        .of(FavoritesPage.self), .of([MastodonStatus].self), .of(MastodonStatus.self), .of(MastodonAccount.self),
        .of(MastodonContext.self, "MastodonContext") { [$0.ancestors, $0.descendants] },
    ]

    /// Checks one body against one type: whether the fast path answered,
    /// and whether JSONDecoder decoded it.
    @discardableResult
    static func check(_ data: Data, as type: Checked, _ label: @autoclosure () -> String,
                      sourceLocation: SourceLocation = #_sourceLocation) -> (fast: Bool, decodes: Bool) {
        let (foundation, decoded, fast) = type.compare(data)
        #expect(decoded == foundation, "\(type.name) from \(label())", sourceLocation: sourceLocation)
        if let fast {
            #expect(Result.success(fast) == foundation, "fast \(type.name) from \(label())", sourceLocation: sourceLocation)
            // `==` on strings is canonical equivalence: the text must be the same to the byte.
            if case .success(let value) = foundation {
                #expect(Array(String(reflecting: fast).utf8) == Array(String(reflecting: value).utf8),
                        "fast \(type.name), to the byte, from \(label())", sourceLocation: sourceLocation)
            }
        }
        if case .success = foundation { return (fast != nil, true) }
        return (fast != nil, false)
    }

    // MARK: - Real bodies

    static func fixtures() throws -> [(String, Data)] {
        var all: [(String, Data)] = []
        for folder in ["weibo", "mastodon"] {
            let sources = try #require(Bundle.module.url(forResource: "SOURCES", withExtension: "md", subdirectory: "Fixtures/\(folder)"))
            let urls = try FileManager.default.contentsOfDirectory(at: sources.deletingLastPathComponent(), includingPropertiesForKeys: nil)
            for url in urls.filter({ $0.pathExtension == "json" }).sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
                all.append(("\(folder)/\(url.lastPathComponent)", try Data(contentsOf: url)))
            }
        }
        return all
    }

    @Test("every real fixture: the fast path gives JSONDecoder's value, and declines none that decodes")
    func realFixtures() throws {
        let fixtures = try Self.fixtures()
        #expect(fixtures.count > 40)
        var fastCount = 0
        for (name, data) in fixtures {
            for type in Self.types {
                let (fast, decodes) = Self.check(data, as: type, name)
                if fast { fastCount += 1 }
                // Real bodies hold nothing the fast path leaves to JSONDecoder:
                // whatever JSONDecoder decodes, the fast path decodes too.
                if decodes { #expect(fast, "the fast path declined \(name) as \(type.name)") }
            }
        }
        #expect(fastCount > 60)
    }

    @Test("the fast path is taken for an ordinary page, and declines what it leaves to JSONDecoder")
    func fastPathTaken() throws {
        let page = Data(#"{"statuses": [{"id": 1, "text": "a", "user": {"id": 2, "screen_name": "b"}}], "total_number": 1}"#.utf8)
        let fast = try #require(FastModelDecoding.decode(TimelinePage.self, from: page))
        #expect(fast.statuses.first?.user?.screenName == "b")
        let foundation = try ModelDecoding.decodeWithFoundation(TimelinePage.self, from: page)
        #expect(fast == foundation)
        // A fraction where a count is read, an escaped key, invalid JSON: JSONDecoder's.
        for declined in [#"{"statuses": [], "total_number": 1.0}"#, #"{"statuses": [], "tot\u0061l_number": 1}"#,
                         #"{"statuses": [}"#, #"{"statuses": []} x"#, "\u{FEFF}{\"statuses\": []}"] {
            #expect(FastModelDecoding.decode(TimelinePage.self, from: Data(declined.utf8)) == nil, "\(declined)")
            Self.check(Data(declined.utf8), as: Self.types[0], declined)
        }
        // Types the fast path does not know go to JSONDecoder.
        #expect(FastModelDecoding.decode(RateLimitStatus.self, from: Data("{}".utf8)) == nil)
    }

    @Test("an author read in an earlier body: the same bytes are the same user, changed bytes are read anew, in any body")
    func authorsAcrossBodies() throws {
        func page(_ user: String, text: String) -> Data {
            Data(#"{"statuses": [{"id": 1, "text": "\#(text)", "user": \#(user)}], "total_number": 1}"#.utf8)
        }
        let before = #"{"id": 77, "screen_name": "kiwi", "followers_count": 10, "name": "Kiwi"}"#
        let after = #"{"id": 77, "screen_name": "kiwi", "followers_count": 11, "name": "Kiwi"}"#
        let bodies = [page(before, text: "a"), page(before, text: "b"), page(after, text: "c"),
                      page(#"{"id": 77, "screen_name": "kiwi", "followers_count": 10, "name": "Kiwi", "verified": true}"#, text: "d"),
                      page(before, text: "e")]
        var counts: [Int?] = []
        for body in bodies {
            let fast = try #require(FastModelDecoding.decode(TimelinePage.self, from: body))
            #expect(fast == (try ModelDecoding.decodeWithFoundation(TimelinePage.self, from: body)))
            counts.append(fast.statuses.first?.user?.followersCount)
        }
        #expect(counts == [10, 10, 11, 10, 10])
    }


    @Test("a page whose objects mostly keep one key order: keys left out, put in, moved, doubled, spaced, and like-named, each read as JSONDecoder reads it")
    func keyOrderKept() throws {
        // The order the first status gives; the ones after it vary it as servers do.
        let keys: [(String, String)] = [
            ("created_at", #""Tue May 31 17:46:55 +0800 2011""#), ("id", "11"), ("idstr", #""11""#), ("mid", #""11""#),
            ("text", #""hello""#), ("source", #""<a href=\"http://weibo.com\" rel=\"nofollow\">微博</a>""#),
            ("favorited", "false"), ("pic_urls", #"[{"thumbnail_pic": "http://p/1.jpg"}]"#),
            ("user", #"{"id": 5, "screen_name": "kiwi"}"#), ("reposts_count", "3"), ("comments_count", "4"),
        ]
        func status(_ fields: [(String, String)], spaced: Bool = false) -> String {
            let separator = spaced ? " ,\n  " : ","
            return "{" + fields.map { spaced ? "\"\($0.0)\" :  \($0.1)" : "\"\($0.0)\":\($0.1)" }.joined(separator: separator) + "}"
        }
        var statuses = [status(keys)]
        var changed = keys
        changed[1].1 = "12"
        changed[4].1 = #""second, \u00e9\n""#
        // Another app, its name as long as the first's.
        changed[5].1 = #""<a href=\"http://weibo.com\" rel=\"nofollow\">微信</a>""#
        statuses.append(status(changed))
        // Left out: one key (`idstr` then where `id` was), then several, then all but the last.
        statuses.append(status(keys.filter { $0.0 != "id" }))
        statuses.append(status(keys.filter { !["mid", "text", "favorited", "user"].contains($0.0) }))
        statuses.append(status([keys.last!]))
        // Put in: unknown keys, one like a known key's start (`id` / `idx`), and a known key missing from the first.
        var added = keys
        added.insert(("idx", "99"), at: 2)
        added.insert(("visible", #"{"type": 0, "list_id": 0}"#), at: 6)
        added.append(("attitudes_count", "8"))
        statuses.append(status(added))
        // Doubled: the first of two counts, where the order expects the key and where it does not.
        var doubled = keys
        doubled.insert(("text", #""not this one""#), at: 5)
        doubled.insert(("id", "13"), at: 0)
        statuses.append(status(doubled))
        // Moved: the same keys in another order, then reversed; whitespace between tokens.
        statuses.append(status(Array(keys[5...] + keys[..<5])))
        statuses.append(status(keys.reversed()))
        statuses.append(status(keys, spaced: true))
        // A repost: a status of the same kind inside one, in its own order.
        var repost = keys
        repost.append(("retweeted_status", status(Array(keys.reversed().prefix(6)))))
        statuses.append(status(repost))
        // The first order again, after all that.
        statuses.append(status(changed))
        let page = Data(#"{"statuses": [\#(statuses.joined(separator: ","))], "total_number": \#(statuses.count)}"#.utf8)
        let fast = try #require(FastModelDecoding.decode(TimelinePage.self, from: page))
        Self.check(page, as: Self.types[0], "the page of varied orders")
        #expect(fast.statuses.map(\.id) == [11, 12, nil, 11, nil, 11, 13, 11, 11, 11, 11, 12])
        #expect(fast.statuses[2].idstr == "11")
        #expect(fast.statuses.map(\.text) == ["hello", "second, é\n", "hello", nil, nil, "hello", "hello", "hello",
                                              "hello", "hello", "hello", "second, é\n"])
        #expect(fast.statuses[5].attitudesCount == 8)
        #expect(fast.statuses[10].retweetedStatus?.commentsCount == 4)
        #expect(fast.statuses.allSatisfy { $0.commentsCount == 4 })
        // Two apps of names as long, each status with its own.
        #expect(fast.statuses.map { $0.source?.contains("微信") } == [false, true, false, false, nil] + Array(repeating: false, count: 6) + [true])
    }
    @Test("errors are JSONDecoder's, word for word")
    func sameErrors() {
        for body in ["", "nul", "{", #"{"reposts_count": 1}"#, "[1, 2", #""text""#, "42", "null", #"{"comments": 5"#] {
            for type in Self.types { Self.check(Data(body.utf8), as: type, body) }
        }
    }

    // MARK: - Hostile bytes

    @Test("random byte damage to every real fixture: no crash, and the same value or error as JSONDecoder")
    func damagedFixtures() throws {
        var generator = BodyGenerator(seed: 0xBAD_B17E5)
        var damaged = 0
        for (name, data) in try Self.fixtures() {
            for round in 0..<12 {
                var bytes = Array(data)
                for _ in 0...generator.int(3) {
                    let at = generator.int(bytes.count + 1)
                    switch generator.int(3) {
                    case 0 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                    default: if at < bytes.count { bytes.remove(at: at) }
                    }
                }
                damaged += 1
                let type = Self.types[(damaged + round) % Self.types.count]
                Self.check(Data(bytes), as: type, "\(name), damage round \(round)")
            }
        }
        #expect(damaged > 500)
    }

    @Test("nesting far deeper than any body: declined or refused, never a crash", arguments: [1_000, 100_000])
    func deepNesting(depth: Int) {
        let arrays = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let objects = Data((#"{"statuses":"# + String(repeating: #"[{"user":"#, count: depth)).utf8)
        for body in [arrays, objects] {
            #expect(FastModelDecoding.decode(TimelinePage.self, from: body) == nil)
            #expect(throws: ModelDecodingError.self) { try ModelDecoding.decode(TimelinePage.self, from: body) }
        }
    }

    // MARK: - Generated bodies

    @Test("generated bodies: every tolerance, unknown fields, escapes, duplicates, invalid elements and invalid JSON",
          arguments: 0..<8)
    func generated(batch: Int) {
        var generator = BodyGenerator(seed: 0x5EED_0000 + UInt64(batch))
        var ordinary = 0
        var rejected = 0
        for i in 0..<400 {
            let (schema, type) = BodyGenerator.documents[i % BodyGenerator.documents.count]
            let body = generator.document(schema)
            let label = "batch \(batch) body \(i): \(String(decoding: body.bytes.prefix(600), as: UTF8.self))"
            let (fast, decodes) = Self.check(Data(body.bytes), as: Self.types.first { $0.name == type }!, label)
            if !decodes { rejected += 1 }
            if !body.mayDecline {
                ordinary += 1
                #expect(fast, "the fast path declined an ordinary body: \(label)")
            }
        }
        // The generator is not so exotic that the fast path is never exercised.
        #expect(ordinary > 100)
        // Some bodies JSONDecoder rejects, so its errors are compared too.
        #expect(rejected > 5)
    }
}

/// Random JSON bodies shaped like the Model's, from a seed: known fields in
/// every shape the Model tolerates, unknown fields of any shape, and now and
/// then something invalid. `mayDecline` says whether the body holds
/// anything the fast path leaves to JSONDecoder.
struct BodyGenerator {
    indirect enum Kind {
        case string, int, bool, time, isoTime
        case object(Schema)
        /// A lossy array: elements that are not objects are dropped.
        case list(Schema)
    }

    final class Schema: @unchecked Sendable {
        var fields: [(String, Kind)] = []
    }

    struct Body {
        var bytes: [UInt8] = []
        var mayDecline = false
    }

    static let user = Schema(), status = Schema(), picture = Schema(), comment = Schema()
    static let timelinePage = Schema(), commentsPage = Schema(), favoritesPage = Schema(), favorite = Schema(), tag = Schema()
    static let account = Schema(), toot = Schema(), application = Schema(), media = Schema(), poll = Schema(),
               option = Schema(), context = Schema(), card = Schema(), named = Schema()
    static let emoji = Schema(), field = Schema(), quote = Schema()
    /// Schemas of the top-level documents, with the type they decode as;
    /// `tootArray` stands for a Mastodon timeline, a strict array of statuses.
    static let tootArray = Schema()

    static let documents: [(Schema, String)] = {
        user.fields = [("id", .int), ("idstr", .string), ("screen_name", .string), ("name", .string),
                       ("location", .string), ("description", .string), ("url", .string),
                       ("profile_image_url", .string), ("gender", .string), ("followers_count", .int),
                       ("friends_count", .int), ("statuses_count", .int), ("favourites_count", .int),
                       ("verified", .bool), ("verified_reason", .string), ("created_at", .time),
                       ("status", .object(status))]
        status.fields = [("id", .int), ("idstr", .string), ("mid", .string), ("created_at", .time),
                         ("text", .string), ("source", .string), ("favorited", .bool), ("truncated", .bool),
                         ("in_reply_to_status_id", .string), ("in_reply_to_user_id", .string),
                         ("in_reply_to_screen_name", .string), ("thumbnail_pic", .string),
                         ("bmiddle_pic", .string), ("original_pic", .string), ("pic_urls", .list(picture)),
                         ("user", .object(user)), ("reposts_count", .int), ("comments_count", .int),
                         ("attitudes_count", .int), ("retweeted_status", .object(status)), ("deleted", .bool)]
        picture.fields = [("thumbnail_pic", .string)]
        comment.fields = [("id", .int), ("idstr", .string), ("mid", .string), ("created_at", .time),
                          ("text", .string), ("source", .string), ("user", .object(user)),
                          ("status", .object(status)), ("reply_comment", .object(comment))]
        timelinePage.fields = [("statuses", .list(status)), ("reposts", .list(status)), ("total_number", .int),
                               ("previous_cursor", .int), ("next_cursor", .int)]
        commentsPage.fields = [("comments", .list(comment)), ("total_number", .int)]
        favoritesPage.fields = [("favorites", .list(favorite)), ("total_number", .int)]
        favorite.fields = [("status", .object(status)), ("favorited_time", .time), ("tags", .list(tag))]
        tag.fields = [("tag", .string)]
        account.fields = [("id", .string), ("username", .string), ("acct", .string), ("display_name", .string),
                          ("note", .string), ("url", .string), ("avatar", .string), ("followers_count", .int),
                          ("following_count", .int), ("statuses_count", .int), ("bot", .bool), ("locked", .bool),
                          ("created_at", .isoTime), ("emojis", .list(emoji)), ("fields", .list(field))]
        toot.fields = [("id", .string), ("created_at", .isoTime), ("account", .object(account)),
                       ("content", .string), ("text", .string), ("spoiler_text", .string), ("visibility", .string),
                       ("sensitive", .bool), ("url", .string), ("in_reply_to_id", .string), ("replies_count", .int),
                       ("reblogs_count", .int), ("favourites_count", .int), ("favourited", .bool),
                       ("reblogged", .bool), ("application", .object(application)),
                       ("media_attachments", .list(media)), ("poll", .object(poll)), ("reblog", .object(toot)),
                       ("edited_at", .isoTime), ("card", .object(card)), ("tags", .list(named)), ("mentions", .list(named)),
                       ("bookmarked", .bool), ("emojis", .list(emoji)), ("quote", .object(quote))]
        emoji.fields = [("shortcode", .string), ("url", .string), ("static_url", .string)]
        field.fields = [("name", .string), ("value", .string), ("verified_at", .isoTime)]
        quote.fields = [("state", .string), ("quoted_status", .object(toot)), ("quoted_status_id", .string)]
        card.fields = [("title", .string), ("url", .string)]
        named.fields = [("name", .string), ("acct", .string)]
        application.fields = [("name", .string), ("website", .string)]
        media.fields = [("type", .string), ("url", .string), ("preview_url", .string), ("description", .string)]
        poll.fields = [("options", .list(option)), ("votes_count", .int), ("expired", .bool), ("expires_at", .isoTime),
                       ("multiple", .bool), ("voted", .bool)]
        option.fields = [("title", .string), ("votes_count", .int)]
        context.fields = [("ancestors", .list(toot)), ("descendants", .list(toot))]
        return [(timelinePage, "TimelinePage"), (commentsPage, "CommentsPage"), (status, "Status"), (user, "User"),
                (comment, "Comment"), (favoritesPage, "FavoritesPage"), (tootArray, "Array<MastodonStatus>"),
                (toot, "MastodonStatus"), (account, "MastodonAccount"), (context, "MastodonContext")]
    }()

    var state: UInt64
    /// How often this body holds what the fast path leaves to JSONDecoder:
    /// never in half the bodies (which must all take the fast path), now
    /// and then or often in the others.
    var wildness = 0.0
    /// The objects written so far in this body, by schema: a timeline names
    /// the same author again with the same bytes, and so does this.
    var written: [ObjectIdentifier: [[UInt8]]] = [:]
    /// Whether to put something wild here.
    var wild: Bool { mutating get { chance(wildness) } }
    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
    mutating func pick<T>(_ options: [T]) -> T { options[int(options.count)] }

    // MARK: Documents

    mutating func document(_ schema: Schema) -> Body {
        var body = Body()
        wildness = pick([0, 0, 0, 0.003, 0.03, 0.5])
        written = [:]
        if wildness > 0, chance(0.03) { body.bytes += [0xEF, 0xBB, 0xBF]; body.mayDecline = true }
        space(&body)
        if schema === Self.tootArray {
            body.bytes += Array("[".utf8)
            let count = int(4)
            for i in 0..<count {
                if i > 0 { body.bytes += Array(",".utf8) }
                space(&body)
                if wild && chance(0.05) {
                    // Not an object: JSONDecoder fails the whole array.
                    junk(&body, depth: 2)
                    body.mayDecline = true
                } else {
                    object(Self.toot, &body, depth: 1)
                }
                space(&body)
            }
            body.bytes += Array("]".utf8)
        } else if (schema === Self.timelinePage || schema === Self.commentsPage) && chance(0.2) {
            // The bare array.
            list(schema.fields[0].1.listSchema!, &body, depth: 1)
        } else {
            object(schema, &body, depth: 0, top: true)
        }
        space(&body)
        if wildness > 0, chance(0.3) { mutate(&body) }
        return body
    }

    /// Breaks the body now and then: JSONDecoder's error must come out.
    mutating func mutate(_ body: inout Body) {
        body.mayDecline = true
        switch int(7) {
        case 0: body.bytes = Array(body.bytes.prefix(int(max(body.bytes.count, 1))))
        case 1: body.bytes.insert(pick(Array("{}[]:,\"\\x0-".utf8) + [0x00, 0xFF]), at: int(body.bytes.count + 1))
        case 2: body.bytes += Array(pick([" x", ",", "}", " {}", "\u{0}"]).utf8)
        case 3: body.bytes = Array(pick(["", "null", "42", #""text""#, "true", " ", "[", "{", "{}", "[]", "nul"]).utf8)
        case 4:
            if let i = body.bytes.firstIndex(of: UInt8(ascii: ":")) { body.bytes.remove(at: i) }
        case 5:
            if let i = body.bytes.lastIndex(of: UInt8(ascii: "}")) { body.bytes.insert(UInt8(ascii: ","), at: i) }
        default:
            // UTF-16: JSONDecoder converts it; the fast path declines.
            body.bytes = Array(String(decoding: body.bytes, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        }
    }

    mutating func space(_ body: inout Body) {
        if chance(0.3) { body.bytes += Array(pick([" ", "\n", "\t", "\r\n", "  \n    "]).utf8) }
    }

    mutating func object(_ schema: Schema, _ body: inout Body, depth: Int, top: Bool = false) {
        if let earlier = written[ObjectIdentifier(schema)], chance(0.4) {
            var again = pick(earlier)
            let strings = schema.fields.filter { if case .string = $0.1 { true } else { false } }
            if chance(0.3), let (name, _) = strings.isEmpty ? nil : pick(strings) {
                // Nearly the same object: its bytes up to the end, then one more field
                // (which counts unless the object had it already).
                again.removeLast()
                again += Array(((again.count > 1 ? "," : "") + "\"\(name)\":\"zz\"}").utf8)
            }
            // The same object again, byte for byte.
            body.bytes += again
            return
        }
        let start = body.bytes.count
        defer { written[ObjectIdentifier(schema), default: []].append(Array(body.bytes[start...])) }
        var entries: [([UInt8], (inout Body, inout BodyGenerator) -> Void)] = []
        var fields = schema.fields.filter { _ in chance(0.6) }
        if top, schema === Self.timelinePage || schema === Self.commentsPage || schema === Self.favoritesPage {
            // A page needs its list (either of `statuses`/`reposts`): without it JSONDecoder fails.
            let lists = fields.filter { if case .list = $0.1 { return true } else { return false } }
            if lists.isEmpty, !wild || !chance(0.1) { fields.append(schema.fields[int(schema === Self.timelinePage ? 2 : 1)]) }
            if fields.allSatisfy({ if case .list = $0.1 { return false } else { return true } }) { body.mayDecline = true }
        }
        for (name, kind) in fields {
            if depth > 3, case .object = kind { continue }
            var key = Array(name.utf8)
            if wild && chance(0.02) {
                // An escaped key: JSONDecoder matches it; the fast path leaves it.
                key = Array("\\u00\(String(key[0], radix: 16))".utf8) + key.dropFirst()
                body.mayDecline = true
            }
            entries.append((key, { body, generator in generator.value(kind, &body, depth: depth) }))
            if chance(0.03) {
                // The same key again: the first one counts.
                entries.append((Array(name.utf8), { body, generator in generator.value(kind, &body, depth: depth) }))
            }
        }
        for _ in 0..<int(4) {
            // Fields the schema does not read (a Weibo status has no `card`; a Mastodon one does).
            let name = pick(["visible", "annotations", "geo", "darwin_tags", "键", "hot_weibo_tags", "mblogtype",
                             "pic_ids", "emojis", "card", "mentions", "x\(int(100))"].filter { unread in
                                 !schema.fields.contains { $0.0 == unread }
                             })
            entries.append((Array(name.utf8), { body, generator in generator.junk(&body, depth: depth + 1) }))
        }
        // Shuffle, keeping a duplicate after its first.
        var order = Array(entries.indices)
        for i in order.indices.reversed() where i > 0 { order.swapAt(i, int(i + 1)) }
        body.bytes += Array("{".utf8)
        var placed = Array(repeating: false, count: entries.count)
        var firstEntry = true
        for index in order + Array(entries.indices) where !placed[index] {
            let (key, write) = entries[index]
            // A later duplicate waits for its first.
            if let earlier = entries.indices.first(where: { entries[$0].0 == key && $0 < index }), !placed[earlier] { continue }
            placed[index] = true
            if !firstEntry { body.bytes += Array(",".utf8) }
            firstEntry = false
            space(&body)
            body.bytes += [UInt8(ascii: "\"")] + key + [UInt8(ascii: "\"")]
            space(&body)
            body.bytes += Array(":".utf8)
            space(&body)
            write(&body, &self)
            space(&body)
        }
        body.bytes += Array("}".utf8)
    }

    mutating func list(_ schema: Schema, _ body: inout Body, depth: Int) {
        body.bytes += Array("[".utf8)
        for i in 0..<int(depth > 2 ? 2 : 4) {
            if i > 0 { body.bytes += Array(",".utf8) }
            space(&body)
            // Elements that are not objects are dropped.
            if chance(0.1) { junk(&body, depth: depth + 1, read: true) } else { object(schema, &body, depth: depth + 1) }
            space(&body)
        }
        body.bytes += Array("]".utf8)
    }

    /// A value for a field of `kind`, in any shape the API has sent.
    mutating func value(_ kind: Kind, _ body: inout Body, depth: Int) {
        switch kind {
        case .object(let schema):
            if chance(0.85) { object(schema, &body, depth: depth + 1) } else { notAContainer(&body) }
        case .list(let schema):
            if chance(0.9) { list(schema, &body, depth: depth) } else { notAContainer(&body) }
        default:
            scalar(kind, &body)
        }
    }

    /// Where an object or an array is read, something else: nil, or an empty list.
    mutating func notAContainer(_ body: inout Body) {
        if chance(0.5) { text(&body) } else { body.bytes += Array(pick(["null", "0", "-7", "true", "\"\"", "1.5"]).utf8) }
    }

    /// A scalar read as `kind` (or something else in its place).
    mutating func scalar(_ kind: Kind, _ body: inout Body) {
        let readsNumbers: Bool
        switch kind {
        case .string, .time, .isoTime, .int, .bool: readsNumbers = true
        default: readsNumbers = false
        }
        switch int(10) {
        case 0, 1:
            switch kind {
            case .time: string(pick(Self.weiboTimes(&self)), &body)
            case .isoTime: string(pick(["2024-11-06T07:08:38.000Z", "2024-11-06T07:08:38+09:00", "2024-11-06",
                                        "2024-13-06", "", "Tue May 31 17:46:55 +0800 2011"]), &body)
            default: text(&body)
            }
        case 2:
            // Numbers as strings, and strings that are not numbers.
            string(pick(["123", " 42 ", "+7", "-3", "", "abc", "9223372036854775808", "\\t5", "\u{3000}5\u{3000}",
                         "4199674862603248", "1", "0", "true", "TRUE", "False", "yes", "0x10", "1.5", "١٢"]), &body)
        case 3, 4:
            // Integers, ids beyond 2^53 and beyond Int64.
            let tame = ["0", "1", "-1", "42", "9007199254740993", "9223372036854775807", "-9223372036854775808",
                        "4199674862603248"]
            let n = wild ? pick(tame + ["18446744073709551615", "9223372036854775808", "-9223372036854775809",
                                        "99999999999999999999999"]) : pick(tame)
            body.bytes += Array(n.utf8)
            if readsNumbers {
                let big = ["9223372036854775808", "18446744073709551615", "-9223372036854775809", "99999999999999999999999"]
                if big.contains(n) {
                    // JSONDecoder's slow paths: Int64 fails then Double, or a string from UInt64/Double.
                    if case .string = kind, n != "-9223372036854775809", n != "99999999999999999999999" {} else { body.mayDecline = true }
                }
            }
        case 5 where wild:
            // Fractions and exponents: JSONDecoder's subtle conversions, left to it.
            body.bytes += Array(pick(["1.5", "1.0", "1e3", "-0", "-0.0", "2E-2", "0.1"]).utf8)
            if readsNumbers { body.mayDecline = true }
        case 5:
            body.bytes += Array(pick(["7", "-7"]).utf8)
        case 6:
            body.bytes += Array(pick(["true", "false", "null"]).utf8)
        case 7:
            junk(&body, depth: 3, read: true)
        case 8:
            string(pick(["", "0", "1", "True", "FALSE", "null", "\u{200B}"]), &body)
        default:
            if wild && chance(0.2) {
                invalidString(&body)
            } else {
                text(&body)
            }
        }
    }

    static func weiboTimes(_ g: inout BodyGenerator) -> [String] {
        let weekday = g.pick(["Tue", "Wed", "Sun", "Xyz"])
        let month = g.pick(["Jan", "May", "Dec", "Foo", "may"])
        let day = g.pick(["01", "31", "00", "32", "9 ", "15"])
        let clock = g.pick(["17:46:55", "00:00:00", "23:59:60", "24:00:00", "7:46:55 ", "12:60:00"])
        let zone = g.pick(["+0800", "-0530", "+0000", "+08000", "0800 ", "++100"])
        let year = g.pick(["2011", "0001", "0000", "9999", "1970"])
        return ["\(weekday) \(month) \(day) \(clock) \(zone) \(year)", "Tue May 31 17:46:55 +0800 2011",
                "Tue May  1 17:46:55 +0800 2011", "Tue May 31 17:46:55 +0800 2011 ", "2011-05-31", "",
                "Tue May 31 17:46:55 +0800 2011\\u0000"]
    }

    /// A string as written, already escaped where it should be.
    mutating func string(_ raw: String, _ body: inout Body) {
        body.bytes += [UInt8(ascii: "\"")] + Array(raw.utf8) + [UInt8(ascii: "\"")]
    }

    /// Text with escapes, CJK, emoji, surrogate pairs.
    mutating func text(_ body: inout Body) {
        var raw = ""
        for _ in 0..<int(5) {
            raw += pick(["hello", " ", "今天天气不错", "😀", "👨‍👩‍👧", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u4E2D",
                         "\\ud83d\\ude00", "\\u0000", "\\u200b", "<a href=\\\"http://t.cn\\\">x<\\/a>", "\\t", "\\b\\f\\r",
                         "e\u{301}", "#话题#", "@someone", "http://t.cn/abc", "\u{7F}"])
        }
        string(raw, &body)
    }

    /// A string the fast path leaves to JSONDecoder where it is read.
    mutating func invalidString(_ body: inout Body) {
        body.mayDecline = true
        body.bytes += [UInt8(ascii: "\"")]
        switch int(6) {
        case 0: body.bytes += Array("\\ud83d".utf8)           // a lone high surrogate
        case 1: body.bytes += Array("a\\udc00b".utf8)         // a lone low surrogate
        case 2: body.bytes += Array("\\x".utf8)               // an invalid escape
        case 3: body.bytes += [0x61, 0x01, 0x62]              // a control character
        case 4: body.bytes += [0x61, 0xFF, 0xC3]              // invalid UTF-8
        default: body.bytes += Array("\\ud83d\\u0041".utf8)   // a high surrogate and no low
        }
        body.bytes += [UInt8(ascii: "\"")]
    }

    /// A value no field reads: any shape, including what JSONDecoder's
    /// scanner accepts in values it never reads (raw control characters,
    /// invalid UTF-8). `read`: a field reads it after all (if a scalar).
    mutating func junk(_ body: inout Body, depth: Int, read: Bool = false) {
        switch int(depth > 4 ? 6 : 9) {
        case 0:
            let number = pick(["0", "-12", "3.14159", "-0.5e-7", "1E+400", "116.397128", "1e-400"])
            if read, number.count > 3 {
                // A fraction read: JSONDecoder's.
                if wild { body.mayDecline = true } else { body.bytes += Array("7".utf8); break }
            }
            body.bytes += Array(number.utf8)
        case 1: body.bytes += Array(pick(["true", "false", "null"]).utf8)
        case 2: text(&body)
        case 3 where !read || wild:
            body.bytes += [UInt8(ascii: "\""), 0x01, 0x7F, 0xFE, UInt8(ascii: "\"")]
            // Read, it fails in JSONDecoder (the field is then nil): the fast path leaves it.
            if read { body.mayDecline = true }
        case 3:
            body.bytes += Array("null".utf8)
        case 4: string(pick(["", "visible", "\\u00e9\\ud83d\\ude00"]), &body)
        case 5 where wild:
            // An invalid escape: the scanner takes it, the fast path declines.
            string("a\\qb", &body)
            body.mayDecline = true
        case 5, 6, 7:
            body.bytes += Array("{".utf8)
            for i in 0..<int(3) {
                if i > 0 { body.bytes += Array(",".utf8) }
                space(&body)
                // An escaped key is decoded where the object is read as a type: the fast path leaves it.
                let key = pick(["type", "list", "键", "id", "text"] + (read && !wild ? [] : ["\\u0041"]))
                if read, key.hasPrefix("\\") { body.mayDecline = true }
                string(key + (i == 2 ? "" : String(i)), &body)
                body.bytes += Array(":".utf8)
                // The third key may be a field's name (`id`, `text`), which is then read.
                junk(&body, depth: depth + 1, read: read && i == 2)
            }
            body.bytes += Array("}".utf8)
        default:
            body.bytes += Array("[".utf8)
            for i in 0..<int(3) {
                if i > 0 { body.bytes += Array(",".utf8) }
                junk(&body, depth: depth + 1)
                space(&body)
            }
            body.bytes += Array("]".utf8)
        }
    }
}

extension BodyGenerator.Kind {
    var listSchema: BodyGenerator.Schema? {
        if case .list(let schema) = self { schema } else { nil }
    }
}
