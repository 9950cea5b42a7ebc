/// A key of a `--json` document, by its name.
struct DocumentKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// How a document writes a field whose value is nil.
enum AbsentField {
    /// The key is left out.
    case omitted
    /// The key is written with `null`: documents that name all their keys, so scripts can rely on them.
    case null
}

extension Encoder {
    /// Writes `fields` as one JSON object under their names (each document's
    /// API names in one table), a nil value as `absent` says.
    func encodeFields(_ fields: KeyValuePairs<String, (any Encodable)?>, absent: AbsentField = .omitted) throws {
        var container = container(keyedBy: DocumentKey.self)
        for (name, value) in fields {
            let key = DocumentKey(stringValue: name)
            if let value {
                try container.encode(value, forKey: key)
            } else if absent == .null {
                try container.encodeNil(forKey: key)
            }
        }
    }
}
