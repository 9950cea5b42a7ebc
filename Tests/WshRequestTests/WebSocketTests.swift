import Foundation
import Synchronization
import Testing
import WshRequest
import WshSandbox
import WshTestSupport
import WshText

@Suite("SHA-1 and the WebSocket handshake's accept value")
struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("RFC 3174's test vectors, and RFC 6455's sample key")
    func vectors() {
        #expect(hex(SHA1.digest("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        let repeated = String(repeating: "0123456701234567012345670123456701234567012345670123456701234567", count: 10)
        #expect(hex(SHA1.digest(repeated.utf8)) == "dea356a2cddd90c7a7ecedc5ebb563934f460452")
        #expect(hex(SHA1.digest([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(Data(base64Encoded: WebSocketHandshake.randomKey())?.count == 16)
    }
}

@Suite("WebSocket frames, read as the bytes arrive")
struct WebSocketFrameTests {
    private typealias Server = ScriptedWebSocketServer

    @Test("a fragmented text message comes whole, a ping and a close between, from bytes split anywhere")
    func fragments() throws {
        let bytes = Server.text("{\"a\":", fin: false) + Server.frame(0x9, Array("hi".utf8)) + Server.frame(0x0, Array("1}".utf8))
            + Server.frame(0x8, [0x03, 0xE8] + Array("bye".utf8))
        for split in 0...bytes.count {
            var reader = WebSocketFrameReader(maxMessageBytes: 100)
            let events = try reader.feed(bytes[..<split]) + reader.feed(bytes[split...])
            #expect(events == [.ping(Array("hi".utf8)), .text("{\"a\":1}"), .close(code: 1000, reason: "bye")], "split at \(split)")
        }
    }

    @Test("what a server may not send is refused in one line: a masked frame, reserved bits, an unknown opcode, a long or fragmented control frame, a stray continuation, bad UTF-8, too much")
    func refusals() {
        let cases: [([UInt8], String)] = [
            ([0x81, 0x82, 1, 2, 3, 4, 0, 0], "masked"),
            ([0xC1, 0x00], "reserved bits"),
            ([0x83, 0x00], "unknown type 3"),
            (Server.frame(0x9, [UInt8](repeating: 0, count: 126)), "control frame of 126 bytes"),
            (Server.frame(0x9, [], fin: false), "fragmented a control frame"),
            (Server.frame(0x0, Array("x".utf8)), "no message to continue"),
            (Server.text("a", fin: false) + Server.text("b"), "new message inside"),
            (Server.frame(0x1, [0xFF, 0xFE]), "not UTF-8"),
            (Server.text(String(repeating: "x", count: 101)), "larger than the limit of 100 bytes"),
            (Server.text(String(repeating: "x", count: 60), fin: false) + Server.frame(0x0, [UInt8](repeating: 0x78, count: 60)),
             "larger than the limit"),
            ([0x81, 127, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "larger than the limit"),
        ]
        for (bytes, words) in cases {
            var reader = WebSocketFrameReader(maxMessageBytes: 100)
            #expect(throws: WebSocketProtocolError.self, "\(words)") { try reader.feed(bytes) }
            do {
                _ = try reader.feed([])
            } catch {
                #expect(error.description.contains(words) && !error.description.contains("\n"), "\(error.description)")
            }
            var fresh = WebSocketFrameReader(maxMessageBytes: 100)
            do {
                _ = try fresh.feed(bytes)
            } catch {
                #expect(error.description.contains(words), "\(error.description)")
            }
        }
    }

    @Test("a client's frames are masked, with the length in 1, 2 or 8 bytes")
    func writes() {
        for count in [0, 125, 126, 65_535, 65_536] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
            let frame = WebSocketFrameWriter.frame(.text, payload, mask: [1, 2, 3, 4])
            #expect(frame[0] == 0x81)
            #expect(frame[1] & 0x80 != 0, "masked")
            let header = count < 126 ? 2 : count <= 0xFFFF ? 4 : 10
            #expect(frame.count == header + 4 + count)
            let unmasked = frame[(header + 4)...].enumerated().map { $0.element ^ [1, 2, 3, 4][$0.offset & 3] }
            #expect(unmasked == payload)
        }
    }
}

@Suite("A WebSocket over a libcurl connection", .serialized)
struct WebSocketClientTests {
    private typealias Server = ScriptedWebSocketServer

    /// Opens `url` and gathers what the client hands over, until `stop` says enough.
    private func open(_ url: String, maxMessageBytes: Int = 1 << 20, send: [String] = [],
                      stop: @escaping @Sendable (WebSocketMessage) -> Bool = { _ in false })
        async -> (Result<HTTPResponse, RequestError>, [WebSocketMessage]) {
        let heard = Mutex<[WebSocketMessage]>([])
        let client = CurlHTTPClient()
        let result: Result<HTTPResponse, RequestError>
        do {
            result = .success(try await client.webSocket(HTTPRequest(url: url), maxMessageBytes: maxMessageBytes, send: send) { message in
                heard.withLock { $0.append(message) }
                return !stop(message)
            })
        } catch {
            result = .failure(error)
        }
        return (result, heard.withLock { $0 })
    }

    @Test("the handshake, a ping answered with a pong, a fragmented message, the client's own message, and a close answered")
    func conversation() async throws {
        let server = try Server(steps: [
            .receive,
            .send(Server.frame(0x9, Array("are you there".utf8))),
            .receive,
            .send(Server.text("{\"event\":", fin: false)),
            .send(Server.frame(0x0, Array("\"update\"}".utf8))),
            .send(Server.frame(0x8, [0x03, 0xE8])),
            .receive,
        ])
        defer { server.stop() }
        let (result, heard) = await open(server.url, send: [#"{"type":"subscribe","stream":"public"}"#], stop: { _ in false })
        #expect(try result.get().status == 101)
        #expect(heard == [.opened, .text(#"{"event":"update"}"#)])
        #expect(server.waitUntilServed())
        let frames = server.received
        #expect(frames == [
            .init(opcode: 0x1, masked: true, payload: Array(#"{"type":"subscribe","stream":"public"}"#.utf8)),
            .init(opcode: 0xA, masked: true, payload: Array("are you there".utf8)),
            .init(opcode: 0x8, masked: true, payload: [0x03, 0xE8]),
        ])
        let request = try #require(server.upgradeRequests.first)
        for field in ["GET /api/v1/streaming?stream=public HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "Upgrade: websocket",
                      "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: "] {
            #expect(request.contains(field), "\(request)")
        }
    }

    @Test("the reader stopping closes the socket with 1000")
    func readerStops() async throws {
        let server = try Server(steps: [.send(Server.text("one")), .send(Server.text("two")), .receive])
        defer { server.stop() }
        let (result, heard) = await open(server.url, stop: { $0 == .text("one") })
        #expect(try result.get().status == 101)
        #expect(heard == [.opened, .text("one")])
        #expect(server.waitUntilServed())
        #expect(server.received.first?.opcode == 0x8)
        #expect(server.received.first?.payload == [0x03, 0xE8])
    }

    @Test("a wrong Sec-WebSocket-Accept is refused in one line, before any message")
    func wrongAccept() async throws {
        let server = try Server(answer: .wrongAccept, steps: [.send(Server.text("never read"))])
        defer { server.stop() }
        let (result, heard) = await open(server.url)
        guard case .failure(let error) = result, case .transport(let failure) = error else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.kind == .webSocket)
        #expect(error.description.hasPrefix("WebSocket failure: the server's Sec-WebSocket-Accept does not match"), "\(error)")
        #expect(!error.description.contains("\n"))
        #expect(heard.isEmpty)
    }

    @Test("a message past the limit is one line, the socket closed with 1009, and nothing crashes")
    func oversize() async throws {
        let server = try Server(steps: [.send(Server.text(String(repeating: "x", count: 2000))), .receive])
        defer { server.stop() }
        let (result, heard) = await open(server.url, maxMessageBytes: 1000)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.description.contains("a message larger than the limit of 1000 bytes"), "\(error)")
        #expect(heard == [.opened])
        #expect(server.waitUntilServed())
        #expect(server.received.first?.payload.prefix(2) == [0x03, 0xF1])
    }

    @Test("hostile bytes in place of frames end in one line with no control sequence")
    func garbage() async throws {
        let server = try Server(steps: [.send(Array(HostileText.payload.utf8))])
        defer { server.stop() }
        let (result, _) = await open(server.url)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(!HostileText.leaks(error.description), "\(error)")
    }

    @Test("an answer other than 101 comes back as it is, its page the body, with no socket")
    func refused() async throws {
        let server = try Server(answer: .refuse(status: "404 Not Found", body: "<html>no</html>"), steps: [])
        defer { server.stop() }
        let (result, heard) = await open(server.url)
        let response = try result.get()
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self) == "<html>no</html>")
        #expect(heard.isEmpty)
    }

    @Test("cancelling the task stops a quiet socket")
    func cancels() async throws {
        let server = try Server(steps: [.waitForClose])
        defer { server.stop() }
        let (_, task) = await quietSocket(server)
        task.cancel()
        await #expect(throws: RequestError.cancelled) { try await task.value }
    }

    @Test("cancelCurrentRequest (Ctrl-C) stops a quiet socket too")
    func interrupts() async throws {
        let server = try Server(steps: [.waitForClose])
        defer { server.stop() }
        let (client, task) = await quietSocket(server)
        client.cancelCurrentRequest()
        await #expect(throws: RequestError.cancelled) { try await task.value }
    }

    /// A client's socket to `server`, open and waiting for a message, and the task it runs in.
    private func quietSocket(_ server: Server) async -> (CurlHTTPClient, Task<HTTPResponse, any Error>) {
        let (openedStream, opened) = AsyncStream<Void>.makeStream()
        let client = CurlHTTPClient()
        let task = Task {
            try await client.webSocket(HTTPRequest(url: server.url), maxMessageBytes: 1000, send: []) { message in
                if message == .opened { opened.yield() }
                return true
            }
        }
        for await _ in openedStream { break }
        return (client, task)
    }
}
