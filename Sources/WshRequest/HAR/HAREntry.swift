import FoundationEssentials
import WshHAR
import WshText

/// Building one HAR 1.2 entry from an exchange.
enum HAREntry {
    /// The entry of one exchange, every field masked (`HARRedaction`): the
    /// request with its query and post data, the response with its content
    /// (base64 when not UTF-8), and how long it took.
    static func make(request: HTTPRequest, response: HTTPResponse, started: Date, milliseconds: Double,
                     secrets: [String]) -> JSONValue {
        entry(request: request, response: responseObject(response, secrets: secrets), started: started,
              milliseconds: milliseconds, secrets: secrets)
    }

    /// The entry of a request that got no response: HAR's form for it, as
    /// browsers write one (status 0, `_error`), with wsh's `_transport`
    /// (curl's code and message, masked) so a replay fails the same way.
    static func make(request: HTTPRequest, failure: TransportFailure, started: Date, milliseconds: Double,
                     secrets: [String]) -> JSONValue {
        let message = Redaction.redact(failure.message, secrets: secrets)
        let response: JSONValue = [
            "status": 0,
            "statusText": "",
            "httpVersion": "",
            "cookies": [],
            "headers": [],
            "content": ["size": 0, "mimeType": "x-unknown"],
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": -1,
            "_error": "\(failure.kind.rawValue): \(message)",
            "_transport": ["curlCode": JSONValue(failure.curlCode), "message": JSONValue(message)],
        ]
        return entry(request: request, response: response, started: started, milliseconds: milliseconds, secrets: secrets)
    }

    private static func entry(request: HTTPRequest, response responseObject: JSONValue, started: Date,
                              milliseconds: Double, secrets: [String]) -> JSONValue {
        let requestHeaders = request.headers.map { header(name: $0.name, value: $0.value, secrets: secrets) }
        let query = request.url.firstIndex(of: "?").map { String(request.url[request.url.index(after: $0)...]) } ?? ""
        let queryString = FormDecoding.pairs(query.split(separator: "#").first.map(String.init) ?? "").map {
            ["name": JSONValue($0.0), "value": JSONValue(HARRedaction.parameter($0.0, $0.1, secrets: secrets))] as JSONValue
        }
        var requestObject: JSONValue = [
            "method": JSONValue(request.method.rawValue),
            "url": JSONValue(HARRedaction.url(request.url, secrets: secrets)),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": JSONValue(requestHeaders),
            "queryString": JSONValue(queryString),
            "headersSize": -1,
            "bodySize": JSONValue(request.body?.count ?? 0),
        ]
        if let body = request.body {
            let mimeType = request.headers.last { $0.name.lowercased() == "content-type" }?.value
                ?? "application/x-www-form-urlencoded"
            requestObject["postData"] = postData(body, mimeType: mimeType, secrets: secrets)
        } else if let parts = request.multipart {
            // An upload: its fields as HAR `params` (a file by its name and type; its bytes are not kept).
            let params = parts.map { part -> JSONValue in
                switch part.content {
                case .text(let text): ["name": JSONValue(part.name), "value": JSONValue(HARRedaction.parameter(part.name, text, secrets: secrets))]
                case .file(_, let filename, let contentType): ["name": JSONValue(part.name), "fileName": JSONValue(filename), "contentType": JSONValue(contentType)]
                }
            }
            requestObject["postData"] = ["mimeType": "multipart/form-data", "params": JSONValue(params)]
        }
        let time = (milliseconds * 1000).rounded() / 1000
        return [
            "startedDateTime": JSONValue(timestamp(started)),
            "time": JSONValue(time),
            "request": requestObject,
            "response": responseObject,
            "cache": [:],
            // libcurl's phases are not all measured: the whole transfer counts as waiting.
            "timings": ["send": 0, "wait": JSONValue(time), "receive": 0],
        ]
    }

    private static func responseObject(_ response: HTTPResponse, secrets: [String]) -> JSONValue {
        let mimeType = response.headers["content-type"] ?? ""
        var content: JSONValue = ["size": JSONValue(response.body.count), "mimeType": JSONValue(mimeType)]
        if let text = String(validating: response.body, as: UTF8.self) {
            content["text"] = JSONValue(HARRedaction.json(text, secrets: secrets))
        } else {
            // Not text: kept as sent (no secret can be found in it to mask).
            content["text"] = JSONValue(response.body.base64EncodedString())
            content["encoding"] = "base64"
        }
        let responseHeaders = response.headers.keys.sorted().map {
            header(name: $0, value: response.headers[$0] ?? "", secrets: secrets)
        }
        return [
            "status": JSONValue(response.status),
            "statusText": JSONValue(statusText(response.status)),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": JSONValue(responseHeaders),
            "content": content,
            "redirectURL": JSONValue(HARRedaction.url(response.headers["location"] ?? "", secrets: secrets)),
            "headersSize": -1,
            "bodySize": JSONValue(response.body.count),
        ]
    }

    private static func header(name: String, value: String, secrets: [String]) -> JSONValue {
        ["name": JSONValue(name), "value": JSONValue(HARRedaction.header(name, value, secrets: secrets))]
    }

    private static func postData(_ body: Data, mimeType: String, secrets: [String]) -> JSONValue {
        guard let text = String(validating: body, as: UTF8.self) else {
            return ["mimeType": JSONValue(mimeType), "text": JSONValue(body.base64EncodedString()), "encoding": "base64"]
        }
        if mimeType.hasPrefix("application/x-www-form-urlencoded") {
            let params = FormDecoding.pairs(text).map {
                ["name": JSONValue($0.0), "value": JSONValue(HARRedaction.parameter($0.0, $0.1, secrets: secrets))] as JSONValue
            }
            return ["mimeType": JSONValue(mimeType), "text": JSONValue(HARRedaction.form(text, secrets: secrets)), "params": JSONValue(params)]
        }
        return ["mimeType": JSONValue(mimeType), "text": JSONValue(HARRedaction.json(text, secrets: secrets))]
    }

    /// ISO 8601 with milliseconds, as browsers write it.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The reason phrase of `status`, as HAR's `statusText` holds it.
    static func statusText(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        default: HTTPStatusText.reason(status)
        }
    }
}
