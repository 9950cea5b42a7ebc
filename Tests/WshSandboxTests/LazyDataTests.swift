import Foundation
import Testing
import WshModel
@testable import WshSandbox
import WshText

/// The data set makes a status's text only when the status is first read;
/// these tests hold it to the data the sandbox made all at once before,
/// whose generator is kept below as the reference.
@Suite("Lazily generated data")
struct LazyDataTests {
    static let shapes: [(seed: UInt64, users: Int, statuses: Int)] = [
        (1, 50, 1000), (42, 50, 1000), (7, 3, 300), (99, 1, 40), (5, 10, 0),
    ]

    @Test("statuses made on first read equal those made eagerly, field for field, read in any order")
    func statuses_equalEagerOnes() {
        for shape in Self.shapes {
            let data = DataSet(seed: shape.seed, users: shape.users, statuses: shape.statuses)
            let reference = EagerReference.statuses(seed: shape.seed, count: shape.statuses, users: data.users.count,
                                                    accounts: data.accounts, text: data.text)
            #expect(data.statuses.count == reference.count)
            // Newest first, as a timeline reads them, then every other one.
            var order = Array(data.statuses.indices.reversed().prefix(20))
            order += data.statuses.indices.filter { $0 % 2 == 1 } + data.statuses.indices
            for index in order {
                let made = data.statuses[index]
                let expected = reference[index]
                #expect(made.ordinal == expected.ordinal)
                #expect(made.createdAt == expected.createdAt, "status \(index + 1), seed \(shape.seed)")
                #expect(made.text == expected.text, "status \(index + 1), seed \(shape.seed)")
                #expect(made.source.name == expected.source.name && made.source.href == expected.source.href)
                #expect(made.authorIndex == expected.authorIndex)
                #expect(made.pictureKeys == expected.pictureKeys)
                #expect(made.retweetedOrdinal == expected.retweetedOrdinal)
                #expect(made.repostsCount == expected.repostsCount)
                #expect(made.commentsCount == expected.commentsCount)
                #expect(made.attitudesCount == expected.attitudesCount)
                #expect(made.escapesUnicode == expected.escapesUnicode)
                #expect(data.authorIndex(ofOrdinal: index + 1) == expected.authorIndex)
            }
        }
    }

    @Test("the users' status counts and the timelines' indexes equal those of the eager data")
    func indexes_equalEagerOnes() {
        for shape in Self.shapes {
            let data = DataSet(seed: shape.seed, users: shape.users, statuses: shape.statuses)
            let reference = EagerReference.statuses(seed: shape.seed, count: shape.statuses, users: data.users.count,
                                                    accounts: data.accounts, text: data.text)
            var counts = [Int](repeating: 0, count: data.users.count)
            var latest = [Int?](repeating: nil, count: data.users.count)
            var byUser = [[Int]](repeating: [], count: data.users.count)
            var mentions = [[Int]](repeating: [], count: data.users.count)
            var reposts: [Int: [Int]] = [:]
            var shown: [Int] = []
            var tags: [String: [Int]] = [:]
            for status in reference {
                counts[status.authorIndex] += 1
                latest[status.authorIndex] = status.ordinal
                byUser[status.authorIndex].append(status.ordinal)
                for user in DataSet.mentionedUsers(in: status.text, index: data.userIndexByScreenName) {
                    mentions[user].append(status.ordinal)
                }
                if let original = status.retweetedOrdinal { reposts[original, default: []].append(status.ordinal) }
                // The Mastodon public timeline's index tells a boost from its outline alone, without the text.
                if !(status.retweetedOrdinal != nil && status.text == Timeline.boostText) { shown.append(status.ordinal) }
                for name in Hashtags.names(in: status.text) { tags[name.lowercased(), default: []].append(status.ordinal) }
            }
            #expect(data.users.map(\.generatedStatusesCount) == counts)
            #expect(data.latestOrdinalByUser == latest)
            #expect(data.ordinalsByUser == byUser)
            #expect(data.repostOrdinalsByOrdinal == reposts)
            #expect(data.mentionOrdinalsByUser == mentions)
            #expect(data.publicOrdinals == shown)
            #expect(data.tagOrdinals == tags)
            if shape.statuses >= 100 { #expect(shown.count < reference.count && !tags.isEmpty) }
            if shape.statuses >= 100 { #expect(mentions.contains { !$0.isEmpty }) }
        }
    }

    @Test("a home timeline, read through the authors alone, lists what the statuses say")
    func homeTimeline_matchesStatuses() {
        let timeline = Timeline(data: DataSet(seed: 3, users: 20, statuses: 400))
        let authors: Set<Int> = [0, 4, 7]
        let expected = (1...400).reversed().filter { authors.contains(timeline.status(ordinal: $0)!.authorIndex) }
        #expect(timeline.ordinals(byAnyOf: authors) == expected)
        #expect(!expected.isEmpty)
    }

    @Test("a fresh sandbox's first request serves what one with every status made serves")
    func firstRequest_equalsWarmSandbox() async throws {
        let cold = try await SandboxServer.start(SandboxConfiguration(seed: 11))
        let warm = try await SandboxServer.start(SandboxConfiguration(seed: 11))
        // Reading every account's mentions makes every status of `warm`.
        for account in warm.accounts {
            #expect(await warm.get("statuses/mentions.json", "count=100", token: account.token).status == 200)
        }
        let first = await cold.get("statuses/public_timeline.json", "count=20")
        #expect(first.status == 200)
        #expect(cold.portless(first) == warm.portless(await warm.get("statuses/public_timeline.json", "count=20")))
        let page = try ModelDecoding.decode(TimelinePage.self, from: first.data)
        #expect(page.statuses.count == 20)
        #expect(page.statuses.first?.id == SandboxStatus.firstID + 1000)
        await cold.stop()
        await warm.stop()
    }
}

/// The generator as it was when every status was made at start-up: the
/// reference the lazy data set is held to.
private enum EagerReference {
    static func statuses(seed: UInt64, count: Int, users: Int, accounts: Int, text: TextGenerator) -> [SandboxStatus] {
        guard count > 0 else { return [] }
        var statuses: [SandboxStatus] = []
        for ordinal in 1...count {
            var rng = SplitMix64(seed: seed, stream: 2, index: UInt64(ordinal))
            let reposts = ordinal > 1 && rng.chance(0.15)
            let pictures = !reposts && rng.chance(0.25)
                ? (0..<(rng.chance(0.7) ? rng.int(1...3) : rng.int(4...9))).map { _ in
                    "006" + TextGenerator.token(&rng, length: 19)
                }
                : []
            let popular = rng.chance(0.1)
            var body = reposts ? repostText(&rng, text.screenNames) : statusText(&rng, text.screenNames)
            let source = rng.pick(Corpus.sources)
            let author = rng.index(users)
            if ordinal % DataSet.mentionPeriod == DataSet.mentionOffset {
                let mentioned = text.screenNames[(ordinal / DataSet.mentionPeriod) % accounts]
                if mentioned != text.screenNames[author], body.count + mentioned.count + 2 <= 140 {
                    body = "@\(mentioned) " + body
                }
            }
            statuses.append(SandboxStatus(
                ordinal: ordinal, createdAt: DataSet.newestTime, text: body, source: source, authorIndex: author,
                pictureKeys: pictures, retweetedOrdinal: reposts ? rng.int(1...(ordinal - 1)) : nil,
                repostsCount: popular ? rng.int(100...20_000) : rng.int(0...30),
                commentsCount: popular ? rng.int(50...200) : rng.int(0...12),
                attitudesCount: popular ? rng.int(500...90_000) : rng.int(0...100),
                escapesUnicode: rng.chance(0.1)))
        }
        var time = DataSet.newestTime.date
        for i in statuses.indices.reversed() {
            statuses[i].createdAt = Timestamp(date: time, utcOffset: 8 * 3600)
            var rng = SplitMix64(seed: seed, stream: 4, index: UInt64(i))
            time -= TimeInterval(rng.int(20...3600))
        }
        return statuses
    }

    static func statusText(_ rng: inout SplitMix64, _ screenNames: [String]) -> String {
        var parts: [String] = []
        if rng.chance(0.3) { parts.append(rng.pick(Corpus.topics)) }
        if rng.chance(0.25) { parts.append("@" + rng.pick(screenNames)) }
        for _ in 0..<rng.int(1...3) {
            parts.append(rng.chance(0.7) ? rng.pick(Corpus.chinese) : rng.pick(Corpus.english))
        }
        if rng.chance(0.5) {
            parts.append((0..<rng.int(1...3)).map { _ in rng.pick(Corpus.emoji) }.joined())
        }
        if rng.chance(0.2) { parts.append(rng.pick(Corpus.emoticons)) }
        if rng.chance(0.15) { parts.append(TextGenerator.shortLink(&rng)) }
        if rng.chance(0.1) { parts.append("@" + rng.pick(screenNames)) }
        var kept = parts
        while kept.count > 1, kept.joined(separator: " ").count > 140 { kept.removeLast() }
        var text = kept.joined(separator: " ")
        if rng.chance(0.03) { text.insert("\u{200B}", at: text.index(text.startIndex, offsetBy: text.count / 2)) }
        if rng.chance(0.03) { text += "\n" + rng.pick(Corpus.chinese) }
        if rng.chance(0.01) { text = "\u{1B}[31m" + text + "\u{1B}[0m" }
        return String(text.prefix(140))
    }

    static func repostText(_ rng: inout SplitMix64, _ screenNames: [String]) -> String {
        var text = rng.pick(Corpus.repostComments)
        if rng.chance(0.4) {
            text += " //@" + rng.pick(screenNames) + ":" + rng.pick(Corpus.repostComments)
        }
        return text
    }
}

@Suite("The sandbox's HTTP service")
struct SandboxHTTPServiceTests {
    @Test("the Date header (CivilTime.httpDateText) is an IMF-fixdate, as a date formatter writes it, across years and leap days")
    func httpDate_matchesFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var rng = SplitMix64(seed: 9)
        var instants = [0, 59, 86_399, 86_400, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_399, 1_732_406_399]
        instants += (0..<500).map { _ in rng.int(0...4_102_444_800) }
        for seconds in instants {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(CivilTime.httpDateText(secondsSince1970: seconds) == expected, "\(seconds)")
        }
        #expect(CivilTime.httpDateText(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("every response carries a Date header naming the day it was sent")
    func responses_carryDate() async throws {
        try await withSandbox { server in
            for endpoint in ["statuses/public_timeline.json", "no/such/endpoint.json"] {
                let result = await server.get(endpoint)
                let date = try #require(result.headers["date"], "\(endpoint): \(result.headers)")
                #expect(date.hasSuffix(" GMT"))
                let today = CivilTime.httpDateText(secondsSince1970: Int(Date().timeIntervalSince1970))
                // The same day, month and year as now (barring a request at midnight).
                #expect(date.dropFirst(5).prefix(11) == today.dropFirst(5).prefix(11) || today.contains(" 00:00:0"))
            }
        }
    }
}
