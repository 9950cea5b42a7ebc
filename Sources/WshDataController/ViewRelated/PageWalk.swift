/// The one check every walk back through a source's pages makes of each
/// page (`fetch --all`, `archive sync` and its catch-up, the `--all` of
/// notifications and of account lists): that it goes on toward older pages.
///
/// A walk asks page after page until the server says there is no more. Two
/// kinds of server would keep it asking for ever:
///
/// - one that sends the same pages again and again: `RepeatedPages`, three
///   pages in a row with nothing the walk had not had;
/// - one whose cursor goes the wrong way (a broken `max_id`, older pages
///   that carry higher ids): every page brings something new, so the walk
///   would read the server's newest statuses over and over, or climb for
///   ever. Such a page is one that:
///   - names a next page no older than itself, where both cursors carry an
///     id (`max_id` in a server's link, `older:ID`); a page number carries
///     none, nor a cursor of the server's own (Weibo's `next_cursor`). This
///     also holds for bookmarks, favourites and account lists, whose cursor
///     is the id of the bookmark, favourite or follow, not of what is shown;
///   - or, asked for what is older than an id (Weibo's inclusive `max_id`),
///     sends a status newer than it: dropped from the page, so a page of
///     nothing but such statuses would otherwise end the walk as if at the end;
///   - or, where the server orders the items by id (a timeline by status id,
///     notifications by their own), brings one the walk had not had that is
///     newer than the oldest it had: the last new one of the page before (not
///     the lowest id of all: a pinned status may top a first page). Items it
///     had already had (a moving timeline pushes a few of one numbered page
///     onto the next) are not counted: repeats are `RepeatedPages`' business.
///
/// Ids that cannot be compared (`StatusID.order`: a numeric id beside a
/// flake id, ids of two lengths that are not numbers) never stop a walk.
public struct PageWalk: Sendable {
    /// Why a walk stopped.
    public enum Stop: Sendable, Hashable {
        /// `pages` pages in a row with nothing the walk had not had.
        case repeating(pages: Int)
        /// A page that is not older than the one before.
        case wrongWay(WrongWay)
    }

    /// True when the server orders the items by their ids, newest first.
    let ordersByID: Bool
    /// The API, which reads its own cursors (`Dialect.olderThanID(inCursor:)`).
    let dialect: any Dialect
    private var repeated = RepeatedPages()
    /// The oldest id the walk has had, where the items are ordered by id: the
    /// last new one of the page before.
    private var oldest: String?

    init(ordersByID: Bool, dialect: any Dialect) {
        self.ordersByID = ordersByID
        self.dialect = dialect
    }

    /// Counts a page of a timeline asked `from` a cursor (nil: the newest),
    /// which brought the items with ids `unseen` new to the walk (in the
    /// server's order) and names `next` (nil: the end); the reason to stop
    /// there, nil when the walk goes on.
    /// `notOlder` is a status the page brought that is newer than the cursor it was
    /// asked from (`TimelineSlice.notOlder`), dropped from the page: the wrong way too.
    public mutating func stop(afterPageWith unseen: [String], from: TimelineCursor?, next: TimelineCursor?,
                              notOlder: String? = nil) -> Stop? {
        stop(afterPageWith: unseen, fromID: from.flatMap(olderThanID), nextID: next.flatMap(olderThanID), more: next != nil,
             notOlder: notOlder)
    }

    /// As above, for pages whose cursors are the API's own text (notifications, accounts).
    public mutating func stop(afterPageWith unseen: [String], from: String?, next: String?) -> Stop? {
        stop(afterPageWith: unseen, fromID: from.flatMap(dialect.olderThanID(inCursor:)),
             nextID: next.flatMap(dialect.olderThanID(inCursor:)), more: next != nil)
    }

    /// The check itself, on the ids the cursors carry (nil: none).
    mutating func stop(afterPageWith unseen: [String], fromID: String?, nextID: String?, more: Bool,
                       notOlder: String? = nil) -> Stop? {
        if let notOlder, let fromID {
            return .wrongWay(WrongWay(sign: .item(id: notOlder, after: fromID)))
        }
        if more, let fromID, let nextID, let order = StatusID.order(nextID, fromID), order != .older {
            return .wrongWay(WrongWay(sign: .cursor(from: fromID, next: nextID)))
        }
        if ordersByID {
            if let oldest, let newer = unseen.first(where: { StatusID.order($0, oldest) == .newer }) {
                return .wrongWay(WrongWay(sign: .item(id: newer, after: oldest)))
            }
            // Every new one is older than `oldest` or does not compare with it: the last is where this page ends.
            if let last = unseen.last { oldest = last }
        }
        return repeated.stops(afterPageWith: unseen.count, more: more) ? .repeating(pages: repeated.inARow) : nil
    }

    private func olderThanID(_ cursor: TimelineCursor) -> String? {
        switch cursor {
        case .page: nil
        case .olderThan(let id): id
        case .link(let link): dialect.olderThanID(inCursor: link.query)
        }
    }
}

/// A page that is not older than the one before: what it showed, in words
/// a user reads.
public struct WrongWay: Sendable, Hashable, CustomStringConvertible {
    /// What showed it.
    public enum Sign: Sendable, Hashable {
        /// The next page's cursor names an id no older than the cursor the page was asked from.
        case cursor(from: String, next: String)
        /// The page brought `id`, new to the walk and newer than `after`, the oldest it had.
        case item(id: String, after: String)
    }

    public let sign: Sign

    public init(sign: Sign) {
        self.sign = sign
    }

    /// `the server's next page is newer than the one before (max_id went from 1040 up to 1090): its cursor goes the wrong way`.
    public var reason: String {
        switch sign {
        case .cursor(let from, let next) where from == next:
            "the server's next page is the one before again (max_id stayed at \(from)): its cursor does not move"
        case .cursor(let from, let next):
            "the server's next page is newer than the one before (max_id went from \(from) up to \(next)): its cursor goes the wrong way"
        case .item(let id, let after):
            "the server's next page is newer than the one before (it brought id \(id) after id \(after)): its cursor goes the wrong way"
        }
    }

    /// The reason, and that the walk stopped there.
    public var description: String { reason + ", so the walk stopped" }
}

extension TimelineDataController {
    /// The check of each page of a walk through `source` (`fetch --all`, `archive sync`).
    public func walk(_ source: TimelineSource) -> PageWalk {
        PageWalk(ordersByID: statuses.dialect.ordersByStatusID(source), dialect: statuses.dialect)
    }

    /// The check of each page of a walk through the notifications, which
    /// the server orders by their own ids.
    public func notificationsWalk() -> PageWalk {
        PageWalk(ordersByID: true, dialect: statuses.dialect)
    }
}

extension UserDataController {
    /// The check of each page of a walk through an account list (followers,
    /// following, who favourited or boosted), ordered by when each came, not
    /// by an id of the account's: only a cursor that carries an id tells.
    public func accountsWalk() -> PageWalk {
        PageWalk(ordersByID: false, dialect: dialect)
    }
}
