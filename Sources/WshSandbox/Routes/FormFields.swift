import WshText
import Hummingbird

/// Decodes `application/x-www-form-urlencoded` text: a query string or a POST body.
///
/// Written over UTF-8 bytes rather than with Foundation's percent decoding,
/// which showed up in profiles of the keep-alive benchmark.
enum FormFields {
    /// The largest request body read (a 140-character post is far smaller).
    static let maximumBodySize = 64 * 1024

    /// The query's fields, merged with the form body's when `readingBody`
    /// (the query wins); 10008 when either is not valid UTF-8 or the body is too large.
    static func fields(of request: Request, readingBody: Bool) async throws -> [String: String] {
        guard var fields = parse(request.uri.query.map { Substring($0) } ?? "") else {
            throw WeiboError.parameter("parameter encoding is not valid UTF-8")
        }
        guard readingBody else { return fields }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumBodySize)
        } catch {
            throw WeiboError.parameter("request body over \(maximumBodySize / 1024) KB")
        }
        guard let form = parse(Substring(String(buffer: body))) else {
            throw WeiboError.parameter("parameter encoding is not valid UTF-8")
        }
        fields.merge(form) { query, _ in query }
        return fields
    }

    /// The fields, first value winning; nil when an escape is broken or not valid UTF-8.
    static func parse(_ text: Substring) -> [String: String]? {
        guard let pairs = pairs(text) else { return nil }
        var fields: [String: String] = [:]
        for (name, value) in pairs where fields[name] == nil { fields[name] = value }
        return fields
    }

    /// Every name and value, in order, repeats kept (`id[]=1&id[]=2`); nil
    /// when an escape is broken or not valid UTF-8.
    static func pairs(_ text: Substring) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else {
                return nil
            }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func decode(_ encoded: some Collection<UInt8>) -> String? {
        PercentEncoding.decode(encoded, plusIsSpace: true)
    }
}
