import FoundationEssentials
import WshText

/// The renderer's one hook for what a flavour's server adds to Mastodon's
/// entities: Pleroma's and Akkoma's `pleroma`/`akkoma` members, GoToSocial's
/// `interaction_policy`, and the notification type `pleroma:emoji_reaction`.
/// The entities call it last, so every other member is Mastodon's as it was.
extension MastodonRenderer {
    /// What a status (or a reply) tells its flavour members.
    struct StatusFacts {
        var id: Int64
        var text: String
        var spoiler: String
        /// The thread it belongs to: the top status's ordinal (Pleroma's integer `conversation_id`).
        var conversation: Int
        var favourites: Int
        /// The account replied to, for a reply.
        var replyTo: SandboxUser?
    }

    /// The flavour's own members on a status, after Mastodon's.
    func writeFlavourMembers(_ facts: StatusFacts, into json: inout JSONWriter) {
        let extras = flavour.extras
        if extras.interactionPolicy {
            // GoToSocial 0.16+: who may like, boost and reply (everyone, as the sandbox's statuses are public).
            json.object("interaction_policy") { policy in
                for name in ["can_favourite", "can_reblog", "can_reply"] as [StaticString] {
                    policy.object(name) {
                        $0.member("always", ["public", "me"])
                        $0.member("with_approval", [])
                    }
                }
            }
        }
        if extras.pleromaMembers {
            json.object("pleroma") { pleroma in
                pleroma.member("local", true)
                pleroma.member("conversation_id", facts.conversation)
                pleroma.null("direct_conversation_id")
                pleroma.key("in_reply_to_account_acct")
                if let replyTo = facts.replyTo { pleroma.string(replyTo.screenName) } else { pleroma.null() }
                pleroma.object("content") { $0.member("text/plain", facts.text) }
                pleroma.object("spoiler_text") { $0.member("text/plain", facts.spoiler) }
                pleroma.null("expires_at")
                pleroma.member("thread_muted", false)
                pleroma.key("emoji_reactions")
                pleroma.arrayStart()
                if let count = Self.emojiReactions(id: facts.id, favourites: facts.favourites) {
                    pleroma.objectStart()
                    pleroma.member("name", Self.reactionEmoji)
                    pleroma.member("count", count)
                    pleroma.member("me", false)
                    pleroma.objectEnd()
                }
                pleroma.arrayEnd()
                pleroma.member("parent_visible", facts.replyTo != nil)
                pleroma.null("pinned_at")
            }
        }
        if extras.akkomaMembers {
            json.object("akkoma") { akkoma in
                akkoma.object("source") {
                    $0.member("content", facts.text)
                    $0.member("mediaType", "text/plain")
                }
            }
        }
    }

    /// The flavour's own members on an account, after Mastodon's.
    func writeFlavourMembers(_ user: SandboxUser, into json: inout JSONWriter) {
        if flavour.extras.pleromaMembers {
            json.object("pleroma") {
                $0.member("ap_id", origin + "/users/" + PercentEncoding.encoded(user.screenName))
                $0.member("also_known_as", [])
                $0.null("background_image")
                $0.null("favicon")
                $0.member("hide_favorites", true)
                $0.member("hide_followers", false)
                $0.member("hide_followers_count", false)
                $0.member("hide_follows", false)
                $0.member("hide_follows_count", false)
                $0.member("is_admin", false)
                $0.member("is_moderator", false)
                $0.member("is_confirmed", true)
                $0.object("relationship") { _ in }
                $0.member("skip_thread_containment", false)
                $0.member("tags", [])
                $0.member("accepts_chat_messages", true)
            }
        }
        if flavour.extras.akkomaMembers {
            json.object("akkoma") { akkoma in
                akkoma.object("instance") {
                    $0.member("name", String(origin.drop { $0 != "/" }.dropFirst(2)))
                    $0.null("favicon")
                    $0.object("nodeinfo") { _ in }
                }
                akkoma.member("permit_followback", false)
                akkoma.null("status_ttl_days")
            }
        }
    }

    /// The flavour's own members on a notification: Pleroma's `emoji` of a
    /// reaction and its `pleroma: {is_seen, is_muted}`.
    func writeFlavourMembers(_ notification: SandboxNotification, into json: inout JSONWriter) {
        if flavour.notificationType(of: notification) == SandboxFlavour.emojiReactionType {
            json.member("emoji", Self.reactionEmoji)
        }
        if flavour.extras.pleromaMembers {
            json.object("pleroma") {
                $0.member("is_seen", false)
                $0.member("is_muted", false)
            }
        }
    }

    /// The emoji every generated reaction is.
    static let reactionEmoji = "❤️"

    /// How many emoji reactions a status has on Pleroma's family: one status
    /// in three has some: one, and one more for every four favourites; nil for none.
    static func emojiReactions(id: Int64, favourites: Int) -> Int? {
        guard id % 3 == 0 else { return nil }
        return 1 + favourites / 4
    }
}

extension SandboxFlavour {
    /// Pleroma's notification type for an emoji reaction.
    static let emojiReactionType = "pleroma:emoji_reaction"

    /// A notification's type as this flavour's server names it: on Pleroma's
    /// family, one generated favourite in four is an emoji reaction instead
    /// (a favourite made through the API stays one); read by the renderer and
    /// by `types[]`/`exclude_types[]`, so both agree.
    func notificationType(of notification: SandboxNotification) -> String {
        // Generated ids share their low bits by type (`SandboxNotification.base`): Fibonacci
        // hashing brings every bit of the id into the top two, which pick one in four.
        if extras.emojiReactions, notification.type == "favourite", !notification.madeThroughAPI,
           (UInt64(bitPattern: notification.id) &* 0x9E37_79B9_7F4A_7C15) >> 62 == 0 {
            return Self.emojiReactionType
        }
        return notification.type
    }
}
