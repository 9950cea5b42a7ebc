import Foundation
import Testing
import WshRequest

@Suite("Server-sent events, read as the bytes arrive")
struct ServerSentEventTests {
    @Test("event and multi-line data dispatch on a blank line; comments are heartbeats; CRLF, CR and LF end lines")
    func parses() {
        var parser = ServerSentEventParser()
        let stream = ":)\nevent: update\ndata: {\"a\":\ndata: 1}\n\n:thump\r\nevent: delete\r\ndata: 42\r\n\r\ndata:no space\r\rid: 7\nevent: x\n\n"
        let events = parser.feed(Array(stream.utf8))
        #expect(events == [
            ServerSentEvent(event: "update", data: "{\"a\":\n1}"),
            ServerSentEvent(event: "delete", data: "42"),
            ServerSentEvent(event: "message", data: "no space"),
        ])
        #expect(parser.comments == 2)
    }

    @Test("a chunk may end anywhere, inside a line or a UTF-8 character, and the event comes whole once the blank line arrives")
    func chunked() {
        let bytes = Array("event: update\ndata: 你好 ✓\n\n".utf8)
        for split in 1..<bytes.count {
            var parser = ServerSentEventParser()
            let first = parser.feed(bytes[..<split])
            let rest = parser.feed(bytes[split...])
            #expect(first.isEmpty || split == bytes.count)
            #expect(first + rest == [ServerSentEvent(event: "update", data: "你好 ✓")], "split at \(split)")
        }
    }

    @Test("an event with no data is not dispatched, and its name does not leak into the next")
    func noData() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: update\n\ndata: x\n\n".utf8)) == [ServerSentEvent(event: "message", data: "x")])
    }
}
