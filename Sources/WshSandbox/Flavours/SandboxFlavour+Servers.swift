/// The five servers the Mastodon side can be, each one table. Where each
/// value was observed: /work/fixtures-33's bodies (their SOURCES.md), the
/// servers' documentation and source; docs/SANDBOX.md has the same table.
extension SandboxFlavour {
    /// Mastodon 4.3: the sandbox's Mastodon side as it always was.
    public static let mastodon = SandboxFlavour(
        name: "mastodon",
        software: Software(name: "mastodon", version: "4.3.0"),
        nodeInfo: [NodeInfoLink(schema: "2.0", path: "/nodeinfo/2.0")],
        instanceVersion: "4.3.0",
        // TootSDK's instancev2_mastodon.json (4.3.0): "api_versions":{"mastodon":2}.
        mastodonAPIVersion: 2,
        idStyle: .snowflake,
        paging: Paging(headerName: "Link", nextOnLastPage: false),
        errors: Errors(wording: .mastodon, refusedToken: nil, rateLimited: "Too many requests"),
        extras: .none,
        streamingTransports: .both)

    /// GoToSocial 0.16: ULIDs; its version everywhere; errors led by the
    /// reason phrase (its tests' bodies); `Link` both ways from every page
    /// (internal/paging); streaming over WebSocket only (its docs).
    public static let gotosocial = SandboxFlavour(
        name: "gotosocial",
        software: Software(name: "gotosocial", version: "0.16.0+git-f1cbf6f"),
        nodeInfo: [NodeInfoLink(schema: "2.0", path: "/nodeinfo/2.0")],
        instanceVersion: "0.16.0+git-f1cbf6f",
        mastodonAPIVersion: nil,
        idStyle: .ulid,
        paging: Paging(headerName: "Link", nextOnLastPage: true),
        errors: Errors(wording: .reasonPhrase, refusedToken: nil, rateLimited: "Too Many Requests: rate limit exceeded"),
        extras: Extras(pleromaMembers: false, akkomaMembers: false, interactionPolicy: true, emojiReactions: false),
        streamingTransports: .webSocket)

    /// Pleroma 2.7: flake ids; nodeinfo 2.0 and 2.1 at `.json` paths; Plug's
    /// lower-case `link`, both ways from any page with items; a refused
    /// token 403 `Invalid credentials.`; `pleroma: {…}` members and
    /// `pleroma:emoji_reaction` notifications.
    public static let pleroma = SandboxFlavour(
        name: "pleroma",
        software: Software(name: "pleroma", version: "2.7.0", repository: "https://git.pleroma.social/pleroma/pleroma"),
        nodeInfo: [NodeInfoLink(schema: "2.0", path: "/nodeinfo/2.0.json"),
                   NodeInfoLink(schema: "2.1", path: "/nodeinfo/2.1.json")],
        instanceVersion: "2.7.2 (compatible; Pleroma 2.7.0)",
        mastodonAPIVersion: nil,
        idStyle: .flake,
        paging: Paging(headerName: "link", nextOnLastPage: true),
        errors: Errors(wording: .mastodon, refusedToken: (403, "Invalid credentials."), rateLimited: "Throttled"),
        extras: Extras(pleromaMembers: true, akkomaMembers: false, interactionPolicy: false, emojiReactions: true,
                       dismissByBody: true),
        streamingTransports: .both)

    /// Akkoma 3.10: Pleroma's fork, as Pleroma plus `akkoma: {…}` members.
    public static let akkoma: SandboxFlavour = {
        var akkoma = pleroma
        akkoma.name = "akkoma"
        akkoma.software = Software(name: "akkoma", version: "3.10.4-0-gebfb617", repository: "https://akkoma.dev/AkkomaGang/akkoma")
        akkoma.instanceVersion = "2.7.2 (compatible; Akkoma 3.10.4-0-gebfb617)"
        akkoma.extras.akkomaMembers = true
        return akkoma
    }()

    /// Sharkey 2024.1 (Misskey's family): aid-style ids; nodeinfo 2.1 listed
    /// first, with `homepage`; Fastify's lower-case `link`, both ways from any
    /// page with items (its `attachMinMaxPagination`).
    public static let sharkey = SandboxFlavour(
        name: "sharkey",
        software: Software(name: "sharkey", version: "2024.1.0", homepage: "https://activitypub.software/TransFem-org/Sharkey"),
        nodeInfo: [NodeInfoLink(schema: "2.1", path: "/nodeinfo/2.1"),
                   NodeInfoLink(schema: "2.0", path: "/nodeinfo/2.0")],
        instanceVersion: "3.0.0 (compatible; Sharkey 2024.1.0)",
        mastodonAPIVersion: nil,
        idStyle: .aid,
        paging: Paging(headerName: "link", nextOnLastPage: true),
        errors: Errors(wording: .mastodon, refusedToken: nil, rateLimited: "Too many requests"),
        extras: .none,
        streamingTransports: .both)

    /// Every flavour, the default first.
    public static let all: [SandboxFlavour] = [.mastodon, .gotosocial, .pleroma, .akkoma, .sharkey]

    /// The flavour named `name` (as `--flavour` takes it), or nil.
    public static func named(_ name: String) -> SandboxFlavour? {
        all.first { $0.name == name.lowercased() }
    }
}
