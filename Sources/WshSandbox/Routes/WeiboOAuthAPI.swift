import FoundationEssentials
import Hummingbird
import WshText

/// Weibo's OAuth2 endpoints, at the server's root (`/oauth2/…`, not under `/2/`):
/// `authorize` (GET: a page to approve as a sandbox user; POST: the approval,
/// answered with a `302` to the app's redirect URI), `access_token`,
/// `get_token_info` and `revokeoauth2`.
///
/// Errors are Weibo's OAuth errors: HTTP 400 with
/// `{"error":"invalid_grant","error_code":21325,"request":…,"error_uri":…,"error_description":…}`;
/// the authorization page shows its errors as HTML instead, for a browser.
struct WeiboOAuthAPI: Sendable {
    let tokens: TokenStore
    let store: SandboxStore

    /// An answer: JSON, an HTML page, or a redirect.
    typealias Reply = SandboxReply

    func respond(to request: Request) async throws -> Reply {
        let path = request.uri.path
        switch (request.method, path) {
        case (.get, "/oauth2/authorize"), (.head, "/oauth2/authorize"):
            let fields = try await FormFields.fields(of: request, readingBody: false)
            do {
                return try authorizationPage(fields)
            } catch let error as WeiboError {
                return Self.htmlError(error)
            }
        case (.post, "/oauth2/authorize"):
            return try approve(try await FormFields.fields(of: request, readingBody: true))
        case (.post, "/oauth2/access_token"):
            return try accessToken(try await FormFields.fields(of: request, readingBody: true))
        case (.post, "/oauth2/get_token_info"):
            let fields = try await FormFields.fields(of: request, readingBody: true)
            return try tokenInfo(try token(fields, header: request.headers[.authorization]))
        case (.post, "/oauth2/revokeoauth2"), (.get, "/oauth2/revokeoauth2"):
            let fields = try await FormFields.fields(of: request, readingBody: request.method == .post)
            let token = try token(fields, header: request.headers[.authorization])
            do { try tokens.revoke(token) } catch { throw WeiboError.token(error) }
            return Self.json { $0.member("result", "true") }
        case (_, "/oauth2/authorize"), (_, "/oauth2/access_token"), (_, "/oauth2/get_token_info"),
             (_, "/oauth2/revokeoauth2"):
            throw WeiboError.methodNotSupported
        default:
            throw WeiboError.apiNotFound
        }
    }

    // MARK: authorize

    /// The page a browser shows: the app asks for access; approve as one of the accounts.
    private func authorizationPage(_ fields: [String: String]) throws -> Reply {
        let (clientID, redirectURI) = try checkedClient(fields)
        if let type = fields["response_type"], type != "code" {
            throw WeiboError.oauth(21329, "unsupported_response_type", "response_type must be code")
        }
        let state = fields["state"] ?? ""
        let timeline = store.timeline
        var html = """
            <!DOCTYPE html>
            <html lang="zh-CN"><head><meta charset="utf-8"><title>微博授权 · wsh sandbox</title></head>
            <body>
            <h1>授权 \(HTMLText.escaped(clientID)) 访问你的微博帐号</h1>
            <p>wsh sandbox: choose the account to approve as.</p>
            <form method="post" action="/oauth2/authorize">
            <input type="hidden" name="client_id" value="\(HTMLText.escaped(clientID))">
            <input type="hidden" name="redirect_uri" value="\(HTMLText.escaped(redirectURI))">
            <input type="hidden" name="state" value="\(HTMLText.escaped(state))">
            <input type="hidden" name="response_type" value="code">

            """
        for index in tokens.accountTokens.indices {
            let user = timeline.data.users[index]
            html += "<p><label><input type=\"radio\" name=\"user\" value=\"\(user.id)\"\(index == 0 ? " checked" : "")> "
                + "@\(HTMLText.escaped(user.screenName)) (uid \(user.id))</label></p>\n"
        }
        html += """
            <p><button type="submit" name="approve" value="1">授权 Approve</button>
            <button type="submit" name="approve" value="0">取消 Deny</button></p>
            </form>
            </body></html>

            """
        return Reply(contentType: "text/html;charset=UTF-8", body: ByteBuffer(string: html))
    }

    /// The approval: a code (or Weibo's `access_denied`) sent back to the redirect URI with the state.
    private func approve(_ fields: [String: String]) throws -> Reply {
        let (clientID, redirectURI) = try checkedClient(fields)
        var answer: [(String, String)]
        if fields["approve"] == "1" {
            guard let name = fields["user"], !name.isEmpty else {
                throw WeiboError.oauth(21323, "invalid_request", "parameter user is required: the screen name or uid to approve as")
            }
            let timeline = store.timeline
            guard let user = Int64(name).flatMap(timeline.user(id:)) ?? timeline.user(screenName: name) else {
                throw WeiboError.oauth(21323, "invalid_request", "no sandbox user \(name)")
            }
            answer = [("code", tokens.issueCode(clientID: clientID, redirectURI: redirectURI, user: user.index))]
        } else {
            answer = [("error", "access_denied"), ("error_code", "21330"),
                      ("error_description", "the user denied the request")]
        }
        if let state = fields["state"] { answer.append(("state", state)) }
        return Reply(status: .found, contentType: "text/html;charset=UTF-8", body: ByteBuffer(),
                     headers: [.location: OAuthRedirect.uri(redirectURI, adding: answer)])
    }

    /// The app (`client_id`, 21324 when unknown) and a usable `redirect_uri` (21322); 21323 when missing.
    private func checkedClient(_ fields: [String: String]) throws -> (clientID: String, redirectURI: String) {
        guard let clientID = fields["client_id"], !clientID.isEmpty else {
            throw WeiboError.oauth(21323, "invalid_request", "parameter client_id is required")
        }
        guard clientID == tokens.appKey else {
            throw WeiboError.oauth(21324, "invalid_client", "unknown client_id \(clientID)")
        }
        guard let redirectURI = fields["redirect_uri"], !redirectURI.isEmpty else {
            throw WeiboError.oauth(21323, "invalid_request", "parameter redirect_uri is required")
        }
        // The sandbox's app accepts any absolute URI as its callback.
        guard let components = URLComponents(string: redirectURI), components.scheme != nil else {
            throw WeiboError.oauth(21322, "redirect_uri_mismatch", "redirect_uri is not an absolute URI")
        }
        return (clientID, redirectURI)
    }

    // MARK: access_token, get_token_info

    private func accessToken(_ fields: [String: String]) throws -> Reply {
        for name in ["client_id", "client_secret", "grant_type", "redirect_uri"] where (fields[name] ?? "").isEmpty {
            throw WeiboError.oauth(21323, "invalid_request", "parameter \(name) is required")
        }
        guard fields["grant_type"] == "authorization_code" else {
            throw WeiboError.oauth(21328, "unsupported_grant_type", "grant_type must be authorization_code")
        }
        guard let code = fields["code"], !code.isEmpty else {
            throw WeiboError.oauth(21323, "invalid_request", "parameter code is required")
        }
        let (token, grant) = try tokens.exchange(
            code: code, clientID: fields["client_id"]!, clientSecret: fields["client_secret"]!,
            redirectURI: fields["redirect_uri"]!)
        let uid = store.timeline.data.users[grant.user].id
        let lifetime = tokens.tokenLifetime
        return Self.json { json in
            json.member("access_token", token)
            json.member("remind_in", String(lifetime))
            json.member("expires_in", lifetime)
            json.member("uid", String(uid))
            json.member("isRealName", "true")
        }
    }

    private func tokenInfo(_ token: String) throws -> Reply {
        let grant: TokenStore.Grant
        do { grant = try tokens.grant(for: token) } catch { throw WeiboError.token(error) }
        let uid = store.timeline.data.users[grant.user].id
        let left = tokens.secondsLeft(grant)
        return Self.json { json in
            json.member("uid", uid)
            json.member("appkey", grant.appKey)
            json.null("scope")
            json.member("create_at", Int64(grant.created.timeIntervalSince1970))
            json.member("expire_in", left)
        }
    }

    /// The token asked about: `access_token` (query or form) or the Authorization header.
    private func token(_ fields: [String: String], header: String?) throws -> String {
        if let token = fields["access_token"], !token.isEmpty { return token }
        if let token = TokenStore.token(in: header, schemes: ["oauth2", "bearer"]) { return token }
        throw WeiboError.oauth(21323, "invalid_request", "parameter access_token is required")
    }

    // MARK: Writing answers

    private static func json(_ members: (inout JSONWriter) -> Void) -> Reply {
        Reply(body: ByteBuffer(bytes: JSONWriter.object(capacity: 256, members)))
    }

    private static func htmlError(_ error: WeiboError) -> Reply {
        let text = "\(HTMLText.escaped(error.message)) (\(error.code)): \(HTMLText.escaped(error.oauthDescription ?? ""))"
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>授权错误</title></head>
            <body><h1>授权错误 Authorization error</h1><p>error: \(text)</p></body></html>

            """
        return Reply(status: error.status, contentType: "text/html;charset=UTF-8", body: ByteBuffer(string: html))
    }
}
