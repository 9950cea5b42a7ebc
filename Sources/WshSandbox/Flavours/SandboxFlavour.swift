/// The server software the sandbox's Mastodon side imitates: one table of
/// what that software answers differently from the others, applied where an
/// answer is made (nodeinfo and `instance`, the id style, the one pager, the
/// one error door and the renderer's hook for extra fields) rather than as
/// `if`s across the routes.
///
/// The five tables are in `SandboxFlavour+Servers.swift`; each difference
/// there says where it was observed (docs/SANDBOX.md lists them too).
public struct SandboxFlavour: Sendable, CustomStringConvertible {
    /// The flavour's name as `--flavour` takes it: `mastodon`, `gotosocial`, …
    public var name: String
    /// What nodeinfo's `software` says.
    public var software: Software
    /// The nodeinfo documents `/.well-known/nodeinfo` links to, in its order.
    public var nodeInfo: [NodeInfoLink]
    /// `version` in `/api/v1/instance` and `/api/v2/instance`.
    public var instanceVersion: String
    /// `api_versions.mastodon` in `/api/v2/instance` (Mastodon 4.3 and later); nil: left out.
    public var mastodonAPIVersion: Int?
    /// How ids are written unless `--id-style` says otherwise.
    public var idStyle: MastodonIDStyle
    /// The paging header: its name and whether a last page still links onwards.
    public var paging: Paging
    /// How an error is worded and which status a refused token gets.
    public var errors: Errors
    /// The server's own members on entities, and its own notification types.
    public var extras: Extras
    /// The transports its streaming API offers. `SandboxConfiguration.streamingTransports`
    /// (`--streaming sse|websocket|both`) starts from these: GoToSocial streams
    /// over WebSocket only, the others over both.
    public var streamingTransports: StreamingTransports

    /// nodeinfo's `software` object.
    public struct Software: Sendable, Equatable {
        public var name: String
        public var version: String
        /// nodeinfo 2.1's `repository` (Pleroma's family), nil: left out.
        public var repository: String?
        /// nodeinfo 2.1's `homepage` (Misskey's family), nil: left out.
        public var homepage: String?
    }

    /// One link of `/.well-known/nodeinfo`: the schema version and the path its document is at.
    public struct NodeInfoLink: Sendable, Equatable {
        /// `2.0` or `2.1`.
        public var schema: String
        /// `/nodeinfo/2.0`, or Pleroma's `/nodeinfo/2.0.json`.
        public var path: String
    }

    /// The paging header of every paged list.
    public struct Paging: Sendable, Equatable {
        /// The header's name as the server writes it: `Link`, or `link` (Pleroma's
        /// Plug and Sharkey's Fastify write names in lower case). HTTP names are
        /// case-insensitive, but a client that looks one up by exact name is not.
        public var headerName: String
        /// Whether a page with nothing older after it still has `rel="next"`
        /// (GoToSocial, Pleroma, Sharkey link both ways from any page that has
        /// items; Mastodon leaves `next` out at the end). An empty page has no
        /// header in every flavour.
        public var nextOnLastPage: Bool
    }

    /// How the error door words an error.
    public struct Errors: Sendable, Equatable {
        /// The wording of `{"error": …}`.
        public enum Wording: Sendable, Equatable {
            /// Mastodon's own sentences: `Record not found`, `The access token is invalid`.
            case mastodon
            /// GoToSocial's: the status's reason phrase, then the detail after a colon
            /// (`Not Found: record not found`, `Unauthorized: …`).
            case reasonPhrase
        }
        public var wording: Wording
        /// What a missing or refused token gets where a user is needed, and an
        /// unknown one anywhere; nil: Mastodon's 401s.
        public var refusedToken: (status: Int, error: String)?
        /// The error of a token over the rate limit (HTTP 429).
        public var rateLimited: String

        public static func == (a: Errors, b: Errors) -> Bool {
            a.wording == b.wording && a.refusedToken?.status == b.refusedToken?.status
                && a.refusedToken?.error == b.refusedToken?.error && a.rateLimited == b.rateLimited
        }
    }

    /// Members and types only this server writes.
    public struct Extras: Sendable, Equatable {
        /// Pleroma's `pleroma: {…}` on statuses, accounts and notifications
        /// (with `emoji_reactions` on statuses).
        public var pleromaMembers: Bool
        /// Akkoma's `akkoma: {…}` on statuses (`source`) and accounts (`instance`, `permit_followback`).
        public var akkomaMembers: Bool
        /// GoToSocial's `interaction_policy` on statuses.
        public var interactionPolicy: Bool
        /// Whether some favourites are emoji reactions, as the notification
        /// type `pleroma:emoji_reaction` (with `emoji`) that Pleroma and Akkoma send.
        public var emojiReactions: Bool
        /// Whether `POST /api/v1/notifications/dismiss` with the id in the body
        /// is served: Mastodon removed it in 3.0, Pleroma and Akkoma keep it
        /// (deprecated), and Mastodon.py sends it to a server whose version
        /// reads below 2.9.2, as theirs (`2.7.2 (compatible; …)`) do.
        public var dismissByBody: Bool = false

        /// None: Mastodon's entities as they are.
        public static let none = Extras(pleromaMembers: false, akkomaMembers: false, interactionPolicy: false,
                                        emojiReactions: false)
    }

    public var description: String { name }
}

extension SandboxFlavour: Equatable {
    /// Flavours are the same when they are named the same: each name has one table.
    public static func == (a: SandboxFlavour, b: SandboxFlavour) -> Bool { a.name == b.name }
}
