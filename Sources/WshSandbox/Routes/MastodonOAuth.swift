import FoundationEssentials
import WshText
import Hummingbird
import NIOCore

/// Mastodon's OAuth endpoints, at the server's root (`/oauth/…`):
/// `authorize` (GET: a page to approve as a sandbox user; POST: the approval,
/// a `302` to the redirect URI, or for `urn:ietf:wg:oauth:2.0:oob` a page
/// showing the code in `<code id="code">`), `token` (`authorization_code` and
/// `client_credentials`) and `revoke`.
///
/// Clients are the apps of `POST /api/v1/apps` and the sandbox's own app
/// (`appKey`/`appSecret`, any redirect URI). User tokens go to the shared
/// `TokenStore`, so they work on the Weibo API too. Errors are Doorkeeper's
/// `{"error":…,"error_description":…}`; the authorization page shows its own as HTML.
struct MastodonOAuth: Sendable {
    let tokens: TokenStore
    let store: SandboxStore
    let state: MastodonState

    /// Where the authorization server metadata (RFC 8414) is served, as Mastodon 4.3 does.
    static let metadataPath = "/.well-known/oauth-authorization-server"

    /// An answer: JSON, an HTML page, or a redirect.
    typealias Reply = SandboxReply

    func respond(to request: Request) async -> Reply {
        var path = request.uri.path
        // Rails routes `/oauth/authorize/` like `/oauth/authorize` (toot sends the slash).
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        do {
            switch (request.method, path) {
            case (.get, Self.metadataPath), (.head, Self.metadataPath):
                return metadata(request)
            case (.get, "/oauth/authorize"), (.head, "/oauth/authorize"):
                let parameters = try await MastodonAPI.parameters(of: request, readingBody: false)
                return try Self.page { try authorizationPage(parameters) }
            case (.post, "/oauth/authorize"):
                let parameters = try await MastodonAPI.parameters(of: request, readingBody: true)
                return try Self.page { try approve(parameters) }
            case (.post, "/oauth/token"):
                return try token(try await MastodonAPI.parameters(of: request, readingBody: true))
            case (.post, "/oauth/revoke"):
                return try revoke(try await MastodonAPI.parameters(of: request, readingBody: true))
            default:
                throw MastodonError.notFound
            }
        } catch {
            let failure = (error as? MastodonError ?? .invalidRequest).reply(in: state.flavour)
            return Reply(status: failure.status, body: failure.body)
        }
    }

    // MARK: metadata

    /// What Mastodon 4.3 and later publish: the endpoints, and that PKCE takes S256.
    private func metadata(_ request: Request) -> Reply {
        let root = "http://" + (request.head.authority ?? "127.0.0.1") + "/"
        let body = JSONWriter.object(capacity: 1024) { json in
            json.member("issuer", root)
            json.member("service_documentation", "https://docs.joinmastodon.org/")
            json.member("authorization_endpoint", root + "oauth/authorize")
            json.member("token_endpoint", root + "oauth/token")
            json.member("revocation_endpoint", root + "oauth/revoke")
            json.member("app_registration_endpoint", root + "api/v1/apps")
            json.member("scopes_supported", ["read", "write", "follow", "push"])
            json.member("response_types_supported", ["code"])
            json.member("code_challenge_methods_supported", [Self.challengeMethod])
            json.member("grant_types_supported", ["authorization_code", "client_credentials"])
            json.member("token_endpoint_auth_methods_supported", ["client_secret_basic", "client_secret_post"])
        }
        return Reply(body: ByteBuffer(bytes: body))
    }

    /// The one PKCE method served, as on Mastodon.
    static let challengeMethod = "S256"

    /// The PKCE challenge of an authorize request, if any: only S256 is taken.
    private static func challenge(_ parameters: MastodonAPI.Parameters) throws -> String? {
        guard let challenge = parameters["code_challenge"], !challenge.isEmpty else { return nil }
        guard (parameters["code_challenge_method"] ?? "plain") == challengeMethod else {
            throw MastodonError.oauth(.badRequest, "invalid_request",
                                      "The code_challenge_method must be \(challengeMethod).")
        }
        return challenge
    }

    // MARK: authorize

    /// The client (`client_id`) and a redirect URI it registered.
    private func checkedClient(_ parameters: MastodonAPI.Parameters) throws -> (MastodonState.App, String) {
        guard let clientID = parameters["client_id"], let app = state.app(clientID: clientID) else {
            throw MastodonError.invalidClient
        }
        guard let redirectURI = parameters["redirect_uri"], app.accepts(redirectURI: redirectURI) else {
            throw MastodonError.invalidRedirect
        }
        if let type = parameters["response_type"], type != "code" {
            throw MastodonError.oauth(.badRequest, "unsupported_response_type",
                                      "The authorization server does not support this response type.")
        }
        return (app, redirectURI)
    }

    private func authorizationPage(_ parameters: MastodonAPI.Parameters) throws -> Reply {
        let (app, redirectURI) = try checkedClient(parameters)
        let challenge = try Self.challenge(parameters)
        let timeline = store.timeline
        let e = HTMLText.escaped
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Authorize \(e(app.name)) · wsh sandbox</title></head>
            <body>
            <h1>Authorize \(e(app.name))</h1>
            <p>\(e(app.name)) asks for: \(e(parameters["scope"] ?? app.scopes)). wsh sandbox: choose the account to approve as.</p>
            <form method="post" action="/oauth/authorize">
            <input type="hidden" name="client_id" value="\(e(app.clientID))">
            <input type="hidden" name="redirect_uri" value="\(e(redirectURI))">
            <input type="hidden" name="state" value="\(e(parameters["state"] ?? ""))">
            <input type="hidden" name="scope" value="\(e(parameters["scope"] ?? app.scopes))">
            <input type="hidden" name="response_type" value="code">

            """
        if let challenge {
            html += "<input type=\"hidden\" name=\"code_challenge\" value=\"\(e(challenge))\">\n"
                + "<input type=\"hidden\" name=\"code_challenge_method\" value=\"\(Self.challengeMethod)\">\n"
        }
        for index in tokens.accountTokens.indices {
            let user = timeline.data.users[index]
            html += "<p><label><input type=\"radio\" name=\"user\" value=\"\(user.id)\"\(index == 0 ? " checked" : "")> "
                + "@\(e(user.screenName)) (id \(user.id))</label></p>\n"
        }
        html += """
            <p><button type="submit" name="approve" value="1">Authorize</button>
            <button type="submit" name="approve" value="0">Deny</button></p>
            </form>
            </body></html>

            """
        return Reply(contentType: "text/html;charset=UTF-8", body: ByteBuffer(string: html))
    }

    /// The approval: a code to the redirect URI (or shown, out of band), or `access_denied`.
    private func approve(_ parameters: MastodonAPI.Parameters) throws -> Reply {
        let (app, redirectURI) = try checkedClient(parameters)
        let challenge = try Self.challenge(parameters)
        let outOfBand = redirectURI == MastodonState.outOfBand
        var answer: [(String, String)]
        if parameters["approve"] == "1" {
            guard let name = parameters["user"], !name.isEmpty else {
                throw MastodonError.oauth(.badRequest, "invalid_request", "parameter user is required: the screen name or id to approve as")
            }
            let timeline = store.timeline
            guard let user = Int64(name).flatMap(timeline.user(id:)) ?? timeline.user(screenName: name) else {
                throw MastodonError.oauth(.badRequest, "invalid_request", "no sandbox user \(name)")
            }
            let code = tokens.issueCode(clientID: app.clientID, redirectURI: redirectURI, user: user.index,
                                        challenge: challenge)
            if outOfBand {
                let html = """
                    <!DOCTYPE html>
                    <html lang="en"><head><meta charset="utf-8"><title>Authorization code · wsh sandbox</title></head>
                    <body><h1>Authorization code</h1><p>Copy this code and paste it into \(HTMLText.escaped(app.name)):</p>
                    <p><code id="code">\(code)</code></p></body></html>

                    """
                return Reply(contentType: "text/html;charset=UTF-8", body: ByteBuffer(string: html))
            }
            answer = [("code", code)]
        } else {
            let denied = MastodonError.oauth(.badRequest, "access_denied",
                                             "The resource owner or authorization server denied the request.")
            if outOfBand { throw denied }
            answer = [("error", denied.error), ("error_description", denied.description ?? "")]
        }
        if let state = parameters["state"] { answer.append(("state", state)) }
        return Reply(status: .found, contentType: "text/html;charset=UTF-8", body: ByteBuffer(),
                     headers: [.location: OAuthRedirect.uri(redirectURI, adding: answer)])
    }

    // MARK: token, revoke

    /// The client, authenticated by `client_id` and `client_secret` (401 `invalid_client`).
    private func authenticatedClient(_ parameters: MastodonAPI.Parameters) throws -> MastodonState.App {
        guard let clientID = parameters["client_id"], let app = state.app(clientID: clientID),
              parameters["client_secret"] == app.clientSecret else {
            throw MastodonError.invalidClient
        }
        return app
    }

    private func token(_ parameters: MastodonAPI.Parameters) throws -> Reply {
        guard let grantType = parameters["grant_type"], !grantType.isEmpty else { throw MastodonError.invalidRequest }
        guard ["authorization_code", "client_credentials"].contains(grantType) else {
            throw MastodonError.unsupportedGrant
        }
        let app = try authenticatedClient(parameters)
        let scope = parameters.nonEmpty("scope") ?? app.scopes
        let now = tokens.clock.now
        let token: String
        if grantType == "client_credentials" {
            token = tokens.randomSecret()
            state.addAppToken(token, clientID: app.clientID)
        } else {
            guard let code = parameters["code"], !code.isEmpty,
                  let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else {
                throw MastodonError.invalidRequest
            }
            switch tokens.redeem(code: code, clientID: app.clientID, redirectURI: redirectURI, style: .mastodon,
                                 scope: scope, verifier: parameters["code_verifier"]) {
            case .success(let issued): token = issued.token
            case .failure: throw MastodonError.invalidGrant
            }
        }
        return Reply(body: ByteBuffer(bytes: JSONWriter.object(capacity: 256) { json in
            json.member("access_token", token)
            json.member("token_type", "Bearer")
            json.member("scope", scope)
            json.member("created_at", Int64(now.timeIntervalSince1970))
        }))
    }

    /// `POST /oauth/revoke`: `{}` whether or not the token was valid (RFC 7009);
    /// 403 `unauthorized_client` for wrong client credentials.
    private func revoke(_ parameters: MastodonAPI.Parameters) throws -> Reply {
        guard let clientID = parameters["client_id"], let app = state.app(clientID: clientID),
              parameters["client_secret"] == app.clientSecret else {
            throw MastodonError.unauthorizedClient
        }
        guard let token = parameters["token"], !token.isEmpty else { throw MastodonError.invalidRequest }
        if !state.revokeAppToken(token) { try? tokens.revoke(token) }
        return Reply(body: ByteBuffer(string: "{}"))
    }

    /// A reply the browser shows: a refusal is an HTML page, not JSON.
    private static func page(_ reply: () throws -> Reply) throws -> Reply {
        do {
            return try reply()
        } catch let error as MastodonError {
            return htmlError(error)
        }
    }

    private static func htmlError(_ error: MastodonError) -> Reply {
        let text = HTMLText.escaped(error.error) + ": " + HTMLText.escaped(error.description ?? "")
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>An error has occurred</title></head>
            <body><h1>An error has occurred</h1><p id="error">\(text)</p></body></html>

            """
        return Reply(status: .badRequest, contentType: "text/html;charset=UTF-8", body: ByteBuffer(string: html))
    }
}
