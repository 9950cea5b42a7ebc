/// Writes the text of statuses and comments.
///
/// Every text is at most 140 characters (Weibo's limit) and built from
/// `Corpus` pieces, so it mixes scripts the way real posts do.
struct TextGenerator {
    /// Screen names that `@mentions` may name; mentions always end at a space.
    let screenNames: [String]

    /// A status's text. With `build` false, the same draws are made but no
    /// text is put together (the empty string comes back): what indexing the
    /// statuses needs, at a fraction of the cost.
    func statusText(_ rng: inout SplitMix64, build: Bool = true) -> String {
        // Every pick is made whether or not the text is built: the draws must
        // not change. Not building, a pick draws its index and touches no text.
        var parts: [String] = []
        func pick(_ items: [String]) -> String? {
            let index = rng.index(items.count)
            return build ? items[index] : nil
        }
        if rng.chance(0.3), let topic = pick(Corpus.topics) { parts.append(topic) }
        if rng.chance(0.25), let name = pick(screenNames) { parts.append("@" + name) }
        for _ in 0..<rng.int(1...3) {
            if let part = pick(rng.chance(0.7) ? Corpus.chinese : Corpus.english) { parts.append(part) }
        }
        if rng.chance(0.5) {
            var emoji = ""
            for _ in 0..<rng.int(1...3) { if let one = pick(Corpus.emoji) { emoji += one } }
            if build { parts.append(emoji) }
        }
        if rng.chance(0.2), let emoticon = pick(Corpus.emoticons) { parts.append(emoticon) }
        if rng.chance(0.15) {
            if build { parts.append(Self.shortLink(&rng)) } else { Self.skipToken(&rng, length: 7) }
        }
        if rng.chance(0.1), let name = pick(screenNames) { parts.append("@" + name) }
        var text = build ? fit(parts) : ""
        // Rare hazards a client must render safely: a zero-width space, a
        // line break, and a terminal escape sequence the shell must strip.
        if rng.chance(0.03), build { text.insert("\u{200B}", at: text.index(text.startIndex, offsetBy: text.count / 2)) }
        if rng.chance(0.03), let line = pick(Corpus.chinese) { text += "\n" + line }
        if rng.chance(0.01), build { text = "\u{1B}[31m" + text + "\u{1B}[0m" }
        return build ? String(text.prefix(140)) : ""
    }

    /// The text of a repost: a short remark, sometimes quoting a chain
    /// (with `build` false: the draws only, as for `statusText`, but a remark
    /// with no chain comes back, as it costs nothing and tells a boost).
    func repostText(_ rng: inout SplitMix64, build: Bool = true) -> String {
        var text = rng.pick(Corpus.repostComments)
        let chained = rng.chance(0.4)
        if chained {
            let name = rng.pick(screenNames)
            let remark = rng.pick(Corpus.repostComments)
            if build { text += " //@" + name + ":" + remark }
        }
        return build || !chained ? text : ""
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

    /// Letters and digits, as in t.cn paths and image keys: one draw a byte
    /// (written as bytes; Characters cost twenty times more, a third of
    /// making the embedded sandbox's users).
    static func token(_ rng: inout SplitMix64, length: Int) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            for position in 0..<length { buffer[position] = rng.pick(tokenAlphabet) }
            return length
        }
    }

    private static let tokenAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

    /// The draws of `token(_:length:)`, without the token.
    @discardableResult
    static func skipToken(_ rng: inout SplitMix64, length: Int) -> String {
        for _ in 0..<length { _ = rng.next() }
        return ""
    }

    /// Joins parts with spaces, dropping trailing ones until it fits 140 characters.
    private func fit(_ parts: [String]) -> String {
        var kept = parts
        while kept.count > 1, kept.joined(separator: " ").count > 140 { kept.removeLast() }
        return kept.joined(separator: " ")
    }
}
