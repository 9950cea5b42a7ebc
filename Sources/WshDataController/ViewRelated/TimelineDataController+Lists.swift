import WshModel
import WshRequest

/// Lists: the writes resolve a lost answer by reading the
/// server before they report, as the other writes do.
extension TimelineDataController {
    /// The account's lists.
    public func lists() async throws(RequestError) -> [UserList] {
        try await statuses.api.run("TimelineDataController.lists()", count: \.count) { try await $0.lists($1) }
    }

    /// The accounts on the list `listID`.
    public func listMembers(listID: String) async throws(RequestError) -> [User] {
        let members = try await statuses.api.run("TimelineDataController.listMembers(listID: \(listID))", count: \.count) {
            try await $0.listMembers(listID: listID, $1)
        }
        users.remember(members)
        return members
    }

    /// Creates a list titled `title`; a lost answer is resolved by looking for
    /// a list with that title that `before` (the ids there were) did not have.
    public func createList(title: String, before: Set<String>) async throws(WriteError) -> WriteOutcome<UserList> {
        let lost: RequestError
        do {
            return WriteOutcome(try await statuses.api.run("TimelineDataController.createList(title: \(title))", count: { _ in 1 }) {
                try await $0.createList(title: title, $1)
            })
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let lists = try await check(lost, "reading your lists") { () async throws(RequestError) in try await self.lists() }
        guard let made = lists.first(where: { $0.title == title && !before.contains($0.id) }) else {
            throw .notApplied(lostAnswer: lost)
        }
        return WriteOutcome(made, resolution: .recovered(lostAnswer: lost.description))
    }

    /// Deletes the list `listID`; a list already gone counts as done.
    public func deleteList(listID: String) async throws(WriteError) -> WriteOutcome<Void> {
        let lost: RequestError
        do {
            try await statuses.api.run("TimelineDataController.deleteList(listID: \(listID))", count: { _ in 1 }) {
                try await $0.deleteList(listID: listID, $1)
            }
            return WriteOutcome(())
        } catch {
            if error.isNotThere { return WriteOutcome((), resolution: .alreadyDone(reason: error.description)) }
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let lists = try await check(lost, "reading your lists") { () async throws(RequestError) in try await self.lists() }
        guard !lists.contains(where: { $0.id == listID }) else { throw .notApplied(lostAnswer: lost) }
        return WriteOutcome((), resolution: .recovered(lostAnswer: lost.description))
    }

    /// Adds `reference` to the list `listID` (or removes them); a lost answer
    /// is resolved by reading the list's members.
    public func setListMember(_ member: Bool, listID: String, _ reference: UserReference) async throws(WriteError)
        -> WriteOutcome<User> {
        let lost: RequestError
        do {
            let user = try await statuses.api.run(
                "TimelineDataController.\(member ? "addToList" : "removeFromList")(listID: \(listID), \(reference))",
                count: { _ in 1 }) { try await $0.setListMember(member, listID: listID, reference, $1) }
            return WriteOutcome(user)
        } catch {
            guard error.leavesWriteOutcomeUnknown else { throw .rejected(error) }
            lost = error
        }
        let members = try await check(lost, "reading the list's members") { () async throws(RequestError) in
            try await self.listMembers(listID: listID)
        }
        let found = members.first { reference.matches($0) }
        guard (found != nil) == member else { throw .notApplied(lostAnswer: lost) }
        return WriteOutcome(found ?? reference.user, resolution: .recovered(lostAnswer: lost.description))
    }

    /// Runs the read that resolves a lost answer; its failure leaves the outcome unknown.
    private func check<T>(_ lost: RequestError, _ what: String, _ read: () async throws(RequestError) -> T)
        async throws(WriteError) -> T {
        do {
            return try await read()
        } catch {
            throw .unknown(lostAnswer: lost, check: "\(what) failed: \(error.description)")
        }
    }
}

extension UserReference {
    /// The user as far as the reference names them.
    var user: User {
        switch self {
        case .uid(let uid): User(idstr: uid)
        case .screenName(let name): User(screenName: name)
        }
    }
}
