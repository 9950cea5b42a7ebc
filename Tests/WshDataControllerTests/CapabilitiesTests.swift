import Testing
import WshDataController
import WshModel

/// What each API says it can do: the surface (help, refusals before any
/// request) follows it.
@Suite("Capabilities of each API")
struct CapabilitiesTests {
    /// Every flag of what only some APIs do, by the command it unlocks.
    static var flags: [(String, KeyPath<Capabilities, Bool>)] { [
        ("block", \.blocksAccounts), ("mute --server", \.mutesOnServer), ("bookmark", \.bookmarks), ("lists", \.lists),
        ("edit", \.editsStatuses), ("post --at", \.schedulesStatuses), ("notifications", \.notifications),
        ("conversations", \.conversations), ("watch --stream", \.streaming), ("post --cw", \.postOptions),
        ("post --media", \.uploadsMedia), ("vote", \.polls), ("filters", \.filters),
        ("favourited-by", \.listsFavouritedBy), ("reblogged-by", \.listsRebloggedBy),
    ] }

    /// What Weibo offers of them: one picture with a post, and who reposted a status.
    static let weiboOffers: Set<String> = ["post --media", "reblogged-by"]

    @Test("Mastodon offers every optional feature and finds every kind; Weibo offers a picture and who reposted, and finds statuses only")
    func mastodonOffersAll_weiboNone() {
        let mastodon = MastodonDialect().capabilities
        let weibo = WeiboDialect().capabilities
        for (command, flag) in Self.flags {
            #expect(mastodon[keyPath: flag], "Mastodon should offer \(command)")
            #expect(weibo[keyPath: flag] == Self.weiboOffers.contains(command), "Weibo and \(command)")
        }
        // Weibo's picture goes with its post; Mastodon uploads first.
        #expect(weibo.picturesWithPost && !mastodon.picturesWithPost)
        #expect(mastodon.searchFinds == Set(SearchKind.allCases))
        #expect(weibo.searchFinds == [.statuses])
        #expect(!mastodon.repostTakesText && weibo.repostTakesText)
        #expect(!mastodon.restoresDeletedStatus && !weibo.restoresDeletedStatus)
    }
}
