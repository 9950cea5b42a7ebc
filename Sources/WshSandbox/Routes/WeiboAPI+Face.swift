import NIOCore

/// The Weibo API as one face of the sandbox: JSON bytes, or a `WeiboError`
/// with its `error_code`.
extension WeiboAPI: SandboxAPIFace {
    typealias Reply = ByteBuffer
    typealias Failure = WeiboError

    static let name = "WeiboAPI"
    static var internalFailure: WeiboError { .systemError }

    func failure(for fault: InjectedFault) -> WeiboError { .injected(fault) }

    func effect(of reply: ByteBuffer, path: String) -> SandboxEffect? { Self.routes[path]?.effect }

    func sent(_ reply: ByteBuffer) -> SandboxReply { SandboxReply(body: reply) }

    func sent(_ failure: WeiboError, path: String) -> SandboxReply { SandboxReply(failure, path: path) }
}

extension SandboxReply {
    /// A Weibo error body, naming the request's path as Weibo does.
    init(_ error: WeiboError, path: String) {
        self.init(status: error.status, contentType: error.contentType, body: ByteBuffer(bytes: error.body(request: path)))
    }
}
