import NIOCore

/// The Mastodon API as one face of the sandbox: its `Reply` (with `Link` and
/// rate-limit headers, or a stream), or a `MastodonError` worded as the
/// flavour's server words it.
extension MastodonAPI: SandboxAPIFace {
    typealias Failure = MastodonError

    static let name = "MastodonAPI"
    static var internalFailure: MastodonError { MastodonError(status: .internalServerError, error: "Internal Server Error") }

    func failure(for fault: InjectedFault) -> MastodonError { .injected(fault) }

    func effect(of reply: Reply, path: String) -> SandboxEffect? { reply.effect }

    func sent(_ reply: Reply) -> SandboxReply {
        SandboxReply(status: reply.status, contentType: reply.contentType ?? Self.jsonType, body: reply.body,
                     headers: reply.headers, stream: reply.stream)
    }

    func sent(_ failure: MastodonError, path: String) -> SandboxReply { sent(failure.reply(in: state.flavour)) }

    /// Mastodon's JSON type, as Rails writes it.
    static let jsonType = "application/json; charset=utf-8"
}
