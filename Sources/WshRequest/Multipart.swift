import FoundationEssentials

/// One part of a `multipart/form-data` body (a media upload): a field's
/// text, or a file streamed from disk as the request goes out.
public struct MultipartPart: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case text(String)
        /// The file at `path`, sent as `filename` with `contentType`.
        case file(path: String, filename: String, contentType: String)
    }

    public var name: String
    public var content: Content

    public init(_ name: String, _ content: Content) {
        self.name = name
        self.content = content
    }

    /// The form as bytes with `boundary`, for clients that send a body from
    /// memory (fakes, replays); libcurl streams the file itself instead.
    public static func encoded(_ parts: [MultipartPart], boundary: String) -> Data {
        var body = Data()
        for part in parts {
            body.append(Data("--\(boundary)\r\n".utf8))
            switch part.content {
            case .text(let text):
                body.append(Data("Content-Disposition: form-data; name=\"\(part.name)\"\r\n\r\n\(text)\r\n".utf8))
            case .file(let path, let filename, let contentType):
                body.append(Data("Content-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8))
                body.append((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
                body.append(Data("\r\n".utf8))
            }
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }
}
