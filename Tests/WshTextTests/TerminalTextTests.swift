import Testing
import WshText

/// Bytes that would drive a terminal: what a hostile server puts in any text field.
enum Hostile {
    static let esc = "\u{1B}"
    /// Every kind of sequence, in 7-bit and C1 forms, plus controls and bidi overrides.
    static let all = [
        "\(esc)[31mRED\(esc)[0m", "\(esc)]0;PWNED\u{07}", "\(esc)]52;c;ZXZpbA==\u{07}", "\(esc)[2J\(esc)[H",
        "\(esc)P1$qm\(esc)\\", "\(esc)_apc\(esc)\\", "\(esc)^pm\(esc)\\", "\(esc)Xsos\(esc)\\", "\(esc)(0", "\(esc)c",
        "\u{9B}31m", "\u{9D}0;title\u{9C}", "\u{90}dcs\u{9C}", "\u{9E}pm\u{9C}", "\u{9F}apc\u{9C}", "\u{98}sos\u{9C}",
        "\u{07}\u{08}\u{7F}\u{85}", "\u{202E}evil\u{202C}", "\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}",
    ].joined(separator: "·")

    /// True when `text` holds a control, a bidi control, or what is left of an escape sequence.
    static func hasControlOrRemnant(_ text: String) -> Bool {
        let controls = text.unicodeScalars.contains { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F].contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }
        let remnants = ["[31m", "[0m", "]0;", "]52;", "[2J", "PWNED", "ZXZpbA", "1$qm", "title", "apc", "dcs", "sos"]
        return controls || remnants.contains { text.contains($0) }
    }
}

@Suite("The one sanitizer of server text")
struct TerminalTextTests {
    @Test("escape sequences of every kind are removed whole, leaving no remnant, in 7-bit and C1 forms")
    func removesWholeSequences() {
        let clean = TerminalText.sanitize("before·" + Hostile.all + "·after")
        #expect(!Hostile.hasControlOrRemnant(clean), "\(clean.debugDescription)")
        #expect(clean.hasPrefix("before·"))
        #expect(clean.hasSuffix("·after"))
        #expect(clean.contains("RED"))
        #expect(clean.contains("evil"))
    }

    @Test("printable text of every script survives unchanged, emoji and joiners included")
    func keepsText() {
        for text in ["今天 😀 #话题# @用户 http://t.cn/abc", "👩‍💻 e\u{301} a\u{200B}b", "tab\tand", "العربية עברית"] {
            #expect(TerminalText.sanitize(text, .multiline) == text)
        }
    }

    @Test("one-line views turn line breaks and tabs into spaces; multi-line views keep LF and fold CR LF")
    func lineBreaks() {
        #expect(TerminalText.sanitize("a\nb\tc\r\nd\re") == "a b c d e")
        #expect(TerminalText.sanitize("a\r\nb\u{2028}c", .multiline) == "a\nb\nc")
    }

    @Test("a sequence cut off at the end of the text removes the rest, and never crashes")
    func truncatedSequences() {
        #expect(TerminalText.sanitize("abc\u{1B}") == "abc")
        #expect(TerminalText.sanitize("abc\u{1B}[12;") == "abc")
        #expect(TerminalText.sanitize("abc\u{1B}]0;unterminated") == "abc")
        #expect(TerminalText.sanitize("abc\u{9D}unterminated") == "abc")
    }

    @Test("a CSI broken by a non-ASCII character ends there, and the character is kept")
    func brokenSequenceKeepsText() {
        #expect(TerminalText.sanitize("a\u{1B}[3微b") == "a微b")
    }

    @Test("the output policy keeps the shell's own colours and nothing else")
    func outputKeepsStyles() {
        let styled = "\u{1B}[1;31mbold red\u{1B}[0m"
        #expect(TerminalText.sanitize(styled, .output) == styled)
        #expect(TerminalText.sanitize("x\u{1B}]0;t\u{07}\u{1B}[2Jy\u{9B}1m", .output) == "xy")
        #expect(TerminalText.sanitize(styled) == "bold red")
        #expect(TerminalText.sanitize("50%\r", .output) == "50%\r")
    }

    @Test("a control, DEL, C1 or bidi control is found wherever it falls in a long printable run, eight bytes at a time or not")
    func foundAtEveryOffset() {
        let intruders = ["\u{1B}[2J", "\u{07}", "\u{7F}", "\u{9B}31m", "\u{202E}", "\u{2066}", "\u{61C}", "\r", "\t"]
        for intruder in intruders {
            for offset in 0..<20 {
                for tail in [0, 1, 7, 8, 9] {
                    // Printable runs of ASCII, and of CJK (three bytes a character, so every alignment comes up).
                    let head = offset % 2 == 0 ? String(repeating: "a", count: offset) : String(repeating: "微", count: offset)
                    let text = head + intruder + String(repeating: "z", count: tail)
                    let clean = TerminalText.sanitize(text)
                    #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                                || [0x202E, 0x2066, 0x61C].contains($0.value) }, "\(text.debugDescription) → \(clean.debugDescription)")
                    #expect(clean.hasPrefix(head) && clean.hasSuffix(String(repeating: "z", count: tail)))
                }
            }
        }
        // Printable text of every length comes back as it was: ASCII, and mixed with
        // characters whose UTF-8 starts as a C1 or bidi control's does (é is C3 A9, – E2 80 93, ب D8 A8).
        for count in 0..<40 {
            let ascii = String((0..<count).map { Character(Unicode.Scalar(0x20 + ($0 * 7) % 95)!) })
            #expect(TerminalText.sanitize(ascii) == ascii)
            let mixed = String((0..<count).map { ["a", "é", "–", "ب", "微", "\u{A0}", "…"][$0 % 7] as Character })
            #expect(TerminalText.sanitize(mixed) == mixed, "\(mixed)")
        }
    }

    @Test("every single byte and every pair of bytes sanitizes without a crash or a leak")
    func exhaustivePairs() {
        for first in 0..<256 {
            for second in stride(from: 0, to: 256, by: 3) {
                let text = String(decoding: [UInt8(first), UInt8(second), 0x41], as: UTF8.self)
                #expect(!Hostile.hasControlOrRemnant(TerminalText.sanitize(text, .multiline)) || text.contains("PWNED"))
            }
        }
    }

    @Test("a long coloured listing keeps every row and every colour, as written")
    func longStyledOutput() {
        // What `list` prints after `fetch --all`: thousands of rows, each with its colours.
        let rows = (1...20_000).map { "\u{1B}[2m\($0)\u{1B}[0m  \u{1B}[1m@user\($0 % 97)\u{1B}[0m  今天天气真好 row \($0)" }
        let text = rows.joined(separator: "\n")
        let kept = TerminalText.sanitize(text, .output)
        #expect(kept == text)
        // A control sequence that is not a colour still goes, wherever it is.
        let moved = TerminalText.sanitize(text + "\u{1B}[2J\u{1B}[31mend\u{1B}[0m", .output)
        #expect(moved == text + "\u{1B}[31mend\u{1B}[0m")
    }
}

@Suite("Masking secrets")
struct RedactionTests {
    let token = "2.00abcDEF123xyz"

    @Test("a token is masked wherever it occurs, glued to other text or not")
    func masksLongTokens() {
        #expect(Redaction.redact("post \"hi \(token)\"", secrets: [token]) == "post \"hi ***\"")
        #expect(Redaction.redact("mute @x\(token)", secrets: [token]) == "mute @x***")
        #expect(Redaction.redact("https://h/2/?access_token=\(token)&a=1") == "https://h/2/?access_token=***&a=1")
    }

    @Test("a short token is masked only as a word of its own, so ordinary text is not mangled")
    func shortTokensMatchWholeWords() {
        #expect(Redaction.redact("detail: no row 9: the list has 3 rows", secrets: ["t"]) == "detail: no row 9: the list has 3 rows")
        #expect(Redaction.redact("token is t here", secrets: ["t"]) == "token is *** here")
        #expect(Redaction.redact("abc abcd xabc", secrets: ["abc"]) == "*** abcd xabc")
    }
}

@Suite("Plain text from HTML")
struct HTMLTextTests {
    @Test("tags are dropped, entities decoded, block ends become line breaks, scripts and styles vanish")
    func plainText() {
        #expect(HTMLText.plainText("<a href=\"http://x\" rel=\"nofollow\">iPhone客户端</a>") == "iPhone客户端")
        #expect(HTMLText.plainText("a &amp; b &lt;c&gt; &#39;d&#39; &#x1F600; &bogus; & e") == "a & b <c> 'd' 😀 &bogus; & e")
        let page = "<html><head><title>502 Bad Gateway</title><style>h1{}</style></head><body><h1>502</h1>nginx</body></html>"
        #expect(HTMLText.plainText(page).split(separator: "\n").map(String.init) == ["502 Bad Gateway", "502", "nginx"])
    }

    @Test("Mastodon's markup: paragraphs and <br>, <br/>, <br />; links as their text, hidden parts dropped; mentions as @name")
    func mastodon() {
        #expect(HTMLText.plainText("<p>Wordle 591 X/6*</p><p>🟨⬛<br />🟩🟩<br/>⬛⬛<br>end</p>") == "Wordle 591 X/6*\n🟨⬛\n🟩🟩\n⬛⬛\nend")
        let link = #"<p><a href="http://example.org/" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">http://</span><span class="">example.org/</span><span class="invisible"></span></a></p>"#
        #expect(HTMLText.plainText(link) == "example.org/")
        let mention = #"<p><span class="h-card" translate="no"><a href="http://localhost:3000/@mastodonpy_test" class="u-url mention">@<span>mastodonpy_test</span></a></span> beep beep I&#39;m a jeep</p>"#
        #expect(HTMLText.plainText(mention) == "@mastodonpy_test beep beep I'm a jeep")
        #expect(HTMLText.plainText(#"<p class="x" dir='ltr'>a <b>b</b> <i>c</i></p>"#) == "a b c")
    }

    @Test("a shortened link's visible part is followed by …; the class may be one of several, in either quotes")
    func ellipsis() {
        let link = #"<a href="https://nitter.example/elmostrador/status/1250827578291568640#m" rel="nofollow noopener noreferrer" target="_blank"><span class="invisible">https://</span><span class="ellipsis">nitter.example/elmostrador</span><span class="invisible">/status/1250827578291568640#m</span></a> more"#
        #expect(HTMLText.plainText(link) == "nitter.example/elmostrador… more")
        #expect(HTMLText.plainText("<span class='ellipsis'>a<span>b</span>c</span>d") == "abc…d")
        #expect(HTMLText.plainText(#"<span class="x invisible">gone</span><span class=ellipsis>kept</span>"#) == "kept…")
        // Other spans, nested or not, add nothing.
        #expect(HTMLText.plainText(#"<span class="h-card"><span>@x</span></span>"#) == "@x")
    }

    @Test("a < that cannot start a tag is text; comments are dropped with the > they hold")
    func strayLessThan() {
        #expect(HTMLText.plainText("I <3 it; 1 < 2 and 3 <= 4") == "I <3 it; 1 < 2 and 3 <= 4")
        #expect(HTMLText.plainText("<p>a<!-- <b>x</b> > y -->b</p>") == "ab")
        #expect(HTMLText.plainText("<p>a <中> b</p>") == "a <中> b")
        #expect(HTMLText.plainText("x <") == "x <")
    }

    @Test("the named references Mastodon-family servers and error pages use")
    func namedEntities() {
        #expect(HTMLText.decodingEntities("&hellip; &mdash; &ndash; &laquo;q&raquo; &lsquo;s&rsquo; &ldquo;d&rdquo; &copy; &middot;") == "… — – «q» ‘s’ “d” © ·")
        #expect(HTMLText.decodingEntities("&#39; &#x27; &apos; &quot;") == "' ' ' \"")
    }
}
