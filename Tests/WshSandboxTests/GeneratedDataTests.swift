import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("Generated data")
struct GeneratedDataTests {
    /// Bodies whose bytes two sandboxes are compared on.
    static let probes: [(String, String)] = [
        ("statuses/public_timeline.json", ""),
        ("statuses/public_timeline.json", "count=100&page=3"),
        ("statuses/show.json", "id=4000000000000500"),
        ("users/show.json", "uid=1700000007"),
        ("comments/show.json", "id=4000000000000998&count=20"),
    ]

    @Test("two sandboxes with the same seed serve byte-identical responses (but for their port in picture URLs)")
    func sameSeed_identicalBytes() async throws {
        let a = try await SandboxServer.start(SandboxConfiguration(seed: 42))
        let b = try await SandboxServer.start(SandboxConfiguration(seed: 42))
        for (endpoint, query) in Self.probes {
            let left = await a.get(endpoint, query)
            let right = await b.get(endpoint, query)
            #expect(left.status == 200)
            #expect(a.portless(left) == b.portless(right), "\(endpoint)?\(query)")
        }
        await a.stop()
        await b.stop()
    }

    @Test("different seeds give different data")
    func differentSeeds_differ() async throws {
        let a = try await SandboxServer.start(SandboxConfiguration(seed: 1))
        let b = try await SandboxServer.start(SandboxConfiguration(seed: 2))
        #expect(await a.get("statuses/public_timeline.json").body != b.get("statuses/public_timeline.json").body)
        #expect(await a.get("users/show.json", "uid=1700000000").body != b.get("users/show.json", "uid=1700000000").body)
        await a.stop()
        await b.stop()
    }

    @Test("pages 1 to 5 hold CJK, emoji outside the BMP, ZWJ sequences, topics, mentions of real users and t.cn links")
    func text_isRealisticallyMixed() async throws {
        try await withSandbox { server in
            var texts: [String] = []
            for page in 1...5 {
                let data = await server.get("statuses/public_timeline.json", "page=\(page)").data
                texts += try ModelDecoding.decode(TimelinePage.self, from: data).statuses.compactMap(\.text)
            }
            let all = texts.joined(separator: "\n")
            #expect(all.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) })
            #expect(all.unicodeScalars.contains { $0.value > 0xFFFF })
            #expect(all.unicodeScalars.contains { $0.value == 0x200D })
            #expect(all.contains(/#[^#\s]+#/))
            #expect(all.contains("http://t.cn/"))
            let mentioned = try #require(all.firstMatch(of: /@([\w\-]+)/)?.output.1)
            #expect(await server.get("users/show.json", "screen_name=\(formEncoded(String(mentioned)))").status == 200)
            for text in texts { #expect(text.count <= 140) }
        }
    }

    @Test("a zero-width space and PHP-style escapes (\\uXXXX, \\/) appear, and decode to the same text")
    func hazards_appearAndDecode() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/public_timeline.json", "count=200")
            #expect(result.text.contains("\\u"))
            #expect(result.text.contains("\\/"))
            let page = try ModelDecoding.decode(TimelinePage.self, from: result.data)
            #expect(page.statuses.contains { $0.text?.contains("\u{200B}") == true })
            #expect(page.statuses.allSatisfy { $0.text?.contains("\\u") == false })
        }
    }

    @Test("statuses are newest first by created_at across the whole timeline")
    func timeline_descendsByTime() async throws {
        try await withSandbox(SandboxConfiguration(statuses: 600)) { server in
            var times: [Timestamp] = []
            for page in 1...3 {
                let data = await server.get("statuses/public_timeline.json", "count=200&page=\(page)").data
                times += try ModelDecoding.decode(TimelinePage.self, from: data).statuses.compactMap(\.createdAt)
            }
            #expect(times.count == 600)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 > $1 })
            #expect(times.first?.weiboText == "Mon Nov 11 21:30:00 +0800 2024")
        }
    }
}
