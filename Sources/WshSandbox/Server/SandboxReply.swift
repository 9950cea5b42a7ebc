import HTTPTypes
import Hummingbird
import NIOCore
import WshHAR

/// An answer before faults shape how it is sent: what a face (`SandboxAPIFace`),
/// the OAuth and admin routes or a recording answered.
struct SandboxReply {
    var status: HTTPResponse.Status
    var contentType: String
    var body: ByteBuffer
    var headers: HTTPFields = [:]
    /// Close the connection instead of answering: a recorded request that got no response.
    var dropsConnection = false
    /// A body written as it comes (the streaming API), instead of `body`.
    var stream: (@Sendable (inout any ResponseBodyWriter) async throws -> Void)?

    /// 200 with Weibo's JSON type unless said otherwise.
    init(status: HTTPResponse.Status = .ok, contentType: String = SandboxReply.weiboJSONType, body: ByteBuffer, headers: HTTPFields = [:],
         stream: (@Sendable (inout any ResponseBodyWriter) async throws -> Void)? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
        self.stream = stream
    }

    /// The page a proxy in front of an API sends for 502, 503 and 504: no API's words.
    init(proxyPage fault: InjectedFault) {
        self.init(status: fault.httpStatus, contentType: "text/html", body: ByteBuffer(bytes: fault.proxyPage))
    }

    /// Weibo's JSON type (the admin API's and the replayer's default too).
    static let weiboJSONType = "application/json;charset=UTF-8"

    /// A recorded answer as it was served: its status, headers and body;
    /// its `Link` header's URLs name `origin` (this server) instead of the
    /// recorded one, as a server's links name itself.
    init(_ exchange: HARRecording.Exchange, origin: String) {
        dropsConnection = exchange.failure != nil
        status = exchange.failure == nil ? HTTPResponse.Status(code: exchange.status) : .badGateway
        contentType = exchange.headers["content-type"] ?? SandboxReply.weiboJSONType
        body = ByteBuffer(bytes: exchange.body)
        for (name, value) in exchange.headers.sorted(by: { $0.key < $1.key })
        where !Self.notReplayed.contains(name) {
            let value = name.lowercased() == "link" ? Self.relinked(value, to: origin) : value
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
    }

    /// `header` with each `<scheme://authority/…>` link re-rooted at `origin`.
    static func relinked(_ header: String, to origin: String) -> String {
        var result = ""
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            result += rest[...open]
            var target = rest[rest.index(after: open)..<close]
            if let scheme = target.firstRange(of: "://") {
                let path = target[scheme.upperBound...].firstIndex(of: "/") ?? target.endIndex
                target = Substring(origin) + target[path...]
            }
            result += target
            rest = rest[close...]
        }
        return result + rest
    }

    /// Headers a replayed answer does not repeat: the type is set on its
    /// own, and these describe the recorded connection, not this one.
    private static let notReplayed: Set<String> = [
        "content-type", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
    ]

    var response: Response {
        var fields: HTTPFields = [.contentType: contentType]
        fields.append(contentsOf: headers)
        if let stream { return Response(status: status, headers: fields, body: ResponseBody(stream)) }
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }
}
