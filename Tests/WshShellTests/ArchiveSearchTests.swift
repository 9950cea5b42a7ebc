import Foundation
import Testing
import WshArchive
import WshModel

/// `archive search` in the store itself: which index a word goes to, and
/// that words of any length are found inside sentences, in Chinese and English.
@Suite("Searching the archive")
struct ArchiveSearchTests {
    private static func status(_ id: Int, _ text: String, alt: String? = nil) -> ArchivedStatus {
        var storage = Status.Storage()
        storage.idstr = String(id)
        storage.id = Int64(id)
        storage.text = text
        if let alt {
            storage.picURLs = ["https://example.com/\(id).png"]
            storage.mediaDescriptions = [alt]
        }
        var user = User.Storage()
        user.idstr = "1"
        user.screenName = "ada"
        storage.user = User(user)
        let status = Status(storage)
        return ArchivedStatus(status: status, json: String(decoding: try! JSONEncoder().encode(status), as: UTF8.self),
                              modelEncoded: true)
    }

    private static func store() throws -> ArchiveStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-archive-\(UUID().uuidString)").path
        return try ArchiveStore(path: folder + "/archive.sqlite")
    }

    @Test("Chinese is written as two-character words plus each run's last character; other text stays")
    func indexedText() {
        #expect(ArchiveWords.indexed("今天北京的天气") == " 今天 天北 北京 京的 的天 天气 气")
        #expect(ArchiveWords.indexed("Swift 6 学习中!") == "Swift 6  学习 习中 中 !")
        #expect(ArchiveWords.indexed("ソフト和한국어") == " ソフ フト ト和 和한 한국 국어 어")
    }

    @Test("one or two characters go to the words table, three or more to the trigrams, the rest to a scan")
    func terms() {
        #expect(ArchiveWords.term("天") == .word("\"天\"*"))
        #expect(ArchiveWords.term("天气") == .word("\"天气\""))
        #expect(ArchiveWords.term("go") == .word("\"go\"*"))
        #expect(ArchiveWords.term("天气好") == .trigram("天气好"))
        #expect(ArchiveWords.term("concert") == .trigram("concert"))
        #expect(ArchiveWords.term("A股") == .scan("A股"))
        #expect(ArchiveWords.term("!?") == .scan("!?"))
    }

    @Test("words of one, two and more characters are found inside sentences, marked whatever their case")
    func findsInsideSentences() throws {
        let store = try Self.store()
        let scope = ArchiveScope(server: "https://example.social/", account: "@ada", api: "mastodon", source: "home")
        try store.store([
            Self.status(3, "今天北京的天气特别好，我们去公园散步吧"),
            Self.status(2, "Anyone going to the Concert tonight? A股 rallied"),
            Self.status(1, "明天见", alt: "一只熊猫在吃竹子"),
        ], scope: scope, cursors: nil)
        func found(_ query: String) throws -> [String] {
            try store.search(query, limit: 10).map(\.marked).map {
                String($0.map { $0 == ArchiveMatch.markStart ? "«" : $0 == ArchiveMatch.markEnd ? "»" : $0 })
            }
        }
        #expect(try found("天气") == ["今天北京的«天气»特别好，我们去公园散步吧"])
        #expect(try found("园") == ["今天北京的天气特别好，我们去公«园»散步吧"])
        #expect(try found("吧") == ["今天北京的天气特别好，我们去公园散步«吧»"])
        #expect(try found("天气特别") == ["今天北京的«天气特别»好，我们去公园散步吧"])
        #expect(try found("concert") == ["Anyone going to the «Concert» tonight? A股 rallied"])
        #expect(try found("go") == ["Anyone «go»ing to the Concert tonight? A股 rallied"])
        #expect(try found("A股") == ["Anyone going to the Concert tonight? «A股» rallied"])
        #expect(try found("北京 公园") == ["今天«北京»的天气特别好，我们去«公园»散步吧"])
        #expect(try found("北京 tonight") == [])
        // A media description is searched too (the row shows the text).
        #expect(try found("熊猫") == ["明天见"])
        #expect(try found("竹子").count == 1)
    }

    @Test("statuses stored but not indexed yet (a sync killed before it indexed) are found all the same")
    func pendingIndex() throws {
        let store = try Self.store()
        let scope = ArchiveScope(server: "https://example.social/", account: "@ada", api: "mastodon", source: "home")
        try store.store([Self.status(1, "第一条：早安")], scope: scope, cursors: nil)
        #expect(try store.hasPendingIndex())
        // Another wsh opens the file later: it finds them pending, and the search indexes them.
        let later = try ArchiveStore(path: store.path, create: false)
        #expect(try later.search("早安", limit: 5).count == 1)
        #expect(try !later.hasPendingIndex())
    }

    @Test("a word in more statuses than the ranked window is ranked among those kept last; a rarer one among all")
    func rankedWindow() throws {
        let store = try Self.store()
        let scope = ArchiveScope(server: "https://example.social/", account: "@ada", api: "mastodon", source: "home")
        let window = ArchiveStore.rankedWindow
        // bm25 puts the shortest text first. The shortest of all is kept first, outside the window of the
        // statuses kept last; a short one of the window comes first instead.
        var page = [Self.status(1, "天晴")]
        page += (2...window).map { Self.status($0, "今天的天气和昨天一样，出门的时候记得带伞，下午可能还会下雨 \($0)") }
        page.append(Self.status(window + 1, "天好"))
        page += (window + 2...window + 10).map { Self.status($0, "今天的天气和昨天一样，出门的时候记得带伞，下午可能还会下雨 \($0)") }
        try store.store(page, scope: scope, cursors: nil)
        let common = try store.search("天", limit: 3).map(\.status.text)
        #expect(common.first == "天好", "\(common)")
        #expect(!common.contains("天晴"), "\(common)")
        // A word only a few statuses have is ranked over all of them, the first kept too.
        #expect(try store.search("晴", limit: 3).map(\.status.text) == ["天晴"])
        let both = try store.search("天晴 天好", limit: 3)
        #expect(both.isEmpty)
    }
}

extension ArchiveSearchTests {
    @Test("on a full disk the index cannot catch up: the statuses it lacks are still found, by a scan",
          arguments: ["早安", "北京", "morning", "mo", "A股"])
    func fullDiskSearch(_ query: String) throws {
        let store = try Self.store()
        let scope = ArchiveScope(server: "https://example.social/", account: "@ada", api: "mastodon", source: "home")
        try store.store([Self.status(1, "第一条：早安 morning"), Self.status(2, "北京 A股 the mood")], scope: scope, cursors: nil)
        try store.indexPending()
        // A sync stopped by a full disk: its pages are kept, their index could not be written.
        // Enough text that its index needs pages the file may not grow by.
        let filler = (5..<60).map { Self.status($0, (0..<40).map { "filler\($0) 填充\($0)" }.joined(separator: " ")) }
        try store.store([Self.status(3, "第三条：早安 morning, from 北京 on A股"), Self.status(4, "nothing here")] + filler,
                        scope: scope, cursors: nil)
        let full = try ArchiveStore(path: store.path, create: false, maximumPages: 1)
        #expect(throws: ArchiveError.self) { try full.indexPending() }
        let found = try full.search(query, limit: 10).compactMap(\.status.identifier)
        #expect(found.contains("3"), "\(query): \(found)")
        #expect(!found.contains("4"))
        #expect(Set(found).count == found.count, "\(found)")
    }
}
