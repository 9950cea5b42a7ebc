import FoundationEssentials

/// Lists of accounts (followers, following, blocks, mutes, account search),
/// v2 search results and Tags, as Mastodon 4.x renders them.
extension MastodonRenderer {
    /// `[Account, …]` for `users`, in that order.
    func accounts(_ users: [SandboxUser]) -> [UInt8] {
        array(users, itemBytes: 1200) { writeAccount($0, into: &$1) }
    }

    /// `[Account, …]` of muted accounts, each with `mute_expires_at` as `GET /api/v1/mutes` adds it.
    func mutedAccounts(_ mutes: [Timeline.Mute]) -> [UInt8] {
        array(mutes, itemBytes: 1200) { mute, json in
            var account = accountJSON(timeline.data.users[mute.user])
            // The account object's closing brace makes room for the one member more.
            account.removeLast()
            json.json(account + Array(",\"mute_expires_at\":".utf8)
                      + Array((mute.expiresAt.map { "\"\(mastodonTime($0))\"" } ?? "null").utf8) + [UInt8(ascii: "}")])
        }
    }

    /// A v2 Search: `{"accounts": […], "statuses": […], "hashtags": […]}`.
    func searchResults(accounts: [SandboxUser], statuses: [Int], hashtags: [(name: String, uses: Int, accounts: Int)]) -> [UInt8] {
        JSONWriter.object(capacity: 1200 * accounts.count + 2500 * statuses.count + 200 * hashtags.count + 64) { json in
            json.key("accounts")
            json.json(self.accounts(accounts))
            json.key("statuses")
            json.json(self.statuses(statuses))
            json.key("hashtags")
            json.json(array(hashtags, itemBytes: 200, writeTag))
        }
    }

    /// A Tag with one day of history (today's uses and accounts, as strings, as Mastodon sends them).
    private func writeTag(_ tag: (name: String, uses: Int, accounts: Int), into json: inout JSONWriter) {
        json.objectStart()
        json.member("name", tag.name)
        json.member("url", html.tagURL(tag.name))
        json.key("history")
        json.arrayStart()
        json.objectStart()
        json.member("day", String(Int(DataSet.newestTime.date.timeIntervalSince1970) / 86_400 * 86_400))
        json.member("uses", String(tag.uses))
        json.member("accounts", String(tag.accounts))
        json.objectEnd()
        json.arrayEnd()
        if viewer != nil { json.member("following", false) }
        json.objectEnd()
    }
}
