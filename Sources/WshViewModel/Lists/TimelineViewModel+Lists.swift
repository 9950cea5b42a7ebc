import WshDataController
import WshModel
import WshRequest

/// Lists: the `lists` screen and the list writes, each with the request
/// that takes it back or sends it again for undo and redo. Refused before any
/// request where the API has no lists.
extension TimelineViewModel {
    /// A list the server has, after a write: its id and title.
    public struct ListWritten: Sendable, Hashable {
        public let id: String
        public let title: String
        /// The members it had (a deleted list's, which undo adds back).
        public let members: [UserReference]
        /// The user added or removed, for a membership change.
        public let user: UserReference?
        /// Something the user should know, nil for a plain success.
        public let note: String?
    }

    /// The lists screen on top, if that is what shows.
    public var lists: ListsViewModel? { screen.lists }

    // MARK: Lists

    /// Opens the screen of the account's lists.
    public func showLists() async throws(ViewModelError) {
        try offered(\.lists, "lists")
        let lists = try await request { () async throws(RequestError) in try await dataController.lists() }
        var next = state
        if case .lists? = next.screens.last { next.screens.removeLast() }
        next.screens.append(.lists(lists))
        commit(next)
    }

    /// Creates a list titled `title`.
    public func createList(title: String) async throws(ViewModelError) -> ListWritten {
        try offered(\.lists, "lists")
        guard !title.allSatisfy(\.isWhitespace) else { throw fail(.emptyText("create")) }
        let before = Set(try await request { () async throws(RequestError) in try await dataController.lists() }.map(\.id))
        let written = try await write(nothing: "no list was made", advice: "check with `lists` before creating it again") {
            () async throws(WriteError) in try await dataController.createList(title: title, before: before)
        }
        try await refreshListsScreen()
        return ListWritten(id: written.value.id, title: written.value.title, members: [], user: nil,
                           note: Self.lostAnswerNote(written, found: "found the list on the server"))
    }

    /// Deletes the list `name` (title or id), remembering its members so undo can add them back.
    public func deleteList(name: String) async throws(ViewModelError) -> ListWritten {
        let list = try await list(named: name)
        let members = try await request { () async throws(RequestError) in
            try await dataController.listMembers(listID: list.id)
        }.map(\.reference)
        let written = try await write(nothing: "the list is still there", advice: "check with `lists`") {
            () async throws(WriteError) in try await dataController.deleteList(listID: list.id)
        }
        try await refreshListsScreen()
        return ListWritten(id: list.id, title: list.title, members: members, user: nil,
                           note: Self.lostAnswerNote(written, found: "the server shows the list deleted"))
    }

    /// Adds (`true`) or removes the user `userName` to or from the list `name`.
    public func setListMember(_ member: Bool, list name: String, user userName: String) async throws(ViewModelError) -> ListWritten {
        guard let reference = UserReference(userName) else { throw fail(.noUserGiven) }
        let list = try await list(named: name)
        let written = try await write(
            nothing: member ? "\(reference) is not on the list" : "\(reference) is still on the list",
            advice: dataController.readBack(.listAccounts(listID: list.id)).advice
        ) { () async throws(WriteError) in try await dataController.setListMember(member, listID: list.id, reference) }
        return ListWritten(id: list.id, title: list.title, members: [], user: reference,
                           note: Self.lostAnswerNote(written, found: "the server shows it done"))
    }

    /// Deletes the list `id` again (undo of a create, redo of a delete). Returns a note.
    public func deleteListAgain(id: String, title: String, for operation: String, undo: Bool) async throws(ViewModelError) -> String {
        let outcome = try await compensate(operation, undo: undo, doing: "deleting list \(id)", check: "lists") {
            () async throws(WriteError) in try await dataController.deleteList(listID: id)
        }
        try await refreshListsScreen()
        if case .alreadyDone = outcome.resolution { return "list \"\(title)\" (\(id)) was already gone from the server" }
        return "deleted list \"\(title)\" (\(id)) on the server"
    }

    /// Creates the list `title` again with `members` (undo of a delete, redo
    /// of a create): the server gives it a new id, which it returns.
    public func createListAgain(title: String, members: [UserReference], for operation: String, undo: Bool)
        async throws(ViewModelError) -> ListWritten {
        let before = Set(try await request { () async throws(RequestError) in try await dataController.lists() }.map(\.id))
        let made = try await compensate(operation, undo: undo, doing: "creating list \"\(title)\" again", check: "lists") {
            () async throws(WriteError) in try await dataController.createList(title: title, before: before)
        }.value
        for member in members {
            _ = try await compensate(operation, undo: undo, doing: "adding \(member) to list \"\(title)\" again",
                                     check: dataController.readBack(.listAccounts(listID: made.id)).command) {
                () async throws(WriteError) in try await dataController.setListMember(true, listID: made.id, member)
            }
        }
        try await refreshListsScreen()
        return ListWritten(id: made.id, title: made.title, members: members, user: nil, note: nil)
    }

    /// Adds or removes `reference` on the list `listID` again, for undo or redo. Returns a note.
    public func setListMemberAgain(_ member: Bool, listID: String, title: String, _ reference: UserReference,
                                   for operation: String, undo: Bool) async throws(ViewModelError) -> String {
        _ = try await compensate(operation, undo: undo, doing: "\(member ? "adding" : "removing") \(reference)",
                                 check: dataController.readBack(.listAccounts(listID: listID)).command) {
            () async throws(WriteError) in try await dataController.setListMember(member, listID: listID, reference)
        }
        return "\(member ? "added" : "removed") \(reference) \(member ? "to" : "from") list \"\(title)\" on the server"
    }

    // MARK: Helpers

    /// Refuses, before any request, what the connected API does not have.
    private func offered(_ capability: KeyPath<Capabilities, Bool>, _ what: String) throws(ViewModelError) {
        guard dataController.capabilities[keyPath: capability] else { throw fail(.notOffered("this API (\(dataController.dialectName)) has no \(what)")) }
    }

    /// The account's list titled `name` (any case) or with id `name`.
    private func list(named name: String) async throws(ViewModelError) -> UserList {
        try offered(\.lists, "lists")
        let lists = try await request { () async throws(RequestError) in try await dataController.lists() }
        guard let list = UserList.named(name, in: lists) else { throw fail(.noList(name: name, titles: lists.map(\.title))) }
        return list
    }

    /// Reads the lists again when their screen is on top, so it shows what the server has.
    private func refreshListsScreen() async throws(ViewModelError) {
        guard case .lists? = state.screens.last else {
            commit(state)
            return
        }
        let lists = try await request { () async throws(RequestError) in try await dataController.lists() }
        var next = state
        next.screens[next.screens.count - 1] = .lists(lists)
        commit(next)
    }
}

extension User {
    /// How a list's member is named again: `@name`, else the uid.
    var reference: UserReference {
        if let name = self.screenName, !name.isEmpty { return .screenName(name) }
        return .uid(identifier ?? "")
    }
}
