import WshLanguage
import WshRequest

extension Shell {
    /// Runs an async input from a command handler and waits for it. Ctrl-C
    /// cancels it; a request failure becomes the command's one-line error.
    func wait<T>(_ operation: sending @escaping () async throws -> T) throws(LanguageError) -> T {
        do {
            return try Bridge.run(operation, onInterrupt: { [connection] in connection.cancelCurrentRequest() })
        } catch is BridgeInterrupted {
            throw LanguageError(.interrupted, "interrupted")
        } catch let error as LanguageError {
            throw error
        } catch let error as RequestError {
            throw failure(error)
        } catch {
            throw .commandFailed(redact("\(error)"))
        }
    }

    /// The language error for a request error: cancelled is an interrupt.
    func failure(_ error: RequestError) -> LanguageError {
        if case .cancelled = error { return LanguageError(.interrupted, "interrupted") }
        return .commandFailed(redact(error.description))
    }

    /// `text` without any secret this session knows.
    func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: connection.secrets)
    }

    /// The API client, starting the sandbox on first use.
    func client() throws(LanguageError) -> WeiboClient {
        do { return try connection.client() } catch { throw failure(error) }
    }
}
