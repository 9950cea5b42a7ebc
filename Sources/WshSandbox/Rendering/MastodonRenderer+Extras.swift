import FoundationEssentials
import WshText

/// Quotes (Mastodon 4.4+'s `quote`) and the generated profile fields and emojis of an account.
extension MastodonRenderer {
    /// `"quote": {state, quoted_status}`: the quoted status only when accepted, else null.
    func writeQuote(by status: SandboxStatus, of quotedOrdinal: Int, into json: inout JSONWriter) {
        let state = timeline.quoteState(of: status, quoting: quotedOrdinal)
        json.key("quote")
        json.objectStart()
        json.member("state", state)
        json.key("quoted_status")
        if state == "accepted", let quoted = timeline.status(ordinal: quotedOrdinal) {
            writeStatus(quoted, into: &json, nested: true)
        } else {
            json.null()
        }
        json.objectEnd()
    }

    /// The account's `emojis` (`:wsh:` when a field shows it).
    func writeAccountEmojis(_ user: SandboxUser, into json: inout JSONWriter) {
        json.key("emojis")
        json.arrayStart()
        if timeline.hasGeneratedProfileExtras(user) { writeEmoji(into: &json) }
        json.arrayEnd()
    }

    /// The generated fields after Location: a verified website link and a field with the emoji.
    func writeExtraFields(_ user: SandboxUser, into json: inout JSONWriter) {
        guard timeline.hasGeneratedProfileExtras(user) else { return }
        let site = "https://example.com/~" + PercentEncoding.encoded(user.screenName)
        let shown = "example.com/~" + user.screenName
        json.objectStart()
        json.member("name", "Website")
        json.member("value", "<a href=\"\(HTMLText.escaped(site))\" target=\"_blank\" rel=\"nofollow noopener me\" translate=\"no\">"
            + "<span class=\"invisible\">https://</span><span class=\"\">"
            + HTMLText.escaped(shown) + "</span><span class=\"invisible\"></span></a>")
        json.member("verified_at", mastodonTime(user.createdAt.date))
        json.objectEnd()
        json.objectStart()
        json.member("name", "Mood")
        json.member("value", ":\(Self.emojiShortcode):")
        json.null("verified_at")
        json.objectEnd()
    }
}
