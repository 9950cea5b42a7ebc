import WshLanguage
import WshViewModel

/// `lists` (with `create`, `delete`, `add`, `remove`): Mastodon's lists,
/// each write one recorded ViewModel input marked `⇅` whose undo is its
/// compensating request. Refused in one line, before any request, where the
/// API has none.
extension Shell {
    func listsCommands() -> [CommandSpec] {
        var lists = CommandSpec(
            name: "lists", abstract: "Show your lists, or create, delete, add to or remove from one (Mastodon).",
            discussion: """
                lists shows your lists, numbered, with whose replies each shows (--json for a
                document). fetch list NAME loads a list's timeline.
                  lists create NAME        POST /api/v1/lists; undo deletes it
                  lists delete NAME        DELETE /api/v1/lists/:id; undo makes it again with the
                                           same title and members (the server gives a new id)
                  lists add NAME USER      POST /api/v1/lists/:id/accounts; undo removes USER.
                                           Mastodon lists hold only accounts you follow.
                  lists remove NAME USER   DELETE /api/v1/lists/:id/accounts; undo adds USER back
                NAME is a list's title (any case) or id; USER is @name or a uid.
                """,
            arguments: [ArgumentSpec("ACTION", help: "create NAME, delete NAME, add NAME USER, remove NAME USER",
                                     arity: .variadic)],
            options: [.json],
            completion: { request in request.argumentIndex == 0 ? ["create", "delete", "add", "remove"] : [] },
            handler: { [unowned self] context in try self.lists(context) })
        return [lists]
    }

    private func lists(_ context: CommandContext) throws(LanguageError) {
        try refuseUnless(\.lists, "has no lists")
        let words = context.arguments.values("ACTION")
        func argument(_ position: Int, _ usage: String) throws(LanguageError) -> String {
            guard words.count > position else { throw .usage("lists \(usage)") }
            return words[position]
        }
        switch words.first {
        case nil:
            try driveScreen(context, input: "SessionViewModel.showLists()", document: \.lists?.document) { try await $0.showLists() }
        case "create":
            let title = words.dropFirst().joined(separator: " ")
            guard !title.isEmpty else { throw .usage("lists create NAME: the list needs a title") }
            try drive(context, input: "SessionViewModel.createList(title: …)") { try await $0.createList(title: title) }
        case "delete":
            let name = try argument(1, "delete NAME: which list")
            guard words.count == 2 else { throw .usage("lists delete NAME: one list (quote a title with spaces)") }
            try drive(context, input: "SessionViewModel.deleteList(name: …)") { try await $0.deleteList(name: name) }
        case "add", "remove":
            let member = words[0] == "add"
            let name = try argument(1, "\(words[0]) NAME USER: which list")
            let user = try argument(2, "\(words[0]) NAME USER: which user (@name or uid)")
            guard words.count == 3 else { throw .usage("lists \(words[0]) NAME USER: too many words (quote a title with spaces)") }
            try drive(context, input: "SessionViewModel.setListMember(\(member), …)") {
                try await $0.setListMember(member, list: name, user: user)
            }
        case let word?:
            throw .usage("unknown lists action '\(word)': create NAME, delete NAME, add NAME USER or remove NAME USER")
        }
    }
}
