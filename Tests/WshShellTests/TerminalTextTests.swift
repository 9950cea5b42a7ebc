import Foundation
import Testing
import WshModel
import WshViewModel
@testable import WshShell

@Suite("Display width and truncation")
struct DisplayWidthTests {
    @Test("ASCII takes one column, CJK and emoji two, combining marks and joiners none")
    func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("微博") == 4)
        #expect(DisplayWidth.of("ｗ") == 2)
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("👩‍💻") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("한국") == 4)
    }

    @Test("truncation cuts at the column limit, never splits a wide character, and ends in an ellipsis")
    func truncation() {
        #expect(DisplayWidth.truncate("hello world", to: 8) == "hello w…")
        #expect(DisplayWidth.truncate("今天天气不错", to: 7) == "今天天…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("今天天气不错", to: 7)) <= 7)
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.truncate("👩‍💻👩‍💻👩‍💻", to: 5) == "👩‍💻👩‍💻…")
    }

    @Test("the per-scalar shortcut gives every scalar it takes the width its glyph has, and leaves joining text to the glyph count")
    func shortcutAgreesWithGlyphs() {
        var taken = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let width = DisplayWidth.simpleWidth(scalar) else { continue }
            taken += 1
            #expect(width == DisplayWidth.of(Character(scalar)), "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(taken > 40_000)  // Latin, CJK, Hangul and the full-width forms all go the short way
        // Text whose scalars join goes glyph by glyph: the voiced kana mark, a jamo, a keycap, a flag, a skin tone.
        #expect(DisplayWidth.of("か\u{3099}") == 2)
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)
        #expect(DisplayWidth.of("🇨🇳") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("今天\u{200D}好") == 6)
    }

    @Test("measuring and cutting scalar by scalar where scalars cannot join gives what glyph by glyph gives")
    func shortcutTruncatesLikeGlyphs() {
        let texts = ["Hello, 世界！今天天气不错 — “quoted” … end", "한국어 텍스트와 English 섞어서", "ÀÉÎõü ΑΒΓ Привет 微博", "a\tb\u{7}c",
                     "abcde\u{301}fgh ↻12 ✎3 ♥45", "微博e\u{301}x ⌚⭐ →",
                     "Can't sleep... 今天的晚霞好美 🏃‍♂️😀🏃‍♂️ cafe\u{301} 👍🏽!", "1\u{FE0F}\u{20E3} か\u{3099}ん 🇨🇳🇯🇵 \u{1100}\u{1161}\u{11A8}x"]
        for text in texts {
            #expect(DisplayWidth.of(text) == DisplayWidth.clusterWidth(text), "\(text)")
            for columns in 1...DisplayWidth.of(text) + 1 {
                var glyphs = ""
                var used = 0
                for character in text {
                    let width = DisplayWidth.of(character)
                    if used + width > columns - 1 { break }
                    glyphs.append(character)
                    used += width
                }
                let expected = DisplayWidth.clusterWidth(text) > columns ? glyphs + "…" : text
                #expect(DisplayWidth.truncate(text, to: columns) == expected, "\(text) to \(columns)")
            }
        }
    }

    @Test("fitting measures once and gives what cutting then padding gives, for every width")
    func fitIsTruncateThenPad() {
        let texts = ["", "abc", "微博天气真好", "Anyone going to the concert? 加油！ 👍🏽🌸", "e\u{301}e\u{301}e\u{301}", "👩‍💻👩‍💻 ok",
                     "🇨🇳🇯🇵", "a\u{600}b", "\u{1100}\u{1161}\u{11A8}한글", "…", "x\u{200B}y"]
        for text in texts {
            for columns in 0..<24 {
                let expected = DisplayWidth.padRight(DisplayWidth.truncate(text, to: columns), to: columns)
                #expect(Array(DisplayWidth.fit(text, to: columns).utf8) == Array(expected.utf8), "\(text) in \(columns)")
            }
        }
    }

    @Test("padding aligns mixed-width text to the same column")
    func padding() {
        #expect(DisplayWidth.of(DisplayWidth.padRight("微博", to: 8)) == 8)
        #expect(DisplayWidth.of(DisplayWidth.padRight("ab", to: 8)) == 8)
        #expect(DisplayWidth.padLeft("7", to: 3) == "  7")
    }
}

@Suite("Trailing whitespace")
struct TrailingWhitespaceTests {
    @Test("trimmed by bytes where it can be, as Character by Character trims it: CR LF, wide spaces, marks and prepended spaces included")
    func sameAsByCharacter() {
        func byCharacter(_ text: String) -> String {
            var text = text
            while text.last?.isWhitespace == true { text.removeLast() }
            return text
        }
        let cases = ["", " ", "   ", "abc", "abc  ", "abc \t\n", "a\r\n", "a\r\n\r\n ", "微博 ", "微博\u{3000}", "微博\u{3000} ",
                     "e\u{301} ", "e \u{301}", "\u{600} ", "\u{600}  x", "x\u{600} ", "\u{1B}[2m 1\u{1B}[0m", "👩‍💻  ", "a\u{85}", "a \u{A0}",
                     " \n\u{0B}\u{0C}", "tab\t"]
        for text in cases {
            #expect(Array(text.trimmingTrailingWhitespace().utf8) == Array(byCharacter(text).utf8), "\(text.debugDescription)")
        }
    }
}

@Suite("Path completion for source")
struct PathCompletionTests {
    @Test("files and folders under the typed folder, folders ending in a slash, hidden ones only when asked")
    func candidates() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/setup.wsh", contents: Data())
        _ = FileManager.default.createFile(atPath: folder + "/.hidden.wsh", contents: Data())
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(PathCompletion.candidates(for: folder + "/") == [folder + "/lib/", folder + "/setup.wsh"])
        #expect(PathCompletion.candidates(for: folder + "/s") == [folder + "/setup.wsh"])
        #expect(PathCompletion.candidates(for: folder + "/.h") == [folder + "/.hidden.wsh"])
    }
}

@Suite("The timeline list View")
struct TimelineListViewTests {
    @Test("the counts start in the same column on every row, with or without pictures and reposts")
    func countsAlign() {
        let author = User(screenName: "摄影师Coder")
        let statuses = [
            Status(text: "plain text row", user: author),
            Status(text: "这部剧太好看了 with two pictures", picURLs: ["http://p/1.jpg", "http://p/2.jpg"], user: User(screenName: "kafka")),
            Status(text: "a repost", user: author, retweetedStatus: Status(text: "inner", user: author)),
        ]
        let rows = statuses.enumerated().map { StatusCellViewModel(status: $1, index: $0 + 1) }
        let lines = TimelineListView(style: .plain, columns: 90).render(rows).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let columns = lines.map { line in DisplayWidth.of(String(line[..<line.range(of: "↻")!.lowerBound])) }
        #expect(Set(columns).count == 1, "\(lines)")
        #expect(lines[1].hasSuffix("[2 pics]"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 90 })
    }
}
