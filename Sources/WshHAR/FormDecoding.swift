import FoundationEssentials
import WshText

/// Reading `k=v&k2=v2` back: the inverse of `FormEncoding`, `+` as a space as forms send it.
public enum FormDecoding {
    /// The name–value pairs of a query string or form body, decoded.
    public static func pairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (decode(String(pair)), "") }
            return (decode(String(pair[..<equals])), decode(String(pair[pair.index(after: equals)...])))
        }
    }

    /// `text` percent-decoded; left as it is if it does not decode.
    public static func decode(_ text: String) -> String {
        PercentEncoding.formDecoded(text)
    }
}
