import HTTPTypes

/// The one pager: every paged list (timelines, notifications, conversations,
/// accounts, bookmarks and favourites, scheduled statuses) builds its paging
/// header here, and sets it here, as the flavour writes it: its name (`Link`
/// or `link`) and whether a last page still links onwards.
extension MastodonAPI {
    /// The paging header of a page whose newest item is `newest` and oldest
    /// `oldest` (public ids, before the style writes them): `rel="next"`
    /// (`max_id` = the oldest) when `olderRemain` or the flavour links on from
    /// the last page, `rel="prev"` (`min_id` = the newest) always; nil for an
    /// empty page, which no server links from.
    func pageLink(_ call: Call, newest: Int64?, oldest: Int64?, olderRemain: () -> Bool) -> String? {
        guard let newest, let oldest else { return nil }
        var links: [String] = []
        if state.flavour.paging.nextOnLastPage || olderRemain() {
            links.append("<\(linkURL(call, "max_id", oldest))>; rel=\"next\"")
        }
        links.append("<\(linkURL(call, "min_id", newest))>; rel=\"prev\"")
        return links.joined(separator: ", ")
    }

    /// `items` (newest first, `id` decreasing) paged by `page(byID:…)`, rendered
    /// by `render`, with the paging header.
    func pagedReply<Item>(_ items: [Item], by id: (Item) -> Int64, _ call: Call, default defaultLimit: Int = 20,
                          maximum: Int, render: ([Item]) -> [UInt8]) throws -> Reply {
        let (slice, link) = try page(byID: items, id, call, default: defaultLimit, maximum: maximum)
        var reply = Self.json(render(slice))
        setPageLink(link, on: &reply)
        return reply
    }

    /// `limit` and the cursors of a paged list: `max_id` (ids below it), the
    /// lower bound (ids above `since_id` and `min_id`), and whether `min_id`
    /// asks for the page just above it rather than the newest.
    func cursors(_ call: Call, default defaultLimit: Int = 20, maximum: Int) throws
        -> (limit: Int, maxID: Int64?, lower: Int64, fromBelow: Bool) {
        let maxID = try cursor(call, "max_id")
        let sinceID = try cursor(call, "since_id")
        let minID = try cursor(call, "min_id")
        return (limit(call, default: defaultLimit, maximum: maximum), maxID, max(sinceID ?? 0, minID ?? 0), minID != nil)
    }

    /// Sets `link` (nil: nothing) on `reply` under the flavour's header name.
    func setPageLink(_ link: String?, on reply: inout Reply) {
        guard let link, let name = HTTPField.Name(state.flavour.paging.headerName) else { return }
        reply.headers[name] = link
    }

    /// The request's URL on the sandbox, its cursors replaced by `name=id` (and no `access_token`).
    func linkURL(_ call: Call, _ name: String, _ id: Int64) -> String {
        let kept = call.query.split(separator: "&").filter { pair in
            let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !["max_id", "since_id", "min_id", "access_token"].contains(key)
        }
        return state.origin + call.path + "?" + (kept.map(String.init) + ["\(name)=" + state.ids.render(id)]).joined(separator: "&")
    }
}
