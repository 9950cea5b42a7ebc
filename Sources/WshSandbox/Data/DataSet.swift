import FoundationEssentials
import WshText
import WshModel

/// The generated users and statuses of one sandbox: a pure function of the
/// seed and the sizes, so two sandboxes with the same seed serve the same bytes.
///
/// Cheap to make: the users and what each status needs to be indexed (its
/// author, what it reposts, its time) are made at once, without any text;
/// a status itself, text and all, is made the first time it is asked for,
/// and the mentions index the first time a mentions timeline is.
struct DataSet: Sendable {
    let seed: UInt64
    let users: [SandboxUser]
    /// Generated statuses, oldest first: `statuses[i].ordinal == i + 1`.
    let statuses: GeneratedStatuses
    let userIndexByScreenName: [String: Int]
    /// For each user, the ordinal of their newest generated status.
    let latestOrdinalByUser: [Int?]
    /// For each user, the ordinals of their generated statuses, oldest first
    /// (for `statuses/user_timeline.json`).
    let ordinalsByUser: [[Int]]
    /// For each status ordinal, the generated statuses that repost it, oldest first.
    let repostOrdinalsByOrdinal: [Int: [Int]]
    /// The generated statuses that are no boost (a repost with no remark of
    /// its own), oldest first: the Mastodon public timeline's index.
    let publicOrdinals: [Int]
    /// How many of the first users are accounts (they act through tokens).
    let accounts: Int
    /// Whom each account follows at the start (user indices), by account index.
    let initialFollowing: [Set<Int>]
    let text: TextGenerator
    /// The seed's direct messages (Mastodon's `direct` statuses), oldest first:
    /// ordinals `1 - count` through `0`, below every generated status (see
    /// `DataSet+Conversations.swift`); the Weibo side never shows them.
    let directMessages: [SandboxStatus]

    /// For each user, the ordinals of generated statuses that `@mention` them,
    /// oldest first. The first call makes every status (their texts say who).
    var mentionOrdinalsByUser: [[Int]] { statuses.mentionOrdinalsByUser }

    /// For each tag (lowercased), the generated statuses that have it, oldest
    /// first. The first call makes every status (the tags are in their texts).
    var tagOrdinals: [String: [Int]] { statuses.tagOrdinals }

    /// What `make` returns for `user`, made on the first call and kept: the
    /// generated notifications of a user, a pure function of the data.
    func generatedNotifications(for user: Int, _ make: () -> [SandboxNotification]) -> [SandboxNotification] {
        statuses.notifications(for: user, make)
    }

    /// The author (a user index) of the generated status with `ordinal`, without making its text.
    func authorIndex(ofOrdinal ordinal: Int) -> Int { statuses.authorIndex(ofOrdinal: ordinal) }

    /// The time of the newest generated status; posts follow it a minute apart.
    static let newestTime = Timestamp(weiboText: "Mon Nov 11 21:30:00 +0800 2024")!

    // Independent PRNG streams, so adding statuses never changes users.
    enum Stream: UInt64 { case users = 1, statuses, comments, gaps, follows, direct }

    /// How many users each account follows at the start.
    static let initialFollowCount = 10

    init(seed: UInt64, users userCount: Int, statuses statusCount: Int, accounts accountCount: Int = 3) {
        self.seed = seed
        var users = Self.makeUsers(seed: seed, count: max(1, userCount))
        let names = users.map(\.screenName)
        accounts = max(1, min(accountCount, users.count))
        text = TextGenerator(screenNames: names)
        let nameIndex = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let outlines = Self.outlines(seed: seed, count: max(0, statusCount), users: users.count,
                                     accounts: accounts, text: text)
        var latest = [Int?](repeating: nil, count: users.count)
        var byUser = [[Int]](repeating: [], count: users.count)
        var reposts: [Int: [Int]] = [:]
        var shown: [Int] = []
        for (index, outline) in outlines.enumerated() {
            let ordinal = index + 1
            users[outline.author].generatedStatusesCount += 1
            latest[outline.author] = ordinal
            byUser[outline.author].append(ordinal)
            if let original = outline.retweetedOrdinal { reposts[original, default: []].append(ordinal) }
            if !outline.isBoost { shown.append(ordinal) }
        }
        self.users = users
        latestOrdinalByUser = latest
        ordinalsByUser = byUser
        repostOrdinalsByOrdinal = reposts
        publicOrdinals = shown
        userIndexByScreenName = nameIndex
        initialFollowing = (0..<accounts).map { Self.initialFollows(seed: seed, account: $0, users: users.count) }
        statuses = GeneratedStatuses(seed: seed, users: users.count, accounts: accounts, text: text,
                                     outlines: outlines, nameIndex: nameIndex)
        directMessages = Self.directMessages(seed: seed, users: users.map(\.screenName), accounts: accounts, text: text,
                                             before: outlines.first?.createdAt ?? Self.newestTime.date)
    }

    /// The users a text `@mentions` (each once, in order): `@` then a screen
    /// name that ends at anything but a letter, digit, `_` or `-`.
    static func mentionedUsers(in text: String, index: [String: Int]) -> [Int] {
        // No `@` byte, no `@` character (a byte search, not Foundation's).
        guard text.utf8.contains(UInt8(ascii: "@")) else { return [] }
        var found: [Int] = []
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            let after = rest[rest.index(after: at)...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            if let user = index[String(name)], !found.contains(user) { found.append(user) }
            rest = after[name.endIndex...]
        }
        return found
    }

    /// The users `account` follows at the start: up to `initialFollowCount`
    /// others, drawn from the seed.
    private static func initialFollows(seed: UInt64, account: Int, users: Int) -> Set<Int> {
        var rng = SplitMix64(seed: seed, stream: Stream.follows.rawValue, index: UInt64(account))
        var chosen = Set<Int>()
        let wanted = min(initialFollowCount, users - 1)
        while chosen.count < wanted {
            let user = rng.index(users)
            if user != account { chosen.insert(user) }
        }
        return chosen
    }

    /// The comments on the status with `ordinal`, newest first (`count` of them).
    func comments(onOrdinal ordinal: Int, count: Int, after time: Timestamp) -> [SandboxComment] {
        (0..<min(count, SandboxComment.maximumPerStatus)).map { n in
            var rng = SplitMix64(seed: seed, stream: Stream.comments.rawValue,
                                 index: UInt64(ordinal) << 16 | UInt64(n))
            // n counts from the newest; the oldest comment comes 97 s after the status.
            let age = TimeInterval((count - n) * 97)
            return SandboxComment(
                id: SandboxComment.firstID + Int64(ordinal) * 1000 + Int64(count - n),
                createdAt: Timestamp(date: time.date.addingTimeInterval(age)),
                text: text.commentText(&rng), source: rng.pick(Corpus.sources),
                authorIndex: rng.index(users.count))
        }
    }

    private static func makeUsers(seed: UInt64, count: Int) -> [SandboxUser] {
        var taken = Set<String>()
        return (0..<count).map { index in
            var rng = SplitMix64(seed: seed, stream: Stream.users.rawValue, index: UInt64(index))
            var name = screenName(&rng)
            // Screen names are unique: a clash gets the index appended (again, if need be).
            while taken.contains(name) { name += String(index) }
            taken.insert(name)
            let verified = rng.chance(0.2)
            let joined = Date(timeIntervalSince1970: 1_250_000_000 + TimeInterval(rng.int(0...330_000_000)))
            return SandboxUser(
                index: index, id: SandboxUser.firstID + Int64(index), screenName: name,
                location: rng.pick(Corpus.locations), description: rng.pick(Corpus.descriptions),
                gender: rng.pick(["m", "f", "n"]),
                followersCount: rng.chance(0.1) ? rng.int(100_000...50_000_000) : rng.int(0...5_000),
                friendsCount: rng.int(0...2_000), favouritesCount: rng.int(0...800),
                verified: verified, verifiedReason: verified ? rng.pick(Corpus.verifiedReasons) : "",
                createdAt: Timestamp(date: joined),
                avatarKey: "00" + TextGenerator.token(&rng, length: 30), generatedStatusesCount: 0)
        }
    }

    /// Chinese, ASCII and mixed names, all usable as one shell word.
    private static func screenName(_ rng: inout SplitMix64) -> String {
        switch rng.int(0...3) {
        case 0: return rng.pick(Corpus.nameAdjectives) + rng.pick(Corpus.nameNouns)
        case 1: return rng.pick(Corpus.asciiWords) + "_" + rng.pick(Corpus.asciiWords) + String(rng.int(1...99))
        case 2: return rng.pick(Corpus.nameNouns) + rng.pick(Corpus.asciiWords).capitalized
        default: return "用户" + String(rng.int(1_000_000_000...7_999_999_999))
        }
    }

    /// Every `mentionPeriod`-th status (at `mentionOffset`) starts by
    /// `@mentioning` an account, taking the accounts in turn, so each account
    /// has mentions whatever the seed.
    static let mentionPeriod = 12
    static let mentionOffset = 5

    /// What indexing needs of each generated status, oldest first: made
    /// by the same code as the statuses, skipping the text.
    private static func outlines(seed: UInt64, count: Int, users: Int, accounts: Int,
                                 text: TextGenerator) -> [StatusOutline] {
        guard count > 0 else { return [] }
        // Times descend from the newest with gaps of 20 s to 1 h.
        var times = [Date](repeating: newestTime.date, count: count)
        var time = newestTime.date
        for i in times.indices.reversed() {
            times[i] = time
            var rng = SplitMix64(seed: seed, stream: Stream.gaps.rawValue, index: UInt64(i))
            time -= TimeInterval(rng.int(20...3600))
        }
        return (1...count).map { ordinal in
            let status = makeStatus(seed: seed, ordinal: ordinal, createdAt: times[ordinal - 1], users: users,
                                    accounts: accounts, text: text, withText: false)
            // Without text, a boost's text still comes out whole (see `makeStatus`).
            return StatusOutline(author: status.authorIndex, retweetedOrdinal: status.retweetedOrdinal,
                                 createdAt: times[ordinal - 1],
                                 isBoost: status.retweetedOrdinal != nil && status.text == Timeline.boostText)
        }
    }

    /// The generated status with `ordinal`, from its own PRNG stream. Without
    /// text, the same draws are made (so everything else comes out the same)
    /// but no text is put together, except a repost's remark when it is the
    /// whole text: whether a status is a boost is known without the others.
    fileprivate static func makeStatus(seed: UInt64, ordinal: Int, createdAt: Date, users: Int, accounts: Int,
                                       text: TextGenerator, withText: Bool) -> SandboxStatus {
        var rng = SplitMix64(seed: seed, stream: Stream.statuses.rawValue, index: UInt64(ordinal))
        let reposts = ordinal > 1 && rng.chance(0.15)
        let pictures = !reposts && rng.chance(0.25)
            ? (0..<(rng.chance(0.7) ? rng.int(1...3) : rng.int(4...9))).map { _ in
                withText ? "006" + TextGenerator.token(&rng, length: 19) : TextGenerator.skipToken(&rng, length: 19)
            }
            : []
        let popular = rng.chance(0.1)
        var body = reposts ? text.repostText(&rng, build: withText) : text.statusText(&rng, build: withText)
        let source = rng.pick(Corpus.sources)
        let author = rng.index(users)
        // A text not put together (empty) gets no mention; a remark standing alone does, as with text.
        if withText || !body.isEmpty, ordinal % mentionPeriod == mentionOffset {
            let mentioned = text.screenNames[(ordinal / mentionPeriod) % accounts]
            if mentioned != text.screenNames[author], body.count + mentioned.count + 2 <= 140 {
                body = "@\(mentioned) " + body
            }
        }
        return SandboxStatus(
            ordinal: ordinal, createdAt: Timestamp(date: createdAt),
            text: body,
            source: source, authorIndex: author,
            pictureKeys: pictures, retweetedOrdinal: reposts ? rng.int(1...(ordinal - 1)) : nil,
            repostsCount: popular ? rng.int(100...20_000) : rng.int(0...30),
            commentsCount: popular ? rng.int(50...200) : rng.int(0...12),
            attitudesCount: popular ? rng.int(500...90_000) : rng.int(0...100),
            escapesUnicode: rng.chance(0.1))
    }
}

/// What indexing needs of a generated status, known without its text.
struct StatusOutline: Sendable {
    var author: Int
    var retweetedOrdinal: Int?
    var createdAt: Date
    /// A repost with no remark of its own: a boost on the Mastodon side.
    var isBoost: Bool
}

/// The generated statuses, oldest first, each made the first time it is
/// read and kept: a value that reads like an array of every status.
struct GeneratedStatuses: RandomAccessCollection, Sendable {
    private let storage: Storage

    fileprivate init(seed: UInt64, users: Int, accounts: Int, text: TextGenerator, outlines: [StatusOutline],
                     nameIndex: [String: Int]) {
        storage = Storage(seed: seed, users: users, accounts: accounts, text: text, outlines: outlines,
                          nameIndex: nameIndex)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.outlines.count }

    subscript(position: Int) -> SandboxStatus {
        storage.status(at: position)
    }

    func authorIndex(ofOrdinal ordinal: Int) -> Int { storage.outlines[ordinal - 1].author }

    var mentionOrdinalsByUser: [[Int]] { storage.mentionOrdinalsByUser }

    var tagOrdinals: [String: [Int]] { storage.tagOrdinals }

    func notifications(for user: Int, _ make: () -> [SandboxNotification]) -> [SandboxNotification] {
        storage.notifications(for: user, make)
    }

    /// The statuses made so far and the indexes made from their texts
    /// (mentions, tags) or for one user (notifications), behind a lock:
    /// request handlers on several threads read them. Sharing it between
    /// copies is safe, as what it holds is a pure function of the seed.
    private final class Storage: @unchecked Sendable {
        let seed: UInt64
        let users: Int
        let accounts: Int
        let text: TextGenerator
        let outlines: [StatusOutline]
        let nameIndex: [String: Int]
        private let lock = ThreadLock()
        private var made: [SandboxStatus?]
        private var mentions: [[Int]]?
        private var tags: [String: [Int]]?
        private var notifications: [Int: [SandboxNotification]] = [:]

        init(seed: UInt64, users: Int, accounts: Int, text: TextGenerator, outlines: [StatusOutline],
             nameIndex: [String: Int]) {
            self.seed = seed
            self.users = users
            self.accounts = accounts
            self.text = text
            self.outlines = outlines
            self.nameIndex = nameIndex
            made = [SandboxStatus?](repeating: nil, count: outlines.count)
        }

        func status(at index: Int) -> SandboxStatus {
            lock.lock()
            defer { lock.unlock() }
            return locked_status(at: index)
        }

        private func locked_status(at index: Int) -> SandboxStatus {
            if let status = made[index] { return status }
            let status = DataSet.makeStatus(seed: seed, ordinal: index + 1, createdAt: outlines[index].createdAt,
                                            users: users, accounts: accounts, text: text, withText: true)
            made[index] = status
            return status
        }

        var mentionOrdinalsByUser: [[Int]] {
            lock.lock()
            defer { lock.unlock() }
            if let mentions { return mentions }
            var found = [[Int]](repeating: [], count: users)
            for index in outlines.indices {
                let status = locked_status(at: index)
                for user in DataSet.mentionedUsers(in: status.text, index: nameIndex) { found[user].append(status.ordinal) }
            }
            mentions = found
            return found
        }

        /// Made outside the lock, as `make` reads statuses (which takes it);
        /// two requests racing make the same list, and either is kept.
        func notifications(for user: Int, _ make: () -> [SandboxNotification]) -> [SandboxNotification] {
            if let made = lock.withLock({ notifications[user] }) { return made }
            let made = make()
            lock.withLock { notifications[user] = made }
            return made
        }

        var tagOrdinals: [String: [Int]] {
            lock.lock()
            defer { lock.unlock() }
            if let tags { return tags }
            var found: [String: [Int]] = [:]
            for index in outlines.indices {
                let status = locked_status(at: index)
                guard status.text.contains("#") else { continue }
                for name in Hashtags.names(in: status.text) { found[name.lowercased(), default: []].append(status.ordinal) }
            }
            tags = found
            return found
        }
    }
}

// MARK: The seed's direct messages

extension DataSet {
    /// The seed's direct messages, oldest first, with ordinals `1 - count`
    /// through `0` and times before `oldest` (the oldest generated status), so
    /// ids and times keep the same order as everywhere else. Each account has
    /// a conversation with one user who is no account (three messages, the
    /// last theirs: unread) and one with the next account (two messages: the
    /// first account wrote first, the next account answered). Each message after
    /// the first of its conversation replies to the one before and `@mentions`
    /// whom it is to, as a direct status on Mastodon does.
    static func directMessages(seed: UInt64, users names: [String], accounts: Int, text: TextGenerator,
                               before oldest: Date) -> [SandboxStatus] {
        guard names.count > 1 else { return [] }
        var threads: [[(author: Int, to: Int)]] = []
        for account in 0..<accounts {
            var rng = SplitMix64(seed: seed, stream: Stream.direct.rawValue, index: UInt64(account))
            if names.count > accounts {
                let other = accounts + rng.index(names.count - accounts)
                threads.append([(other, account), (account, other), (other, account)])
            }
            let next = (account + 1) % accounts
            // Two accounts make one pair, not the same pair twice.
            if next != account, !(accounts == 2 && account == 1) {
                threads.append([(account, next), (next, account)])
            }
        }
        let count = threads.reduce(0) { $0 + $1.count }
        var made: [SandboxStatus] = []
        for thread in threads {
            let rootOrdinal = made.count - count + 1
            for (position, message) in thread.enumerated() {
                let ordinal = made.count - count + 1
                var rng = SplitMix64(seed: seed, stream: Stream.direct.rawValue, index: 1000 + UInt64(made.count))
                // Whom it mentions is who is in the conversation: a text that mentions anyone else is drawn
                // again. (Tested on bytes: `@` is one, and no corpus text puts a mark after one.)
                var body = text.commentText(&rng)
                for _ in 0..<20 where body.utf8.contains(UInt8(ascii: "@")) { body = text.commentText(&rng) }
                var status = SandboxStatus(
                    ordinal: ordinal,
                    createdAt: Timestamp(date: oldest.addingTimeInterval(-TimeInterval((count - made.count) * 600))),
                    text: "@\(names[message.to]) " + (body.utf8.contains(UInt8(ascii: "@")) ? body.filter { $0 != "@" } : body),
                    source: rng.pick(Corpus.sources),
                    authorIndex: message.author, pictureKeys: [], retweetedOrdinal: nil,
                    repostsCount: 0, commentsCount: 0, attitudesCount: 0, escapesUnicode: false,
                    mastodon: MastodonExtras(visibility: "direct"))
                if position > 0, let parent = made.last {
                    // No Weibo comment stands for it (commentID 0): the Weibo side never shows direct messages.
                    status.replyTo = ReplyLink(parentID: parent.id, parentAuthor: parent.authorIndex,
                                               rootOrdinal: rootOrdinal, commentID: 0)
                }
                made.append(status)
            }
        }
        return made
    }

    /// True when `ordinal` is one of the seed's direct messages (`directMessages`).
    func isDirectMessage(ordinal: Int) -> Bool {
        ordinal <= 0 && ordinal > -directMessages.count
    }

    /// The seed's direct message with `ordinal`.
    func directMessage(ordinal: Int) -> SandboxStatus? {
        isDirectMessage(ordinal: ordinal) ? directMessages[ordinal + directMessages.count - 1] : nil
    }
}

extension Timestamp {
    /// A time at `date` as the sandbox writes its data's times: at +0800, as
    /// Weibo's servers do (its Mastodon side writes the same instants in UTC).
    init(date: Date) { self.init(date: date, utcOffset: 8 * 3600) }
}
