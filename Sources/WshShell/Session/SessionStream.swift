import Synchronization

/// A View of the session: it hears every `SessionEvent` and renders what it
/// cares about (the terminal Views, `trace`, the web page).
public protocol SessionSubscriber: AnyObject, Sendable {
    /// One event, in the order the session published them.
    func receive(_ event: SessionEvent)
}

/// The session's one stream of what happened: ViewModel outputs and the
/// layer events `trace` knows. Every View subscribes; none is driven by
/// another (the tracer is one subscriber, not the display's source).
///
/// Delivery is synchronous and in subscription order: an event reaches the
/// first subscriber, then the next. An event published while one is being
/// delivered (the terminal View saying what it rendered) reaches every
/// subscriber before the rest of the first event's delivery, so each
/// subscriber hears the rendering before the input's end reaches it.
///
/// Publishing is safe from any thread (the DataControllers report from the
/// task that runs an input); subscribers keep their own state thread-safe.
public final class SessionStream: Sendable {
    private let subscribers = Mutex<[any SessionSubscriber]>([])
    /// Whether anything beyond the terminal and the trace listens: the web
    /// View wants the state, the history and the terminal's text, which cost
    /// something to make, so they are made only while it does.
    private let wantsEverything = Atomic<Bool>(false)

    public init() {}

    /// Adds `subscriber` after the ones already there.
    public func subscribe(_ subscriber: any SessionSubscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// Removes `subscriber`.
    public func unsubscribe(_ subscriber: any SessionSubscriber) {
        subscribers.withLock { $0.removeAll { $0 === subscriber } }
    }

    /// Sends `event` to every subscriber.
    public func publish(_ event: SessionEvent) {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.receive(event) }
    }

    /// True while a subscriber wants the events that cost something to make
    /// (`state`, `history`, `output`, screens rendered for the stream only).
    public var isWatchedClosely: Bool { wantsEverything.load(ordering: .relaxed) }

    /// Turns the costly events on or off (the web View, while it serves).
    public func watchClosely(_ on: Bool) { wantsEverything.store(on, ordering: .relaxed) }
}
