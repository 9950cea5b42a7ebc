import FoundationEssentials
import WshText
import Hummingbird
import NIOCore

/// The server's description (`instance`, v1 and v2, and nodeinfo) and app registration (`apps`).
extension MastodonAPI {
    /// Where a client discovers nodeinfo (NodeInfo 2.0's well-known document).
    static let nodeInfoDiscoveryPath = "/.well-known/nodeinfo"
    /// The NodeInfo 2.0 document.
    static let nodeInfoPath = "/nodeinfo/2.0"

    /// What `instance` says the server runs: the id style's server, as it says it
    /// (nodeinfo names the same software).
    var version: String { state.ids.instanceVersion }

    /// The languages `instance` says the posts are in.
    static let languages = ["zh", "en"]

    /// The host (and port) the sandbox answers on, as `instance` names it.
    var domain: String { String(state.origin.drop { $0 != "/" }.dropFirst(2)) }

    /// `/.well-known/nodeinfo` (links to 2.0) or `/nodeinfo/2.0`: what software
    /// this is, as clients (megalodon's `detector`) read it to tell Mastodon from
    /// GoToSocial or Pleroma before they call anything else.
    func nodeInfo(path: String) -> Reply {
        var json = JSONWriter(capacity: 512)
        json.objectStart()
        if path == Self.nodeInfoDiscoveryPath {
            json.key("links")
            json.arrayStart()
            json.objectStart()
            json.member("rel", "http://nodeinfo.diaspora.software/ns/schema/2.0")
            json.member("href", state.origin + Self.nodeInfoPath)
            json.objectEnd()
            json.arrayEnd()
        } else {
            let timeline = store.timeline
            let software = state.ids.software
            json.member("version", "2.0")
            json.key("software")
            json.objectStart()
            json.member("name", software.name)
            json.member("version", software.version)
            json.objectEnd()
            json.member("protocols", ["activitypub"])
            json.key("services")
            json.objectStart()
            json.member("outbound", [])
            json.member("inbound", [])
            json.objectEnd()
            json.key("usage")
            json.objectStart()
            json.key("users")
            json.objectStart()
            json.member("total", timeline.data.users.count)
            json.member("activeMonth", timeline.data.users.count)
            json.member("activeHalfyear", timeline.data.users.count)
            json.objectEnd()
            json.member("localPosts", timeline.count)
            json.objectEnd()
            json.member("openRegistrations", false)
            json.key("metadata")
            json.objectStart()
            json.member("nodeName", "wsh sandbox")
            json.objectEnd()
        }
        json.objectEnd()
        return Self.json(json.bytes)
    }

    func instanceV1(_ call: Call) throws -> Reply {
        _ = try viewer(call, .open)
        let timeline = store.timeline
        var json = JSONWriter(capacity: 2048)
        json.objectStart()
        json.member("uri", domain)
        json.member("title", "wsh sandbox")
        json.member("short_description", "A Weibo and Mastodon API sandbox with generated data")
        json.member("description", "wsh-sandbox serves the Weibo API v2 under /2/ and the Mastodon API under /api/v1/ over one generated data set.")
        json.member("email", "sandbox@wsh.local")
        json.member("version", version)
        json.key("urls")
        json.objectStart()
        json.member("streaming_api", "ws://" + domain)
        json.objectEnd()
        json.key("stats")
        json.objectStart()
        json.member("user_count", timeline.data.users.count)
        json.member("status_count", timeline.count)
        json.member("domain_count", 0)
        json.objectEnd()
        json.null("thumbnail")
        json.member("languages", Self.languages)
        json.member("registrations", false)
        json.member("approval_required", false)
        json.member("invites_enabled", false)
        json.key("configuration")
        writeConfiguration(into: &json)
        json.null("contact_account")
        json.member("rules", [])
        json.objectEnd()
        return Self.json(json.bytes)
    }

    func instanceV2(_ call: Call) throws -> Reply {
        _ = try viewer(call, .open)
        let origin = state.origin
        var json = JSONWriter(capacity: 2048)
        json.objectStart()
        json.member("domain", domain)
        json.member("title", "wsh sandbox")
        json.member("version", version)
        json.member("source_url", "https://github.com/wsh")
        if state.ids == .snowflake {
            // Mastodon 4.3 names its API version; clients (Mastodon.py) warn when a 4.3 does not.
            json.key("api_versions")
            json.objectStart()
            json.member("mastodon", 2)
            json.objectEnd()
        }
        json.member("description", "A Weibo and Mastodon API sandbox with generated data")
        json.key("usage")
        json.objectStart()
        json.key("users")
        json.objectStart()
        json.member("active_month", store.timeline.data.users.count)
        json.objectEnd()
        json.objectEnd()
        json.key("thumbnail")
        json.objectStart()
        json.member("url", origin + "/packs/media/images/preview.png")
        json.objectEnd()
        json.member("languages", Self.languages)
        json.key("configuration")
        writeConfiguration(into: &json)
        json.key("registrations")
        json.objectStart()
        json.member("enabled", false)
        json.member("approval_required", false)
        json.null("message")
        json.objectEnd()
        json.key("contact")
        json.objectStart()
        json.member("email", "sandbox@wsh.local")
        json.null("account")
        json.objectEnd()
        json.member("rules", [])
        json.objectEnd()
        return Self.json(json.bytes)
    }

    private func writeConfiguration(into json: inout JSONWriter) {
        json.objectStart()
        json.key("urls")
        json.objectStart()
        json.member("streaming", "ws://" + domain)
        json.objectEnd()
        json.key("accounts")
        json.objectStart()
        json.member("max_featured_tags", 10)
        json.objectEnd()
        json.key("statuses")
        json.objectStart()
        json.member("max_characters", Self.maximumCharacters)
        json.member("max_media_attachments", 4)
        json.member("characters_reserved_per_url", 23)
        json.objectEnd()
        json.key("media_attachments")
        json.objectStart()
        json.key("supported_mime_types")
        json.arrayStart()
        for type in ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4", "video/webm", "audio/ogg", "audio/mpeg"] {
            json.string(type)
        }
        json.arrayEnd()
        json.member("image_size_limit", Self.maximumMediaBytes)
        json.member("image_matrix_limit", 33_177_600)
        json.member("video_size_limit", Self.maximumMediaBytes)
        json.member("video_frame_rate_limit", 120)
        json.member("video_matrix_limit", 8_294_400)
        json.objectEnd()
        json.key("polls")
        json.objectStart()
        json.member("max_options", 4)
        json.member("max_characters_per_option", 50)
        json.member("min_expiration", 300)
        json.member("max_expiration", 2_629_746)
        json.objectEnd()
        json.key("translation")
        json.objectStart()
        json.member("enabled", false)
        json.objectEnd()
        json.objectEnd()
    }

    // MARK: Apps

    /// `POST /api/v1/apps`: `client_name`, `redirect_uris` (one or more,
    /// space- or line-separated, or `redirect_uris[]`; absolute URIs or
    /// `urn:ietf:wg:oauth:2.0:oob`), `scopes` (default `read`), `website`.
    func registerApp(_ call: Call) throws -> Reply {
        _ = try viewer(call, .open)
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
        let scopes = parameters["scopes"].flatMap { $0.isEmpty ? nil : $0 } ?? "read"
        let website = parameters["website"].flatMap { $0.isEmpty ? nil : $0 }
        let app = state.register(name: name, website: website, redirectURIs: uris, scopes: scopes) {
            (tokens.randomSecret(), tokens.randomSecret())
        }
        var json = JSONWriter(capacity: 512)
        json.objectStart()
        json.member("id", app.id)
        json.member("name", app.name)
        json.key("website")
        if let website { json.string(website) } else { json.null() }
        json.key("scopes")
        json.arrayStart()
        for scope in scopes.split(separator: " ") { json.string(String(scope)) }
        json.arrayEnd()
        json.member("redirect_uri", uris.joined(separator: "\n"))
        json.key("redirect_uris")
        json.arrayStart()
        for uri in uris { json.string(uri) }
        json.arrayEnd()
        json.member("client_id", app.clientID)
        json.member("client_secret", app.clientSecret)
        json.member("vapid_key", MastodonState.vapidKey)
        json.objectEnd()
        return Self.json(json.bytes)
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
        var json = JSONWriter(capacity: 256)
        json.objectStart()
        json.member("name", app.name)
        json.key("website")
        if let website = app.website { json.string(website) } else { json.null() }
        json.member("vapid_key", MastodonState.vapidKey)
        json.objectEnd()
        return Self.json(json.bytes)
    }
}
