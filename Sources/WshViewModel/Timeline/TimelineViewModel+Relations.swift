import WshDataController
import WshModel
import WshRequest
import WshText

/// Search, followers and following (screens with rows of their own), and
/// blocks and server-side mutes (writes, undone by their compensating call).
/// What the connected API lacks is refused before any request.
extension TimelineViewModel {
    // MARK: Outputs

    /// The search results on top, nil when another screen shows.
    public var search: SearchViewModel? { screen.search }

    /// The account list on top, nil when another screen shows.
    public var accounts: AccountsViewModel? { screen.accounts }

    /// What the connected API can do.
    public var capabilities: Capabilities { dataController.capabilities }

    // MARK: Inputs

    /// Searches `query` for `kinds` (all the API finds when empty), at most
    /// `limit` of each, resolving a remote account (`@user@host`) when `resolve`.
    @discardableResult
    public func search(_ query: String, kinds: Set<SearchKind>, limit: Int, resolve: Bool) async throws(ViewModelError) -> SearchViewModel {
        let query = query.trimmingSpaces
        guard !query.isEmpty else { throw fail(.emptyText("search for")) }
        guard (1...40).contains(limit) else { throw fail(.invalidPaging(name: "N", value: limit, allowed: 1...40)) }
        let offered = capabilities.searchFinds
        let missing = (kinds.isEmpty ? [] : kinds).subtracting(offered)
        guard !offered.isEmpty, missing.isEmpty else {
            let what = missing.isEmpty ? "search" : missing.map { "--\($0.rawValue == "hashtags" ? "tags" : $0.rawValue)" }.sorted().joined(separator: ", ")
            throw fail(.notOffered("this API (\(dataController.users.dialect.name)) cannot search \(what); its search finds "
                + (offered.isEmpty ? "nothing" : offered.map(\.rawValue).sorted().joined(separator: ", "))))
        }
        let results = try await request { () async throws(RequestError) in
            try await dataController.users.search(query, kinds: kinds, limit: limit, resolve: resolve)
        }
        var next = state
        next.screens.append(.search(query: query, results))
        commit(next)
        return SearchViewModel(query: query, results: results)
    }

    /// Opens the first `count` of `name`'s followers, or of whom they follow;
    /// with `all`, page after page (`count` a page, by the server's cursor) up
    /// to `limit` accounts. Says why, when a server that repeats itself or
    /// goes the wrong way stopped the walk (`PageWalk`): what arrived shows all the same.
    @discardableResult
    public func showAccounts(_ list: AccountList, name: String, count: Int, all: Bool = false, limit: Int = 1000)
        async throws(ViewModelError) -> (shown: AccountsViewModel, stopped: ViewModelError?) {
        guard let reference = UserReference(name) else { throw fail(.noUserGiven) }
        guard (1...80).contains(count) else { throw fail(.invalidPaging(name: "N", value: count, allowed: 1...80)) }
        let (page, stopped) = try await request { () async throws(RequestError) in
            try await Self.pages(all: all, limit: limit, walk: dataController.users.accountsWalk()) { cursor async throws(RequestError) in
                try await dataController.users.accounts(list, of: reference, count: count, cursor: cursor)
            }
        }
        var next = state
        next.screens.append(.accounts(.user(list), owner: reference.description, page))
        commit(next)
        return (AccountsViewModel(list: list, owner: reference.description, page: page), stopped.map(ViewModelError.init(walkStopped:)))
    }

    /// Opens who favourited (or boosted) the status of row `index` (as
    /// `detail N` reads it; a boost: the status it boosts), the first `count`;
    /// with `all`, page after page up to `limit`, and why a server stopped
    /// the walk, as `showAccounts`. `detail N` then opens row N's profile.
    @discardableResult
    public func showStatusAccounts(_ list: StatusAccountList, index: Int, count: Int, all: Bool = false, limit: Int = 1000)
        async throws(ViewModelError) -> (shown: AccountsViewModel, stopped: ViewModelError?) {
        let offered = list == .favouritedBy ? capabilities.listsFavouritedBy : capabilities.listsRebloggedBy
        guard offered else {
            throw fail(.notOffered("this API (\(dialectName)) does not say who \(list == .favouritedBy ? "favourited" : "boosted") a status"))
        }
        guard (1...80).contains(count) else { throw fail(.invalidPaging(name: "N", value: count, allowed: 1...80)) }
        let status = try statusOfRow(index)
        let shown = status.isBoost ? status.retweetedStatus ?? status : status
        guard let statusID = shown.identifier else { throw fail(.invalidInput("row \(index) has no status id")) }
        let (page, stopped) = try await request { () async throws(RequestError) in
            try await Self.pages(all: all, limit: limit, walk: dataController.users.accountsWalk()) { cursor async throws(RequestError) in
                try await dataController.users.statusAccounts(list, statusID: statusID, count: count, cursor: cursor)
            }
        }
        var next = state
        next.screens.append(.accounts(.status(list), owner: statusID, page))
        commit(next)
        return (AccountsViewModel(kind: .status(list), owner: statusID, page: page), stopped.map(ViewModelError.init(walkStopped:)))
    }

    /// Mutes the user `name` names on the server (`duration` seconds, nil:
    /// for ever; their notifications too when `notifications`), or unmutes them.
    public func setServerMute(_ mute: Bool, name: String, duration: Int?, notifications: Bool) async throws(ViewModelError) -> Toggled {
        guard let reference = UserReference(name) else { throw fail(.noUserGiven) }
        guard capabilities.mutesOnServer else { throw fail(.notOffered("this API (\(dialectName)) has no server-side mute")) }
        if let duration, duration < 0 { throw fail(.invalidPaging(name: "--duration", value: duration, allowed: 0...Int(Int32.max))) }
        let written = try await write(
            nothing: mute ? "\(reference) is not muted" : "\(reference) is still muted",
            advice: dataController.readBack(.relationship(field: "muting", accountID: nil)).advice
        ) { () async throws(WriteError) in
            try await dataController.users.setServerMute(mute, reference, duration: duration, notifications: notifications)
        }
        commit(state)
        return Toggled(target: reference.description, note: Self.lostAnswerNote(written, found: "the server shows it done"))
    }

    // MARK: Undo and redo

    /// Sets the server-side mute of `reference` back or again, for undo or redo of `operation`; returns a note.
    public func setServerMuteAgain(_ mute: Bool, _ reference: UserReference, duration: Int?, notifications: Bool,
                                   for operation: String, undo: Bool) async throws(ViewModelError) -> String {
        let outcome = try await compensate(
            operation, undo: undo, doing: "\(mute ? "muting" : "unmuting") \(reference) on the server",
            check: dataController.readBack(.relationship(field: "muting", accountID: nil)).command
        ) { () async throws(WriteError) in
            try await dataController.users.setServerMute(mute, reference, duration: duration, notifications: notifications)
        }
        return Self.relationNote(outcome, "\(mute ? "muted" : "unmuted") \(reference)")
    }

    // MARK: Rows of the screen on top

    private var dialectName: String { dataController.users.dialect.serverName }

    private static func relationNote<T>(_ outcome: WriteOutcome<T>, _ done: String) -> String {
        switch outcome.resolution {
        case .answered: "\(done) on the server"
        case .recovered: "the answer was lost; the server shows \(done)"
        case .alreadyDone: "already \(done) on the server"
        }
    }
}

extension TimelineViewModel {
    /// The first page of accounts `read` gives (from no cursor) and, with `all`,
    /// the pages after it until `limit` users, Ctrl-C, or `walk` stops it
    /// (said in the result: a server that repeats itself or goes the wrong way), as one page.
    static func pages(all: Bool, limit: Int, walk: PageWalk, _ read: (String?) async throws(RequestError) -> UserPage)
        async throws(RequestError) -> (UserPage, PageWalk.Stop?) {
        var walk = walk
        var page = try await read(nil)
        let first = page.users.compactMap(\.identifier)
        var seen = Set(first)
        _ = walk.stop(afterPageWith: first, from: nil, next: page.next)
        while all, let cursor = page.next, page.users.count < limit, !Task.isCancelled {
            let next = try await read(cursor)
            page.users += next.users
            page.following.merge(next.following) { $1 }
            let stop = walk.stop(afterPageWith: next.users.compactMap(\.identifier).filter { seen.insert($0).inserted },
                                 from: cursor, next: next.next)
            if case .wrongWay? = stop { return (page, stop) }
            // A server that repeats its cursor would loop: stop where it does.
            page.next = next.users.isEmpty || next.next == cursor ? nil : next.next
            if let stop { return (page, stop) }
        }
        return (page, nil)
    }
}
