import Testing
@testable import WshSandbox

@Suite("Weibo's text length (textLength, and the 140 limit on posts)")
struct WeiboLengthTests {
    /// Weibo's rule on characters as a reader sees them: a non-ASCII character
    /// counts 1, two ASCII characters count 1, rounded up.
    static func byCharacters(_ text: String) -> Int {
        (text.reduce(0) { $0 + ($1.isASCII ? 1 : 2) } + 1) / 2
    }

    @Test("ASCII, CJK, kana, Latin and punctuation count character by character", arguments: [
        "", "a", "ab", "abc", "你好", "你好a", "こんにちは", "カタカナー", "café", "naïve résumé",
        "——“引号”…", "全角ＡＢＣ１２３", "#话题# @用户123 这家店的咖啡不错 http://t.cn/abcdefg",
    ])
    func simpleText(_ text: String) {
        #expect(weiboLength(text) == Self.byCharacters(text))
    }

    @Test("scalars that join into one character count once", arguments: [
        "a\r\n", "a\r\nbc",        // CR LF is one (ASCII) character
        "e\u{301}",               // a combining accent
        "か\u{3099}",             // a combining voiced mark
        "\u{1100}\u{1161}\u{11A8}",  // Hangul jamo making one syllable
        "👩\u{200D}💻 写代码",     // a ZWJ sequence
        "🇨🇳🇯🇵",                 // flags: regional indicator pairs
        "❤️ 1️⃣",                  // variation selectors, a keycap
        "好\u{302A}",             // an ideographic tone mark
        "text\u{200B}with a zero-width space",
    ])
    func joinedScalars(_ text: String) {
        #expect(weiboLength(text) == Self.byCharacters(text))
    }

    @Test("the generated statuses' lengths are those the characters give")
    func generatedTexts() {
        let data = DataSet(seed: 7, users: 20, statuses: 300)
        for status in data.statuses {
            #expect(weiboLength(status.text) == Self.byCharacters(status.text), "\(status.text)")
        }
    }
}
