/// Why the token store, which both APIs share, refused a token. Each API
/// words it its own way: Weibo's 21327 `expired_token` and 21332
/// `invalid_access_token` (`WeiboError.token`), Mastodon's 401s
/// (`MastodonError.token`).
enum TokenRefusal: Error, Sendable {
    /// Never issued, expired by the clock or through `/admin/tokens/expire`.
    case unknownOrExpired
    /// Revoked through either OAuth.
    case revoked
}
