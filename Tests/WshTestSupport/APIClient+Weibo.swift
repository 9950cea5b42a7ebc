import WshRequest

extension APIClient {
    /// A client that reads Weibo's error bodies, for the tests whose fake
    /// servers answer as Weibo does; a dialect's operations read by that
    /// dialect's rules whatever client they are given (`TracedCall`).
    public init(configuration: APIConfiguration, http: any HTTPClient) {
        self.init(configuration: configuration, http: http, errors: WeiboErrors())
    }
}
