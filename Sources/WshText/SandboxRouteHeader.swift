/// The header the sandbox adds to every answer to say which of its routes
/// answered (`MastodonAPI GET /api/v1/timelines/public`), so a trace or the
/// classroom page can show the server's side of a request. Any server may
/// send it: readers sanitize it like all server text.
public enum SandboxRouteHeader {
    /// The header's name, lower-cased as HTTP/2 and wsh's responses keep it.
    public static let name = "x-wsh-sandbox-route"

    /// The route `path` takes, with what looks like an id (a path segment of
    /// six or more characters holding a digit) written `:id`:
    /// `/api/v1/statuses/:id/favourite`.
    public static func pattern(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count >= 6 && segment.contains(where: \.isNumber) ? ":id" : String(segment)
        }.joined(separator: "/")
    }
}
