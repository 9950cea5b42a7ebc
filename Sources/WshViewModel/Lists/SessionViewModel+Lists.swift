import WshDataController

/// `bookmark N`, `unbookmark N`, `lists` and its writes as recorded inputs;
/// each write's `RemoteEffect` is undone by its compensating call.
extension SessionViewModel {
    /// The lists screen on top, if that is what shows.
    public var lists: ListsViewModel? { timeline.lists }

    /// `bookmark N` / `unbookmark N`: undo does the other.
    public func setBookmark(_ bookmark: Bool, index: Int) async throws(ViewModelError) {
        let word = bookmark ? "bookmark" : "unbookmark"
        try await recordRemote(replay: "\(word) \(index)") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let toggled = try await timeline.setBookmark(bookmark, index: index)
            notes.append(toggled.note ?? "\(word)ed status \(toggled.target) on the server")
            return ("\(word) \(index)", bookmark ? .bookmarked(statusID: toggled.target) : .unbookmarked(statusID: toggled.target))
        }
    }

    /// `lists`: opens the screen of the account's lists.
    public func showLists() async throws(ViewModelError) {
        try await recordRemote(replay: "lists") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            try await timeline.showLists()
            return ("lists", nil)
        }
    }

    /// `lists create NAME`: undo deletes the list.
    public func createList(title: String) async throws(ViewModelError) {
        try await recordRemote(replay: "lists create \(Self.replayWord(title))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let made = try await timeline.createList(title: title)
            notes.append(made.note ?? "created list \(Self.quoted(made.title)) (\(made.id)) on the server")
            return ("lists create \(Self.quoted(title))", .createdList(id: made.id, title: made.title))
        }
    }

    /// `lists delete NAME`: undo creates it again with the same title and members (the server gives a new id).
    public func deleteList(name: String) async throws(ViewModelError) {
        try await recordRemote(replay: "lists delete \(Self.replayWord(name))") { () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let deleted = try await timeline.deleteList(name: name)
            notes.append(deleted.note ?? "deleted list \(Self.quoted(deleted.title)) (\(deleted.id)) on the server")
            return ("lists delete \(Self.quoted(deleted.title)) (undo makes it again, with a new id)",
                    .deletedList(id: deleted.id, title: deleted.title, members: deleted.members))
        }
    }

    /// `lists add NAME USER` / `lists remove NAME USER`: undo does the other.
    public func setListMember(_ member: Bool, list name: String, user: String) async throws(ViewModelError) {
        let word = member ? "add" : "remove"
        try await recordRemote(replay: "lists \(word) \(Self.replayWord(name)) \(Self.replayWord(user))") {
            () async throws(ViewModelError) -> (String, RemoteEffect?) in
            let written = try await timeline.setListMember(member, list: name, user: user)
            let reference = written.user ?? .screenName(user)
            notes.append(written.note ?? "\(member ? "added" : "removed") \(reference) \(member ? "to" : "from") list \(Self.quoted(written.title))")
            return ("lists \(word) \(Self.quoted(written.title)) \(reference)",
                    .listMember(member, listID: written.id, title: written.title, user: reference))
        }
    }

    // MARK: Remote effects

    /// Undo of a bookmark or list write; nil for another effect.
    func takeBackListWrite(_ effect: RemoteEffect, undoing operation: String) async throws(ViewModelError) -> String? {
        switch effect {
        case .bookmarked(let statusID):
            return try await timeline.setBookmarkAgain(false, statusID: statusID, for: operation, undo: true)
        case .unbookmarked(let statusID):
            return try await timeline.setBookmarkAgain(true, statusID: statusID, for: operation, undo: true)
        case .createdList(let id, let title):
            return try await timeline.deleteListAgain(id: id, title: title, for: operation, undo: true)
        case .deletedList(let oldID, let title, let members):
            let made = try await timeline.createListAgain(title: title, members: members, for: operation, undo: true)
            // Redo deletes the list as it is now: the new id.
            history.reviseAll(remote: { $0.replacingListID(oldID, with: made.id) }) { $0 }
            return "made list \(Self.quoted(title)) again with \(members.count) member\(members.count == 1 ? "" : "s");"
                + " the server gave it a new id (\(made.id), was \(oldID))"
        case .listMember(let member, let listID, let title, let user):
            return try await timeline.setListMemberAgain(!member, listID: listID, title: title, user, for: operation, undo: true)
        default:
            return nil
        }
    }

    /// Redo of a bookmark or list write; false for another effect.
    func reapplyListWrite(_ effect: RemoteEffect, redoing operation: String) async throws(ViewModelError) -> Bool {
        switch effect {
        case .bookmarked(let statusID):
            notes.append(try await timeline.setBookmarkAgain(true, statusID: statusID, for: operation, undo: false))
        case .unbookmarked(let statusID):
            notes.append(try await timeline.setBookmarkAgain(false, statusID: statusID, for: operation, undo: false))
        case .createdList(let oldID, let title):
            let made = try await timeline.createListAgain(title: title, members: [], for: operation, undo: false)
            history.reviseAll(remote: { $0.replacingListID(oldID, with: made.id) }) { $0 }
            notes.append("created list \(Self.quoted(title)) again (\(made.id))")
        case .deletedList(let id, let title, _):
            notes.append(try await timeline.deleteListAgain(id: id, title: title, for: operation, undo: false))
        case .listMember(let member, let listID, let title, let user):
            notes.append(try await timeline.setListMemberAgain(member, listID: listID, title: title, user, for: operation, undo: false))
        default:
            return false
        }
        return true
    }
}

extension RemoteEffect {
    /// This effect naming the list `newID` wherever it named `oldID`.
    func replacingListID(_ oldID: String, with newID: String) -> RemoteEffect {
        func swap(_ id: String) -> String { id == oldID ? newID : id }
        return switch self {
        case .createdList(let id, let title): .createdList(id: swap(id), title: title)
        case .deletedList(let id, let title, let members): .deletedList(id: swap(id), title: title, members: members)
        case .listMember(let member, let listID, let title, let user):
            .listMember(member, listID: swap(listID), title: title, user: user)
        default: self
        }
    }
}
