/// What a `TimelineViewModel` change asks its View to re-render.
extension ViewChange where Subject == TimelineViewModel {
    /// `rows` changed: statuses loaded, appended, posted, muted or unmuted.
    public static var rows: Self { Self(bit: 0) }
    /// `screen` changed: a detail, comments or user screen opened or closed.
    public static var screen: Self { Self(bit: 1) }
    /// `errorMessage` was set or cleared.
    public static var error: Self { Self(bit: 2) }
    /// `isLoading` turned on or off.
    public static var loading: Self { Self(bit: 3) }
}
