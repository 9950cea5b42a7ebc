/// A key of a `--json` document, by its name.
struct DocumentKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Encoder {
    /// Writes `fields` as one JSON object under their names (each document's
    /// API names in one table), leaving out the keys whose value is nil.
    func encodeFields(_ fields: KeyValuePairs<String, (any Encodable)?>) throws {
        var container = container(keyedBy: DocumentKey.self)
        for case let (name, value?) in fields {
            try container.encode(value, forKey: DocumentKey(stringValue: name))
        }
    }
}
