import WshModel
import WshRequest

extension StatusDataController {
    /// Bookmarks (`true`) or unbookmarks the status `statusID`, and returns
    /// the status the server answers. A lost answer is resolved by reading the
    /// status's `bookmarked` (uncached): as wanted is `.recovered`, the other
    /// way `.notApplied`, unreadable `.unknown`.
    public func setBookmark(_ bookmark: Bool, statusID: String) async throws(WriteError) -> WriteOutcome<Status> {
        let lost: RequestError
        do {
            let status = try await api.run("StatusDataController.\(bookmark ? "bookmark" : "unbookmark")(id: \(statusID))",
                                           count: { _ in 1 }) {
                try await $0.setBookmark(bookmark, id: statusID, $1)
            }
            // The cached status is what `detail` opens: it must say bookmarked now.
            remember([status])
            return WriteOutcome(status)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let status = try await resolveLostToggle(lost, statusID: statusID, \.bookmarked, wanted: bookmark, named: "bookmarked")
        remember([status])
        return WriteOutcome(status, resolution: .recovered(lostAnswer: lost.description))
    }

    /// After the answer to a toggle of `statusID` was lost: reads the status
    /// (uncached) and returns it when its `flag` is as `wanted`; throws
    /// `.notApplied` when it is the other way, `.unknown` when it cannot tell.
    func resolveLostToggle(_ lost: RequestError, statusID: String, _ flag: KeyPath<Status, Bool?>, wanted: Bool,
                           named name: String) async throws(WriteError) -> Status {
        try await api.resolveLostAnswer(
            lost, reading: "status \(statusID)", call: "StatusDataController.status(id: \(statusID)) (is it \(name)?)",
            silence: "the server's status \(statusID) does not say whether it is \(name)",
            { try await $0.status(id: statusID, $1) }, landed: { $0[keyPath: flag].map { $0 == wanted } })
    }
}
