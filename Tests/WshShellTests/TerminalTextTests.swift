import Foundation
import Testing
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

    @Test("padding aligns mixed-width text to the same column")
    func padding() {
        #expect(DisplayWidth.of(DisplayWidth.padRight("微博", to: 8)) == 8)
        #expect(DisplayWidth.of(DisplayWidth.padRight("ab", to: 8)) == 8)
        #expect(DisplayWidth.padLeft("7", to: 3) == "  7")
    }
}

@Suite("Stripping terminal control sequences from API text")
struct SanitizerTests {
    @Test("CSI, OSC, BEL and C1 controls are removed whole, printable text stays")
    func strips() {
        #expect(Sanitizer.clean("a\u{1B}[2Jb") == "ab")
        #expect(Sanitizer.clean("x\u{1B}]0;pwned\u{07}y") == "xy")
        #expect(Sanitizer.clean("x\u{1B}]8;;http://e\u{1B}\\link\u{1B}]8;;\u{1B}\\y") == "xlinky")
        #expect(Sanitizer.clean("bell\u{07}") == "bell")
        #expect(Sanitizer.clean("c1\u{9B}31mred") == "c1red")
        #expect(Sanitizer.clean("del\u{7F}x") == "delx")
        #expect(Sanitizer.clean("今天 😀 #话题#") == "今天 😀 #话题#")
    }

    @Test("newlines become spaces in one-line views and stay in multi-line views")
    func newlines() {
        #expect(Sanitizer.clean("a\nb\tc") == "a b c")
        #expect(Sanitizer.clean("a\r\nb", keepNewlines: true) == "a\nb")
    }

    @Test("an escape at the very end does not crash or leak")
    func truncatedEscape() {
        #expect(Sanitizer.clean("abc\u{1B}") == "abc")
        #expect(Sanitizer.clean("abc\u{1B}[") == "abc")
        #expect(Sanitizer.clean("abc\u{1B}]unterminated") == "abc")
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
