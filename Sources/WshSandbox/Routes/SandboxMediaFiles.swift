import HTTPTypes
import NIOCore

/// `/media/…`: the files the sandbox's statuses show (attachments, avatars,
/// custom emojis, headers), on the sandbox itself: each `.png` path answers
/// its own picture (`SandboxPicture`), anything else 404.
///
/// Served through the faults as the API is, so a test makes one file misbehave
/// with `path` set to it: `drip_ms` makes it never end, and `fail_status`
/// answers an HTML page with that status, as a CDN or a captive portal
/// does (200 included: a login page where a picture was).
enum SandboxMediaFiles {
    static let prefix = "/media/"
    static let name = "SandboxMediaFiles"

    /// The file at `path`.
    static func reply(path: String) -> SandboxReply {
        guard path.hasSuffix(".png") else { return page(.notFound) }
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return SandboxReply(contentType: "image/png", body: ByteBuffer(bytes: SandboxPicture.png(seed: path)), headers: headers)
    }

    /// An injected fault, as a web server in front of files words it: an HTML page.
    static func faulted(_ fault: InjectedFault) -> SandboxReply {
        page(fault.httpStatus)
    }

    private static func page(_ status: HTTPResponse.Status) -> SandboxReply {
        let title = status.code == 200 ? "Sign in" : "\(status.code) \(status.reasonPhrase)"
        let html = "<!DOCTYPE html>\n<html><head><title>\(title)</title></head><body><h1>\(title)</h1></body></html>\n"
        return SandboxReply(status: status, contentType: "text/html; charset=utf-8", body: ByteBuffer(string: html))
    }
}
