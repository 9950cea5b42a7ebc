/// Writes the text of statuses and comments.
///
/// Every text is at most 140 characters (Weibo's limit) and built from
/// `Corpus` pieces, so it mixes scripts the way real posts do.
struct TextGenerator {
    /// Screen names that `@mentions` may name; mentions always end at a space.
    let screenNames: [String]

    func statusText(_ rng: inout SplitMix64) -> String {
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
        if rng.chance(0.15) { parts.append(Self.shortLink(&rng)) }
        if rng.chance(0.1) { parts.append("@" + rng.pick(screenNames)) }
        var text = fit(parts)
        // Rare hazards a client must render safely: a zero-width space, a
        // line break, and a terminal escape sequence the shell must strip.
        if rng.chance(0.03) { text.insert("\u{200B}", at: text.index(text.startIndex, offsetBy: text.count / 2)) }
        if rng.chance(0.03) { text += "\n" + rng.pick(Corpus.chinese) }
        if rng.chance(0.01) { text = "\u{1B}[31m" + text + "\u{1B}[0m" }
        return String(text.prefix(140))
    }

    /// The text of a repost: a short remark, sometimes quoting a chain.
    func repostText(_ rng: inout SplitMix64) -> String {
        var text = rng.pick(Corpus.repostComments)
        if rng.chance(0.4) {
            text += " //@" + rng.pick(screenNames) + ":" + rng.pick(Corpus.repostComments)
        }
        return text
    }

    func commentText(_ rng: inout SplitMix64) -> String {
        var text = rng.pick(Corpus.comments)
        if rng.chance(0.2) { text = "回复@" + rng.pick(screenNames) + ":" + text }
        if rng.chance(0.2) { text += rng.pick(Corpus.emoji) }
        return text
    }

    /// A t.cn short link, as Weibo rewrites every URL.
    static func shortLink(_ rng: inout SplitMix64) -> String {
        "http://t.cn/" + token(&rng, length: 7)
    }

    /// Letters and digits, as in t.cn paths and image keys.
    static func token(_ rng: inout SplitMix64, length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<length).map { _ in rng.pick(alphabet) })
    }

    /// Joins parts with spaces, dropping trailing ones until it fits 140 characters.
    private func fit(_ parts: [String]) -> String {
        var kept = parts
        while kept.count > 1, kept.joined(separator: " ").count > 140 { kept.removeLast() }
        return kept.joined(separator: " ")
    }
}
