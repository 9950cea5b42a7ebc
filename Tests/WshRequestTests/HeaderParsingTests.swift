import Testing
@testable import WshRequest

/// The response headers as wsh reads them (rate limits, `Link` pages, content
/// types): an ASCII block is read on its bytes, anything else by Character; both
/// must give the same names and values.
@Suite("Response headers")
struct HeaderParsingTests {
    static let blocks = [
        "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nX-RateLimit-Remaining:  299 \r\n"
            + "Link: <https://m.example/api/v1/timelines/home?max_id=1>; rel=\"next\"\r\n\r\n",
        "HTTP/2 429\r\nretry-after:\t30\t\r\nX-RateLimit-Reset: 2026-11-28T20:00:00.000Z\r\n\r\n",
        // Folded oddly, a line without a colon, a header twice (the last wins), LF alone, VT and FF as line ends.
        "HTTP/1.1 200 OK\nno colon here\nX-A: 1\nx-a: 2\n:empty name\nX-B:\nX-C: c\u{0B}X-D: d\u{0C}X-E:e:f\n",
        "",
    ]

    @Test("names lowercased, values trimmed of spaces and tabs, one line per header")
    func parsed() {
        let headers = CurlHTTPClient.parseHeaders(Self.blocks[0])
        #expect(headers["content-type"] == "application/json; charset=utf-8")
        #expect(headers["x-ratelimit-remaining"] == "299")
        #expect(headers["link"] == "<https://m.example/api/v1/timelines/home?max_id=1>; rel=\"next\"")
        #expect(headers.count == 3)
        let odd = CurlHTTPClient.parseHeaders(Self.blocks[2])
        #expect(odd == ["x-a": "2", "": "empty name", "x-b": "", "x-c": "c", "x-d": "d", "x-e": "e:f"])
        #expect(CurlHTTPClient.parseHeaders(Self.blocks[1])["retry-after"] == "30")
        #expect(CurlHTTPClient.parseHeaders("").isEmpty)
    }

    @Test("an ASCII block reads as the same block read by Character does")
    func asciiAsGeneral() {
        for block in Self.blocks {
            // One non-ASCII header sends the whole block the general way.
            let general = CurlHTTPClient.parseHeaders(block + "\r\nX-Non-ASCII: café\r\n")
            #expect(general["x-non-ascii"] == "café")
            var fast = CurlHTTPClient.parseHeaders(block)
            fast["x-non-ascii"] = "café"
            #expect(fast == general, "\(block)")
        }
    }
}
