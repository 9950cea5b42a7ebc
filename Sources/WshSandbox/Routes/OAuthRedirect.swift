import FoundationEssentials
import WshText

/// The redirect both OAuth flows (Weibo's `/oauth2/`, Mastodon's `/oauth/`)
/// send an approval or a denial to.
enum OAuthRedirect {
    /// `uri` with `parameters` added to its query (an existing query is kept;
    /// a fragment stays last), each percent-encoded.
    static func uri(_ uri: String, adding parameters: [(String, String)]) -> String {
        var base = Substring(uri)
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = base[..<hash]
        }
        let query = parameters.map { "\(PercentEncoding.encoded($0))=\(PercentEncoding.encoded($1))" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + fragment
    }
}
