import WshDataController
import WshText

/// `lists` and its writes as recorded inputs; each write's `RemoteEffect` (`ListCreatedEffect`,
/// `ListDeletedEffect`, `ListMemberEffect`) is undone by its compensating call.
extension SessionViewModel {
    /// The lists screen on top, if that is what shows.
    public var lists: ListsViewModel? { timeline.lists }

    /// `lists`: opens the screen of the account's lists.
    public func showLists() async throws(ViewModelError) {
        try await recordRemote(replay: "lists") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            try await timeline.showLists()
            return ("lists", nil)
        }
    }

    /// `lists create NAME`: undo deletes the list.
    public func createList(title: String) async throws(ViewModelError) {
        try await recordRemote(replay: "lists create \(Self.replayWord(title))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let made = try await timeline.createList(title: title)
            notes.append(made.note ?? "created list \(Self.quoted(made.title)) (\(made.id)) on the server")
            return ("lists create \(Self.quoted(title))", ListCreatedEffect(id: made.id, title: made.title))
        }
    }

    /// `lists delete NAME`: undo creates it again with the same title and members (the server gives a new id).
    public func deleteList(name: String) async throws(ViewModelError) {
        try await recordRemote(replay: "lists delete \(Self.replayWord(name))") { () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let deleted = try await timeline.deleteList(name: name)
            notes.append(deleted.note ?? "deleted list \(Self.quoted(deleted.title)) (\(deleted.id)) on the server")
            return ("lists delete \(Self.quoted(deleted.title)) (undo makes it again, with a new id)",
                    ListDeletedEffect(id: deleted.id, title: deleted.title, members: deleted.members))
        }
    }

    /// `lists add NAME USER` / `lists remove NAME USER`: undo does the other.
    public func setListMember(_ member: Bool, list name: String, user: String) async throws(ViewModelError) {
        let word = member ? "add" : "remove"
        try await recordRemote(replay: "lists \(word) \(Self.replayWord(name)) \(Self.replayWord(user))") {
            () async throws(ViewModelError) -> (String, (any RemoteEffect)?) in
            let written = try await timeline.setListMember(member, list: name, user: user)
            let reference = written.user ?? .screenName(user)
            notes.append(written.note ?? "\(member ? "added" : "removed") \(reference) \(member ? "to" : "from") list \(Self.quoted(written.title))")
            return ("lists \(word) \(Self.quoted(written.title)) \(reference)",
                    ListMemberEffect(member, listID: written.id, title: written.title, user: reference))
        }
    }

}

/// An effect that names a list: when undo or redo makes a list again under a
/// new id, every such effect in the history is revised to name the new one.
protocol ListNamingEffect: RemoteEffect {
    /// This effect naming the list `newID` wherever it named `oldID`.
    func replacingListID(_ oldID: String, with newID: String) -> Self
}

extension SessionViewModel {
    /// Every operation naming the list `oldID` names `newID` instead.
    func reviseList(_ oldID: String, as newID: String) {
        history.reviseAll(remote: { ($0 as? any ListNamingEffect)?.replacingListID(oldID, with: newID) ?? $0 }) { $0 }
    }
}

/// A list made: undo deletes it, redo makes it again (a new id).
public struct ListCreatedEffect: ListNamingEffect {
    /// The list made.
    public var id: String
    /// Its title.
    public var title: String

    /// The list `id` made with `title`.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    public var summary: String {
        "created list \(SessionViewModel.quoted(title)) (\(TerminalText.sanitize(id))) · undo deletes it"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.deleteListAgain(id: id, title: title, for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        let made = try await session.timeline.createListAgain(title: title, members: [], for: operation, undo: false)
        session.reviseList(id, as: made.id)
        session.notes.append("created list \(SessionViewModel.quoted(title)) again (\(made.id))")
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> ListCreatedEffect { self }

    func replacingListID(_ oldID: String, with newID: String) -> ListCreatedEffect {
        ListCreatedEffect(id: id == oldID ? newID : id, title: title)
    }
}

/// A list deleted: undo makes it again with its title and members (a new
/// id), redo deletes it.
public struct ListDeletedEffect: ListNamingEffect {
    /// The list deleted.
    public var id: String
    /// Its title.
    public var title: String
    /// Its members when it was deleted.
    public var members: [UserReference]

    /// The deletion of the list `id`, with `title` and `members`.
    public init(id: String, title: String, members: [UserReference]) {
        self.id = id
        self.title = title
        self.members = members
    }

    public var summary: String {
        "deleted list \(SessionViewModel.quoted(title)) (\(TerminalText.sanitize(id)), \(DisplayText.plural(members.count, "member")))"
            + " · undo makes it again with a new id"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        let made = try await session.timeline.createListAgain(title: title, members: members, for: operation, undo: true)
        // Redo deletes the list as it is now: the new id.
        session.reviseList(id, as: made.id)
        return "made list \(SessionViewModel.quoted(title)) again with \(members.count) member\(members.count == 1 ? "" : "s");"
            + " the server gave it a new id (\(made.id), was \(id))"
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.deleteListAgain(id: id, title: title, for: operation, undo: false))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> ListDeletedEffect { self }

    func replacingListID(_ oldID: String, with newID: String) -> ListDeletedEffect {
        ListDeletedEffect(id: id == oldID ? newID : id, title: title, members: members)
    }
}

/// `user` added to (`member`) or removed from the list `listID`: undo does the other.
public struct ListMemberEffect: ListNamingEffect {
    /// True when `user` was added, false when removed.
    public var member: Bool
    /// The list.
    public var listID: String
    /// Its title.
    public var title: String
    /// The user added or removed.
    public var user: UserReference

    /// `user` added to (or, with `member` false, removed from) the list `listID` titled `title`.
    public init(_ member: Bool, listID: String, title: String, user: UserReference) {
        self.member = member
        self.listID = listID
        self.title = title
        self.user = user
    }

    public var summary: String {
        let list = SessionViewModel.quoted(title)
        return member ? "added \(user) to list \(list) · undo removes them" : "removed \(user) from list \(list) · undo adds them again"
    }

    public func undo(in session: SessionViewModel, undoing operation: String) async throws(ViewModelError) -> String {
        try await session.timeline.setListMemberAgain(!member, listID: listID, title: title, user, for: operation, undo: true)
    }

    public func redo(in session: SessionViewModel, redoing operation: String) async throws(ViewModelError) {
        session.notes.append(try await session.timeline.setListMemberAgain(member, listID: listID, title: title, user,
                                                                           for: operation, undo: false))
    }

    public func replacingStatusID(_ oldID: String, with newID: String) -> ListMemberEffect { self }

    func replacingListID(_ oldID: String, with newID: String) -> ListMemberEffect {
        ListMemberEffect(member, listID: listID == oldID ? newID : listID, title: title, user: user)
    }
}
