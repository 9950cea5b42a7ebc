import FoundationEssentials
import WshText

/// How one API's error bodies read: which top-level fields make a body an
/// error body, and what the failure it states means (`ErrorKind`).
///
/// Each dialect gives the client its own (`WeiboErrors`, `MastodonErrors`,
/// each in its API's folder), so every error body is read once, by the rules
/// of the API that wrote it.
public protocol APIErrors: Sendable {
    /// The top-level fields that make a body this API's error body, whatever its status.
    var errorFields: [StaticString] { get }
    /// `errorFields` as the keys a quick reader of a 2xx body must decline
    /// (`APIClient.send(_:readingQuickly:)`).
    var errorFieldKeys: JSONKeys { get }
    /// The failure `response`'s body states, classified, with `secrets`
    /// masked in what it quotes; nil when the body is not this API's error body.
    func failure(in response: HTTPResponse, secrets: [String]) -> APIFailure?
}

extension APIErrors {
    /// The failure `response`'s body states, quoting no secret this client knows of.
    public func failure(in response: HTTPResponse) -> APIFailure? {
        failure(in: response, secrets: [])
    }

    /// Whether `response` may be an error body by `errorFields`: an object
    /// with one of them at its top, found without decoding it.
    public func mayBeErrorBody(_ response: HTTPResponse) -> Bool {
        response.body.first == UInt8(ascii: "{") && APIClient.mayHoldErrorFields(response.body, errorFields)
    }

    /// Server text as an error may quote it: secrets masked, one printable line.
    public static func quoted(_ text: String, secrets: [String]) -> String {
        TerminalText.sanitize(Redaction.redact(text, secrets: secrets))
    }
}
