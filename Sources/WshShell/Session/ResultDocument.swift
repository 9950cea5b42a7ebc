import WshLanguage

extension Shell {
    /// Leaves a command's JSON form in `$result` for `json get PATH`, encoded
    /// only if a script reads it; the document is the value as the command saw it.
    func leaveResult<Document: Encodable>(_ context: CommandContext, _ document: Document) {
        context.setResultDocument(lazy: { try? JSONView.encode(document) })
    }

    /// Leaves the document `make` returns in `$result`, made only if a script reads it.
    func leaveResult<Document: Encodable>(_ context: CommandContext, later make: @escaping () -> Document) {
        context.setResultDocument(lazy: { try? JSONView.encode(make()) })
    }
}
