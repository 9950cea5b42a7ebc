import FoundationEssentials
import WshHAR
import WshText

/// What `--record` masks before an exchange reaches the HAR file: the values
/// of credential headers and credential parameters (in the query, a form
/// body or a JSON body), then every secret the session knows, wherever it
/// stands (`Redaction`, the one masking of wsh).
///
/// A masked value keeps its place, so an OAuth token response keeps its
/// shape (`{"access_token": "***", "token_type": "Bearer"}`) and a recorded
/// `***` parameter still matches on replay (`ReplayHTTPClient`).
enum HARRedaction {
    /// Header names whose values are credentials, lower-cased.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Parameter and JSON key names whose values are credentials.
    static let secretParameters: Set<String> = [
        "access_token", "refresh_token", "client_secret", "code", "code_verifier", "password", "token",
    ]

    /// `value` of the header `name`, masked if the header carries a credential.
    static func header(_ name: String, _ value: String, secrets: [String]) -> String {
        secretHeaders.contains(name.lowercased()) ? Redaction.mask : Redaction.redact(value, secrets: secrets)
    }

    /// `value` of the parameter `name`, masked if it is a credential.
    static func parameter(_ name: String, _ value: String, secrets: [String]) -> String {
        secretParameters.contains(name) ? Redaction.mask : Redaction.redact(value, secrets: secrets)
    }

    /// A query string or form body with credential values masked, every
    /// other byte as sent (so the recorded URL still reads as the one sent).
    static func form(_ text: String, secrets: [String]) -> String {
        let masked = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = FormDecoding.decode(String(pair[..<equals]))
            return secretParameters.contains(name) ? "\(pair[..<equals])=\(Redaction.mask)" : String(pair)
        }.joined(separator: "&")
        // A secret percent-encoded in a value is masked in its encoded form too.
        return Redaction.redact(masked, secrets: secrets + secrets.map(PercentEncoding.encoded))
    }

    /// A URL with its query's credential values masked.
    static func url(_ url: String, secrets: [String]) -> String {
        guard let question = url.firstIndex(of: "?") else { return Redaction.redact(url, secrets: secrets) }
        let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = String(url[url.index(after: question)..<fragmentStart])
        return Redaction.redact(String(url[...question]), secrets: secrets) + form(query, secrets: secrets)
            + Redaction.redact(String(url[fragmentStart...]), secrets: secrets)
    }

    /// A body's text: JSON with credential values masked (its shape kept),
    /// then every known secret masked as text.
    static func json(_ text: String, secrets: [String]) -> String {
        var result = text
        if let value = JSONValue.parse(Data(text.utf8)), case let (masked, changed) = maskJSON(value), changed {
            // Rewritten only when a credential was found, so other bodies keep their bytes.
            result = String(decoding: masked.encoded(), as: UTF8.self)
        }
        return Redaction.redact(result, secrets: secrets)
    }

    /// `value` with every string under a credential key masked, and whether anything was.
    private static func maskJSON(_ value: JSONValue) -> (JSONValue, Bool) {
        switch value {
        case .object(let object):
            var changed = false
            var copy = object
            for (key, member) in object {
                if secretParameters.contains(key), case .string = member {
                    copy[key] = .string(Redaction.mask)
                    changed = true
                } else {
                    let (masked, memberChanged) = maskJSON(member)
                    if memberChanged {
                        copy[key] = masked
                        changed = true
                    }
                }
            }
            return (.object(copy), changed)
        case .array(let array):
            var changed = false
            let masked = array.map { element -> JSONValue in
                let (masked, elementChanged) = maskJSON(element)
                changed = changed || elementChanged
                return masked
            }
            return (.array(masked), changed)
        default:
            return (value, false)
        }
    }
}

/// What the classroom's Request lane shows of one HTTP answer: masked as
/// `--record` masks (credential headers, credential keys of the body), then
/// every secret the session knows, and cut short.
public struct AnswerGlimpse: Sendable, Hashable {
    /// Name and value, by name; credential values are `***`.
    public var headers: [[String]]
    /// The body's first `lines` lines (at most `bytes` bytes of it); a line cut short ends in `…`.
    public var body: String

    public init(_ response: HTTPResponse, secrets: [String], lines: Int = 12, bytes: Int = 1200) {
        headers = response.headers.sorted { $0.key < $1.key }.map { [$0.key, HARRedaction.header($0.key, $0.value, secrets: secrets)] }
        let prefix = response.body.prefix(bytes)
        var text = String(decoding: prefix, as: UTF8.self)
        if prefix.count < response.body.count { text += "…" }
        let kept = text.split(separator: "\n", maxSplits: lines, omittingEmptySubsequences: false)
        text = kept.prefix(lines).joined(separator: "\n") + (kept.count > lines ? "\n…" : "")
        body = Self.maskCredentials(text, secrets: secrets)
    }

    /// `"access_token": "…"` and the other credential keys' string values masked
    /// in JSON text that may be cut short (so it is not parsed), and a form's; then every known secret.
    static func maskCredentials(_ text: String, secrets: [String]) -> String {
        var out = ""
        var rest = Substring(text)
        while let quote = rest.firstIndex(of: "\"") {
            out += rest[...quote]
            rest = rest[rest.index(after: quote)...]
            let close = closingQuote(rest)
            guard close < rest.endIndex else { break }
            let key = rest[..<close]
            out += rest[...close]
            rest = rest[rest.index(after: close)...]
            guard HARRedaction.secretParameters.contains(String(key)) else { continue }
            let afterColon = rest.drop { $0 == " " }
            guard afterColon.first == ":" else { continue }
            let value = afterColon.dropFirst().drop { $0 == " " }
            guard value.first == "\"" else { continue }
            // The value up to its closing quote (or the end of what was kept) goes.
            out += rest[..<value.startIndex] + "\"" + Redaction.mask
            rest = value[closingQuote(value.dropFirst())...]
        }
        out += rest
        let form = out.contains("=") && !out.contains("{") ? HARRedaction.form(out, secrets: secrets) : out
        return Redaction.redact(form, secrets: secrets)
    }

    /// Where the string that `text` starts inside ends: its unescaped `"`, or `text`'s end.
    private static func closingQuote(_ text: Substring) -> Substring.Index {
        var index = text.startIndex
        while index < text.endIndex, text[index] != "\"" {
            index = text.index(after: index)
            if text[text.index(before: index)] == "\\", index < text.endIndex { index = text.index(after: index) }
        }
        return index
    }
}
