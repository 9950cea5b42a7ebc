/// The text and exit status for an error: the one mapping from errors to what a
/// user sees.
public struct ErrorReport: Sendable, Equatable {
    /// The line to print on the diagnostic stream, or nil when nothing should be
    /// printed (`exit N`).
    public var message: String?
    /// The exit status: 0 ok, 1 command failed, 2 usage or syntax error,
    /// 130 interrupted, N for `exit N`.
    public var status: Int32

    /// Maps any error to its report.
    ///
    /// Scripts get `FILE:LINE: command: message`; interactive sessions get
    /// `command: message` since the user just typed the line. Errors that are not
    /// ``LanguageError``s count as failed commands.
    public init(_ error: any Error, interactive: Bool) {
        let languageError =
            (error as? LanguageError) ?? .commandFailed(String(describing: error))
        status = languageError.status
        if case .exit = languageError.kind {
            message = nil
            return
        }
        var text = ""
        if !interactive, let position = languageError.position {
            text += "\(position.file):\(position.line): "
        }
        switch languageError.kind {
        case .syntax where languageError.command == nil:
            text += "syntax error: "
        default:
            if let command = languageError.command { text += "\(command): " }
        }
        text += languageError.message
        message = text
    }
}
