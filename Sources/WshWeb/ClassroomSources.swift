import FoundationEssentials
import WshText

/// wsh's own Swift sources, inside the binary, for the classroom's code
/// panel: each event names the place in the source that produced it
/// (`source` `{file, function, line}`), and the page shows that function.
///
/// The files are compressed by gzip at build time (`Plugins/EmbedFiles`) and
/// kept so: the server hands a file's bytes out as they are (`/source`), and
/// a saved lesson carries the files its events name; the page decompresses
/// them (`DecompressionStream`), so wsh links no compression library. Only
/// files under `Sources/` are here, nothing else of the machine.
public enum ClassroomSources {
    /// Path (`Sources/…`) to the file compressed by gzip, in base64.
    static let files: [String: Substring] = {
        var files: [String: Substring] = [:]
        for line in EmbeddedFiles.swiftSources.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            files[String(line[..<space])] = line[line.index(after: space)...]
        }
        return files
    }()

    /// The paths held, sorted.
    public static var paths: [String] { files.keys.sorted() }

    /// `path`'s file compressed by gzip, in base64; nil for a path wsh does not hold.
    public static func compressed(_ path: String) -> String? {
        files[path].map(String.init)
    }

    /// What the embedded sources weigh in the binary: their base64 text.
    public static var embeddedBytes: Int { EmbeddedFiles.swiftSources.utf8.count }

    /// The files `events` name in their `source`, with their compressed text:
    /// what a saved lesson carries (`{"Sources/…": "BASE64", …}`).
    static func referenced(by events: [ClassroomLog.Event]) -> [String: String] {
        var found: [String: String] = [:]
        for event in events where event.json.contains("\"source\"") {
            guard case .object(let object)? = JSONValue.parse(Data(event.json.utf8)),
                  case .object(let source)? = object["source"], case .string(let file)? = source["file"],
                  found[file] == nil, let text = compressed(file)
            else { continue }
            found[file] = text
        }
        return found
    }
}
