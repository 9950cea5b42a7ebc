import WshModel

/// The identifiers of the statuses loaded so far, to drop the ones a new
/// page repeats (a timeline moves while it is paged).
///
/// `fetch --all` keeps one for its whole walk, so each page costs its own
/// length. Building the set afresh from every loaded status for each page,
/// as `more` must, made an 80 000-status walk quadratic: 800 pages of 100
/// hashed 32 million identifiers.
struct SeenStatuses {
    private var identifiers: Set<String> = []
    /// How many identifiers were hashed so far: the work done, one per
    /// status loaded or offered. Tests read it to hold a walk linear
    /// without timing it.
    private(set) var hashed = 0

    /// The statuses of `loaded`, seen already.
    init<Loaded: Collection<Status>>(_ loaded: Loaded) {
        identifiers.reserveCapacity(loaded.count)
        for status in loaded { _ = insert(status) }
    }

    /// The statuses of `page` not seen before, in order; they are seen from now on.
    /// A status without an identifier is always new: nothing can repeat it.
    mutating func unseen(_ page: [Status]) -> [Status] {
        page.filter { insert($0) }
    }

    private mutating func insert(_ status: Status) -> Bool {
        guard let id = status.identifier else { return true }
        hashed += 1
        return identifiers.insert(id).inserted
    }
}
