import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the connection,
/// which the drop and truncate faults close.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
