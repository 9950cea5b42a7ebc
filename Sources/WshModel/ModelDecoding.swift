import FoundationEssentials
import WshText

/// Decodes API bodies into Model values, turning Foundation's errors into a
/// message that says what was expected and where.
public enum ModelDecoding {
    /// Decodes `T` from JSON bytes.
    ///
    /// The hot Model types (pages, statuses, users, comments, Mastodon
    /// statuses and accounts) are read from the bytes by the fast path
    /// (FastDecoding/), which skips what the Model does not keep; any body
    /// it does not fully handle, and every other type, goes to JSONDecoder.
    /// Either way the value, or the error, is JSONDecoder's.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelDecodingError) -> T {
        if let value = FastModelDecoding.decode(T.self, from: data) { return value }
        return try decodeWithFoundation(T.self, from: data)
    }

    /// `T` from JSON bytes when the fast path reads them whole and the
    /// body's own object has none of `declined` (an error body's fields);
    /// otherwise nil, and the caller checks the body and uses `decode`.
    public static func decodeQuickly<T: Decodable>(_ type: T.Type, from data: Data, declining declined: JSONKeys) -> T? {
        FastModelDecoding.decode(T.self, from: data, declining: declined)
    }

    /// Decodes `T` with JSONDecoder alone: the reference the fast path is tested against.
    static func decodeWithFoundation<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelDecodingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ModelDecodingError(type: String(describing: T.self), error)
        } catch {
            throw ModelDecodingError(what: String(describing: T.self), where: "", detail: "\(error)")
        }
    }

    /// A coding path as a JSON path: `.statuses[3].user`.
    static func path(_ codingPath: [CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
}

/// A body that is not the shape a Model expects: what, where, and why.
public struct ModelDecodingError: Error, Hashable, Sendable {
    /// The type being decoded, e.g. `TimelinePage`.
    public var what: String
    /// The JSON path, e.g. `.statuses[3].user`, empty for the top level.
    public var `where`: String
    /// What went wrong there.
    public var detail: String
}

// In an extension, so that Swift still writes the memberwise init.
extension ModelDecodingError {
    init(type: String, _ error: DecodingError) {
        switch error {
        case .dataCorrupted(let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription)
        case .keyNotFound(let key, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "missing '\(key.stringValue)'")
        case .typeMismatch(let expected, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "expected \(expected)")
        case .valueNotFound(let expected, let context):
            self.init(what: type, where: ModelDecoding.path(context.codingPath),
                      detail: "expected \(expected), found null")
        @unknown default:
            self.init(what: type, where: "", detail: "\(error)")
        }
    }
}

extension ModelDecodingError: CustomStringConvertible {
    public var description: String {
        "cannot decode \(what)\(`where`.isEmpty ? "" : " at \(`where`)"): \(detail)"
    }
}
