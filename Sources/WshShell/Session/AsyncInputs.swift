import WshLanguage
import WshRequest
import WshText
import WshViewModel

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
        } catch let error as ViewModelError {
            throw failure(error)
        } catch {
            throw .commandFailed(redact("\(error)"))
        }
    }

    /// The language error for a request error: cancelled is an interrupt; an
    /// API error carries its code, another HTTP failure its status, for `$errcode`.
    func failure(_ error: RequestError) -> LanguageError {
        switch error {
        case .cancelled:
            return LanguageError(.interrupted, "interrupted")
        case .api(let failure):
            // Only a real authorization failure suggests logging in: a validation
            // error (422, text too long) or a missing status does not.
            let advice: String
            switch (error.kind, failure.tokenProblem) {
            case (.unauthorized?, .expired?): advice = " (the token has expired: run login)"
            case (.unauthorized?, _) where failure.code != nil || failure.message.lowercased().contains("token"):
                advice = " (the token is invalid or revoked: run login)"
            // A server that answers without a code of its own (Mastodon with its
            // public preview off) wants a login for what was asked.
            case (.unauthorized?, _): advice = " (this server wants a login for that: run login)"
            default: advice = ""
            }
            // A rate-limited call tells `retry` how long to wait: until the limit resets.
            let wait = failure.rateLimitReset.map { Duration.seconds(max(1, $0.seconds)) }
            return .commandFailed(redact(error.description) + advice, code: (failure.code ?? failure.httpStatus).description,
                                  retryAfter: wait, category: error.kind?.rawValue)
        case .http(let status, _, _):
            return .commandFailed(redact(error.description), code: String(status), category: error.kind?.rawValue)
        default:
            return .commandFailed(redact(error.description), category: error.kind?.rawValue)
        }
    }

    /// The language error for a ViewModel input that did nothing: a request
    /// failure keeps its code; values the input does not accept are usage errors.
    func failure(_ error: ViewModelError) -> LanguageError {
        if case .requestFailed(let request) = error { return failure(request) }
        // A write whose answer was lost failed on the way back: the network's doing.
        let category: String? = switch error {
        case .writeNotApplied, .writeOutcomeUnknown: ErrorKind.network.rawValue
        default: nil
        }
        return LanguageError(error.isUsageError ? .usage : .failed, redact(error.description), category: category)
    }

    /// `text` without any secret this session knows.
    func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: connection.secrets)
    }

    /// The API client, starting the sandbox on first use.
    func client() throws(LanguageError) -> APIClient {
        do { return try connection.client() } catch { throw failure(error) }
    }
}
