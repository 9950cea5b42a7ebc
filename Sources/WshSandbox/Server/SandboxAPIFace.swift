import Hummingbird

/// What a request changed, for the statistics (`/admin/stats`).
enum SandboxEffect: Sendable {
    case post
    case deletion
    case write
}

/// One API the sandbox speaks: Weibo's under `/2/` (`WeiboAPI`) or
/// Mastodon's under `/api/` (`MastodonAPI`). The responder picks one by path
/// and serves it through the faults; each face answers with its own reply
/// type and words its own errors, so neither borrows the other's.
protocol SandboxAPIFace: Sendable {
    /// What the face's routes answer with.
    associatedtype Reply: Sendable
    /// What its routes throw, worded as its server words errors.
    associatedtype Failure: Error

    /// The face's name, as the route header and the classroom page show it.
    static var name: String { get }
    /// The failure for anything a route throws that is not a `Failure`.
    static var internalFailure: Failure { get }

    /// The answer to `request`; throws a `Failure`.
    func respond(to request: Request) async throws -> Reply
    /// A fault injected into a request, in this face's words.
    func failure(for fault: InjectedFault) -> Failure
    /// What `reply` to a request for `path` changed.
    func effect(of reply: Reply, path: String) -> SandboxEffect?
    /// `reply` as the responder sends it.
    func sent(_ reply: Reply) -> SandboxReply
    /// `failure`, met by a request for `path`, as the responder sends it.
    func sent(_ failure: Failure, path: String) -> SandboxReply
}
