/// What a `TimelineViewModel` change asks its View to re-render: the
/// calculator demo's `callBackAction:` bit mask, one notification per change.
public struct TimelineChange: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `rows` changed: statuses loaded, appended, posted, muted or unmuted.
    public static let rows = TimelineChange(rawValue: 1 << 0)
    /// `screen` changed: a detail, comments or user screen opened or closed.
    public static let screen = TimelineChange(rawValue: 1 << 1)
    /// `errorMessage` was set or cleared.
    public static let error = TimelineChange(rawValue: 1 << 2)
    /// `isLoading` turned on or off.
    public static let loading = TimelineChange(rawValue: 1 << 3)
}
