import Foundation
import WshModel

/// The generated users and statuses of one sandbox: a pure function of the
/// seed and the sizes, so two sandboxes with the same seed serve the same bytes.
struct DataSet: Sendable {
    let seed: UInt64
    let users: [SandboxUser]
    /// Generated statuses, oldest first: `statuses[i].ordinal == i + 1`.
    let statuses: [SandboxStatus]
    let userIndexByScreenName: [String: Int]
    /// For each user, the ordinal of their newest generated status.
    let latestOrdinalByUser: [Int?]
    /// For each user, the ordinals of their generated statuses, oldest first
    /// (for `statuses/user_timeline.json`).
    let ordinalsByUser: [[Int]]
    /// For each user, the ordinals of generated statuses that `@mention` them, oldest first.
    let mentionOrdinalsByUser: [[Int]]
    /// For each status ordinal, the generated statuses that repost it, oldest first.
    let repostOrdinalsByOrdinal: [Int: [Int]]
    /// How many of the first users are accounts (they act through tokens).
    let accounts: Int
    /// Whom each account follows at the start (user indices), by account index.
    let initialFollowing: [Set<Int>]
    let text: TextGenerator

    /// The time of the newest generated status; posts follow it a minute apart.
    static let newestTime = WeiboTime(weiboText: "Mon Nov 11 21:30:00 +0800 2024")!

    // Independent PRNG streams, so adding statuses never changes users.
    private enum Stream: UInt64 { case users = 1, statuses, comments, gaps, follows }

    /// How many users each account follows at the start.
    static let initialFollowCount = 10

    init(seed: UInt64, users userCount: Int, statuses statusCount: Int, accounts accountCount: Int = 3) {
        self.seed = seed
        var users = Self.makeUsers(seed: seed, count: max(1, userCount))
        let names = users.map(\.screenName)
        accounts = max(1, min(accountCount, users.count))
        text = TextGenerator(screenNames: names)
        statuses = Self.makeStatuses(seed: seed, count: max(0, statusCount), users: users.count,
                                     accounts: accounts, text: text)
        let nameIndex = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var latest = [Int?](repeating: nil, count: users.count)
        var byUser = [[Int]](repeating: [], count: users.count)
        var mentions = [[Int]](repeating: [], count: users.count)
        var reposts: [Int: [Int]] = [:]
        for status in statuses {
            users[status.authorIndex].generatedStatusesCount += 1
            latest[status.authorIndex] = status.ordinal
            byUser[status.authorIndex].append(status.ordinal)
            for user in Self.mentionedUsers(in: status.text, index: nameIndex) { mentions[user].append(status.ordinal) }
            if let original = status.retweetedOrdinal { reposts[original, default: []].append(status.ordinal) }
        }
        self.users = users
        latestOrdinalByUser = latest
        ordinalsByUser = byUser
        mentionOrdinalsByUser = mentions
        repostOrdinalsByOrdinal = reposts
        userIndexByScreenName = nameIndex
        initialFollowing = (0..<accounts).map { Self.initialFollows(seed: seed, account: $0, users: users.count) }
    }

    /// The users a text `@mentions` (each once, in order): `@` then a screen
    /// name that ends at anything but a letter, digit, `_` or `-`.
    static func mentionedUsers(in text: String, index: [String: Int]) -> [Int] {
        guard text.contains("@") else { return [] }
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
    func comments(onOrdinal ordinal: Int, count: Int, after time: WeiboTime) -> [SandboxComment] {
        (0..<min(count, SandboxComment.maximumPerStatus)).map { n in
            var rng = SplitMix64(seed: seed, stream: Stream.comments.rawValue,
                                 index: UInt64(ordinal) << 16 | UInt64(n))
            // n counts from the newest; the oldest comment comes 97 s after the status.
            let age = TimeInterval((count - n) * 97)
            return SandboxComment(
                id: SandboxComment.firstID + Int64(ordinal) * 1000 + Int64(count - n),
                createdAt: WeiboTime(date: time.date.addingTimeInterval(age)),
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
                createdAt: WeiboTime(date: joined),
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

    private static func makeStatuses(seed: UInt64, count: Int, users: Int, accounts: Int,
                                     text: TextGenerator) -> [SandboxStatus] {
        guard count > 0 else { return [] }
        var statuses: [SandboxStatus] = []
        statuses.reserveCapacity(count)
        for ordinal in 1...count {
            var rng = SplitMix64(seed: seed, stream: Stream.statuses.rawValue, index: UInt64(ordinal))
            let reposts = ordinal > 1 && rng.chance(0.15)
            let pictures = !reposts && rng.chance(0.25)
                ? (0..<(rng.chance(0.7) ? rng.int(1...3) : rng.int(4...9))).map { _ in
                    "006" + TextGenerator.token(&rng, length: 19)
                }
                : []
            let popular = rng.chance(0.1)
            var body = reposts ? text.repostText(&rng) : text.statusText(&rng)
            let source = rng.pick(Corpus.sources)
            let author = rng.index(users)
            if ordinal % mentionPeriod == mentionOffset {
                let mentioned = text.screenNames[(ordinal / mentionPeriod) % accounts]
                if mentioned != text.screenNames[author], body.count + mentioned.count + 2 <= 140 {
                    body = "@\(mentioned) " + body
                }
            }
            statuses.append(SandboxStatus(
                ordinal: ordinal, createdAt: newestTime,
                text: body,
                source: source, authorIndex: author,
                pictureKeys: pictures, retweetedOrdinal: reposts ? rng.int(1...(ordinal - 1)) : nil,
                repostsCount: popular ? rng.int(100...20_000) : rng.int(0...30),
                commentsCount: popular ? rng.int(50...200) : rng.int(0...12),
                attitudesCount: popular ? rng.int(500...90_000) : rng.int(0...100),
                escapesUnicode: rng.chance(0.1)))
        }
        // Times descend from the newest with gaps of 20 s to 1 h.
        var time = newestTime.date
        for i in statuses.indices.reversed() {
            statuses[i].createdAt = WeiboTime(date: time)
            var rng = SplitMix64(seed: seed, stream: Stream.gaps.rawValue, index: UInt64(i))
            time -= TimeInterval(rng.int(20...3600))
        }
        return statuses
    }
}
