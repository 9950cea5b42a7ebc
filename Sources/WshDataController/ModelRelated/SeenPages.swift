/// What a DataController has seen, page by page as it came: the cache behind
/// "a status or user a page already brought needs no request".
///
/// Remembering a page is one append (its array is shared, not copied or
/// indexed), so loading pages costs nothing more for being cached; a lookup
/// reads back from the newest value, so the latest copy of a value wins. A
/// lookup is interactive (one `detail`, one `user`), a walk over what is
/// kept. At most `limit` pages are kept, the oldest dropped first: a session
/// that fetches for hours keeps the same memory, as its history does. A
/// value older than that is asked for again.
struct SeenPages<Page: Sendable>: Sendable {
    private var pages: [Page] = []
    /// Where the kept pages start in `pages` (dropped ones are removed in bulk).
    private var start = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ page: Page) {
        pages.append(page)
        if pages.count - start > limit { start += 1 }
        // Drop the dropped pages' slots once they are half the array.
        if start > limit {
            pages.removeFirst(start)
            start = 0
        }
    }

    /// The kept pages, newest first.
    var newestFirst: ReversedCollection<ArraySlice<Page>> { pages[start...].reversed() }

    /// Changes every kept page (to forget a value).
    mutating func update(_ change: (inout Page) -> Void) {
        for index in start..<pages.count { change(&pages[index]) }
    }
}

extension SeenPages {
    /// The first value `find` finds in a kept page, trying the newest page first.
    func newest<Value>(_ find: (Page) -> Value?) -> Value? {
        for page in newestFirst {
            if let value = find(page) { return value }
        }
        return nil
    }
}

/// How many pages (or single values) a DataController keeps seen. A page
/// fetched again is kept again (a value is not looked up to be replaced), so
/// this bounds what a session that fetches the same page for hours keeps
/// beyond its history: at most 100 pages, 20 000 statuses of 200 a page.
public let seenPageLimit = 100
