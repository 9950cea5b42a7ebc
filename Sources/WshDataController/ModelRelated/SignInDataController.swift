import WshRequest

/// What signing in to one API needs: its OAuth flow and its users, asked
/// with a given token (to name who signed in, for `whoami`).
///
/// Built from the connection's dialect, so the LoginViewModel above never
/// learns which API it signs in to.
public struct SignInDataController: Sendable {
    /// The API's OAuth2 authorization-code flow.
    public let oauth: any OAuthFlow
    /// The users' DataController of the API, sending `token`.
    public let users: @Sendable (Secret) -> UserDataController

    /// The flow and users of `dialect` on `apiBase`, over `http`.
    public init(dialect: any Dialect, apiBase: String, http: any HTTPClient,
                connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)) {
        oauth = dialect.oauthFlow(apiBase: apiBase, http: http)
        users = { token in
            var configuration = APIConfiguration(baseURL: apiBase, token: .value(token),
                                                 connectTimeout: connectTimeout, timeout: timeout)
            configuration.authScheme = dialect.authScheme
            return UserDataController(client: APIClient(configuration: configuration, http: http, errors: dialect.errors), dialect: dialect)
        }
    }

    /// A flow and users given as they are (tests).
    public init(oauth: any OAuthFlow, users: @escaping @Sendable (Secret) -> UserDataController) {
        self.oauth = oauth
        self.users = users
    }
}
