import Hummingbird
import NIOCore

/// An answer of either OAuth flow (Weibo's `/oauth2/`, Mastodon's `/oauth/`):
/// JSON, an HTML page, or a redirect.
struct OAuthReply: Sendable {
    var status: HTTPResponse.Status = .ok
    var contentType = "application/json;charset=UTF-8"
    var location: String?
    var body: ByteBuffer

    var response: Response {
        var headers: HTTPFields = [.contentType: contentType]
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
