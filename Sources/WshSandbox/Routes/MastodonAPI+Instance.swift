import FoundationEssentials
import WshText
import Hummingbird
import NIOCore

/// The server's description (`instance`, v1 and v2, and nodeinfo) and app registration (`apps`).
extension MastodonAPI {
    /// Where a client discovers nodeinfo (NodeInfo 2.0's well-known document).
    static let nodeInfoDiscoveryPath = "/.well-known/nodeinfo"
    /// Whether `path` is nodeinfo's: discovery, or a document under `/nodeinfo/`
    /// (which ones, and at which paths, is the flavour's).
    static func isNodeInfo(_ path: String) -> Bool {
        path == nodeInfoDiscoveryPath || path.hasPrefix("/nodeinfo/")
    }

    /// What `instance` says the server runs, as the flavour's server says it
    /// (nodeinfo names the same software).
    var version: String { state.flavour.instanceVersion }

    /// The languages `instance` says the posts are in.
    static let languages = ["zh", "en"]

    /// The host (and port) the sandbox answers on, as `instance` names it.
    var domain: String { String(state.origin.drop { $0 != "/" }.dropFirst(2)) }

    /// `/.well-known/nodeinfo` (the flavour's links: 2.0, or 2.0 and 2.1) or one
    /// of the documents it links to: what software this is, as clients
    /// (megalodon's `detector`) read it to tell Mastodon from GoToSocial or
    /// Pleroma before they call anything else. Another path under `/nodeinfo/` is 404.
    func nodeInfo(path: String) -> Reply {
        let flavour = state.flavour
        if path == Self.nodeInfoDiscoveryPath {
            return Self.object(capacity: 256) { json in
                json.key("links")
                json.arrayStart()
                for link in flavour.nodeInfo {
                    json.objectStart()
                    json.member("rel", "http://nodeinfo.diaspora.software/ns/schema/" + link.schema)
                    json.member("href", state.origin + link.path)
                    json.objectEnd()
                }
                json.arrayEnd()
            }
        }
        guard let link = flavour.nodeInfo.first(where: { $0.path == path }) else {
            return MastodonError.notFound.reply(in: flavour)
        }
        return Self.object(capacity: 512) { json in
            let timeline = store.timeline
            let software = flavour.software
            json.member("version", link.schema)
            json.object("software") {
                $0.member("name", software.name)
                $0.member("version", software.version)
                // Only 2.1 has these; a 2.0 document with them fails its schema.
                if link.schema == "2.1", let repository = software.repository { $0.member("repository", repository) }
                if link.schema == "2.1", let homepage = software.homepage { $0.member("homepage", homepage) }
            }
            json.member("protocols", ["activitypub"])
            json.object("services") {
                $0.member("outbound", [])
                $0.member("inbound", [])
            }
            json.object("usage") { usage in
                usage.object("users") {
                    $0.member("total", timeline.data.users.count)
                    $0.member("activeMonth", timeline.data.users.count)
                    $0.member("activeHalfyear", timeline.data.users.count)
                }
                usage.member("localPosts", timeline.count)
            }
            json.member("openRegistrations", false)
            json.object("metadata") { $0.member("nodeName", "wsh sandbox") }
        }
    }

    /// `instance`, either version: open to anyone; the server's address under
    /// `addressKey` (v1's `uri`, v2's `domain`), its title, then `members`.
    private func instance(addressKey: StaticString, _ members: (inout JSONWriter) -> Void) -> Reply {
        Self.object(capacity: 2048) { json in
            json.member(addressKey, domain)
            json.member("title", "wsh sandbox")
            members(&json)
        }
    }

    func instanceV1() -> Reply {
        instance(addressKey: "uri") { json in
            let timeline = store.timeline
            json.member("short_description", "A Weibo and Mastodon API sandbox with generated data")
            json.member("description", "wsh-sandbox serves the Weibo API v2 under /2/ and the Mastodon API under /api/v1/ over one generated data set.")
            json.member("email", "sandbox@wsh.local")
            json.member("version", version)
            json.object("urls") { $0.member("streaming_api", "ws://" + domain) }
            json.object("stats") {
                $0.member("user_count", timeline.data.users.count)
                $0.member("status_count", timeline.count)
                $0.member("domain_count", 0)
            }
            json.null("thumbnail")
            json.member("languages", Self.languages)
            json.member("registrations", false)
            json.member("approval_required", false)
            json.member("invites_enabled", false)
            json.object("configuration", writeConfiguration)
            json.null("contact_account")
            json.member("rules", [])
        }
    }

    func instanceV2() -> Reply {
        instance(addressKey: "domain") { json in
            json.member("version", version)
            json.member("source_url", "https://github.com/wsh")
            if let apiVersion = state.flavour.mastodonAPIVersion {
                // Mastodon 4.3 names its API version; clients (Mastodon.py) warn when a 4.3 does not.
                json.object("api_versions") { $0.member("mastodon", apiVersion) }
            }
            json.member("description", "A Weibo and Mastodon API sandbox with generated data")
            json.object("usage") { usage in
                usage.object("users") { $0.member("active_month", store.timeline.data.users.count) }
            }
            json.object("thumbnail") { $0.member("url", state.origin + "/packs/media/images/preview.png") }
            json.member("languages", Self.languages)
            json.object("configuration", writeConfiguration)
            json.object("registrations") {
                $0.member("enabled", false)
                $0.member("approval_required", false)
                $0.null("message")
            }
            json.object("contact") {
                $0.member("email", "sandbox@wsh.local")
                $0.null("account")
            }
            json.member("rules", [])
        }
    }

    /// The members of `configuration`: the limits clients read before posting.
    private func writeConfiguration(into json: inout JSONWriter) {
        json.object("urls") { $0.member("streaming", "ws://" + domain) }
        json.object("accounts") { $0.member("max_featured_tags", 10) }
        json.object("statuses") {
            $0.member("max_characters", Self.maximumCharacters)
            $0.member("max_media_attachments", 4)
            $0.member("characters_reserved_per_url", 23)
        }
        json.object("media_attachments") {
            $0.member("supported_mime_types", ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4",
                                               "video/webm", "audio/ogg", "audio/mpeg"])
            $0.member("image_size_limit", Self.maximumMediaBytes)
            $0.member("image_matrix_limit", 33_177_600)
            $0.member("video_size_limit", Self.maximumMediaBytes)
            $0.member("video_frame_rate_limit", 120)
            $0.member("video_matrix_limit", 8_294_400)
        }
        json.object("polls") {
            $0.member("max_options", 4)
            $0.member("max_characters_per_option", 50)
            $0.member("min_expiration", 300)
            $0.member("max_expiration", 2_629_746)
        }
        json.object("translation") { $0.member("enabled", false) }
    }

    // MARK: Apps

    /// `POST /api/v1/apps`: `client_name`, `redirect_uris` (one or more,
    /// space- or line-separated, or `redirect_uris[]`; absolute URIs or
    /// `urn:ietf:wg:oauth:2.0:oob`), `scopes` (default `read`), `website`.
    func registerApp(_ call: Call) throws -> Reply {
        let parameters = call.parameters
        let name = (parameters["client_name"] ?? "").trimmingSpaces
        guard !name.isEmpty else { throw MastodonError.validation("Name can't be blank") }
        var uris = parameters.list("redirect_uris")
        if parameters.all["redirect_uris[]"] == nil {
            uris = uris.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        }
        guard !uris.isEmpty else { throw MastodonError.validation("Redirect URI can't be blank") }
        for uri in uris where uri != MastodonState.outOfBand {
            guard let components = URLComponents(string: uri), let scheme = components.scheme, !scheme.isEmpty,
                  components.fragment == nil else {
                throw MastodonError.validation("Redirect URI must be an absolute URI.")
            }
        }
        let scopes = parameters.nonEmpty("scopes") ?? "read"
        let website = parameters.nonEmpty("website")
        let app = state.register(name: name, website: website, redirectURIs: uris, scopes: scopes) {
            (tokens.randomSecret(), tokens.randomSecret())
        }
        return Self.object(capacity: 512) { json in
            json.member("id", app.id)
            json.member("name", app.name)
            json.key("website")
            if let website { json.string(website) } else { json.null() }
            json.member("scopes", scopes.split(separator: " ").map(String.init))
            json.member("redirect_uri", uris.joined(separator: "\n"))
            json.member("redirect_uris", uris)
            json.member("client_id", app.clientID)
            json.member("client_secret", app.clientSecret)
            json.member("vapid_key", MastodonState.vapidKey)
        }
    }

    /// `GET /api/v1/apps/verify_credentials`: the app behind the token.
    func verifyApp(_ call: Call) throws -> Reply {
        let app: MastodonState.App
        switch call.caller {
        case .anonymous: throw MastodonError.tokenInvalid
        case .app(let owner, _): app = owner
        case .user(_, _, let appKey):
            guard let owner = state.app(clientID: appKey) else { throw MastodonError.tokenInvalid }
            app = owner
        }
        return Self.object(capacity: 256) { json in
            json.member("name", app.name)
            json.key("website")
            if let website = app.website { json.string(website) } else { json.null() }
            json.member("vapid_key", MastodonState.vapidKey)
        }
    }
}
