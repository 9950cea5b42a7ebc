/// A place in wsh's own source: the file (from the package, `Sources/…`),
/// the function and the line. The funnels every layer event passes through
/// (a DataController's traced call, its cache and archive answers) take one
/// as default arguments (`#filePath`, `#function`, `#line`), so each event
/// names the call site that produced it and the classroom shows that
/// function beside the event.
public struct SourcePlace: Sendable, Hashable {
    /// `Sources/WshDataController/ModelRelated/StatusDataController.swift`.
    public var file: String
    /// As Swift names it: `timeline(_:count:)`.
    public var function: String
    /// From 1.
    public var line: Int

    /// The place of `filePath` (`#filePath`: where the file was compiled),
    /// kept from its `Sources/` folder on: a build's own folder is nobody's business.
    public init(filePath: String, function: String, line: Int) {
        let parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        if let sources = parts.lastIndex(of: "Sources") {
            file = parts[sources...].joined(separator: "/")
        } else {
            file = String(filePath.split(separator: "/").last ?? Substring(filePath))
        }
        self.function = function
        self.line = line
    }
}
