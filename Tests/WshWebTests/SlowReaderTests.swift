import Foundation
import Synchronization
import Testing
import WshRequest
import WshTestSupport
@testable import WshWeb

/// Issue 45: pages that ask for the event stream and then never read must
/// not grow the teacher's memory, nor take every seat, nor cost the pages
/// that do read a single event. Memory is this test process's resident set
/// (the server runs in it); waits are on conditions, with deadlines.
@Suite("the classroom's event stream and readers that never read", .serialized)
struct SlowReaderTests {
    /// Appends `rounds` rounds of `perRound` events of about 600 bytes (like a
    /// round of a busy session's layer events), each round once `page` has
    /// read the one before, as a teacher's commands come one after another.
    /// Returns how long the appends themselves took.
    static func appendRounds(_ log: ClassroomLog, rounds: Int, perRound: Int, page: ReadingPage) async -> Duration {
        let detail = String(repeating: "GET http://127.0.0.1:8080/2/statuses/public_timeline.json ", count: 9)
        var appending = Duration.zero
        for round in 0..<rounds {
            let started = ContinuousClock.now
            for n in 1...perRound {
                log.append("{\"type\":\"layer\",\"line\":\(round),\"layer\":\"Request\",\"n\":\(n),\"detail\":\"\(detail)\"}")
            }
            appending += ContinuousClock.now - started
            let last = (round + 1) * perRound
            guard await waitUntil(timeout: .seconds(60), { page.newest >= last }) else { break }
        }
        return appending
    }

    @Test("200 connections that never read while 12 000 events are appended: memory stays bounded, the streams beyond this machine's 8 are refused with 429, a reading page gets every event")
    func neverReaders() async throws {
        let log = ClassroomLog()
        let server = try ClassroomServer.start(.init(port: 0), log: log, control: { _ in })
        defer { server.stop() }
        let (rounds, perRound) = (20, 600)

        // A page that reads, opened first: it must get every event whatever the others do.
        let page = ReadingPage(url: server.teacherURL + "events")
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 1 })

        let readers = try (0..<200).map { _ in try RawConnection(port: server.port) }
        for reader in readers {
            try reader.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        }
        // Of each answer only the status line is read (and one refusal whole): never the stream.
        var answered: [String: Int] = [:]
        var refusal = ""
        for reader in readers {
            let status = String(try await onOwnThread { try reader.read(count: 12) }.dropFirst(9))
            answered[status, default: 0] += 1
            if status != "200", refusal.isEmpty { refusal = try await onOwnThread { try reader.readResponse() } }
        }

        let before = residentBytes()
        let appending = await Self.appendRounds(log, rounds: rounds, perRound: perRound, page: page)
        let grown = residentBytes() - before
        page.stop()
        let got = page.ids
        print("slow readers: answered \(answered.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")); "
              + "\(rounds * perRound) events appended in \(appending); resident memory grew \(grown >> 20) MB")

        // The reading page got each event once, in order.
        let missed = Set(1...(rounds * perRound)).subtracting(got).sorted()
        #expect(got == Array(1...(rounds * perRound)),
                "the reading page got \(got.count) events; missed \(missed.count), from \(missed.first ?? 0) to \(missed.last ?? 0)")
        // 200 never-readers × 7 MB of events is 1.4 GB if each keeps its own copy; bounded, it is a few MB.
        #expect(grown < 64 << 20, "resident memory grew \(grown >> 20) MB")
        // This machine holds 8 streams at most (the reading page took one); the rest are refused, saying why.
        #expect(answered["200"] == 7 && answered["429"] == 193, "\(answered)")
        #expect(refusal.contains("429 Too Many Requests") && refusal.contains("8 event streams"), "\(refusal)")
        // The never-readers fell behind and were dropped; the reading page, gone, was let go: nobody listens.
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 0 }, "\(log.listenerCount) still listen")
    }

    @Test("200 streams admitted that never read hold a few MB between them while 12 000 events are appended, are let go once 4 MB behind, and are closed")
    func manyAdmittedNeverReaders() async throws {
        let log = ClassroomLog()
        let limits = ClassroomServer.Limits(streamsPerAddress: 256, dropGrace: .seconds(1))
        let server = try ClassroomServer.start(.init(port: 0, limits: limits), log: log, control: { _ in })
        defer { server.stop() }
        let readers = try (0..<200).map { _ in try RawConnection(port: server.port) }
        for reader in readers { try reader.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 200 }, "\(log.listenerCount) listen")

        let before = residentBytes()
        var peak = 0
        let detail = String(repeating: "GET http://127.0.0.1:8080/2/statuses/public_timeline.json ", count: 9)
        for round in 0..<20 {
            for n in 1...600 { log.append("{\"type\":\"layer\",\"line\":\(round),\"n\":\(n),\"detail\":\"\(detail)\"}") }
            // Each round's writes are under way before the next: the memory they hold is measured, not skipped.
            await Task.yield()
            peak = max(peak, residentBytes() - before)
        }
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 0 }, "\(log.listenerCount) still listen")
        peak = max(peak, residentBytes() - before)
        print("slow readers: 200 admitted never-readers, 12000 events; resident memory grew at most \(peak >> 20) MB")
        #expect(peak < 64 << 20, "resident memory grew \(peak >> 20) MB")

        // Each was sent the head and what its buffers took, then closed (a second after it was let go).
        for reader in readers {
            let text = try await onOwnThread { try reader.readToEnd() }
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(40))")
        }
    }

    @Test("a page that falls behind is let go with a last word; reconnecting with Last-Event-ID it is sent every event it missed")
    func fallsBehindAndCatchesUp() async throws {
        let log = ClassroomLog()
        let limits = ClassroomServer.Limits(behindBytes: 256 << 10, dropGrace: .seconds(300))
        let server = try ClassroomServer.start(.init(port: 0, limits: limits), log: log, control: { _ in })
        defer { server.stop() }
        // A page that stops reading, with a small window so that little sits in the kernel.
        let slow = try RawConnection(port: server.port, receiveBuffer: 4096)
        try slow.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 1 })
        let detail = String(repeating: "x", count: 500)
        var appended = 0
        while log.listenerCount == 1 && appended < 20_000 {
            for _ in 0..<100 { log.append("{\"type\":\"output\",\"line\":1,\"text\":\"\(detail)\"}") }
            appended += 100
            await Task.yield()
        }
        #expect(log.listenerCount == 0, "not let go after \(appended) events")

        // It reads again: what it was sent, complete events in order, then the last word and the end of the response.
        let response = try await onOwnThread { try slow.read(until: "\r\n0\r\n\r\n") }
        let body = dechunked(response)
        let blocks = body.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        let ids = blocks.compactMap { block in block.hasPrefix("id: ") ? Int(block.dropFirst(4).prefix { $0.isNumber }) : nil }
        #expect(blocks.last == "event: behind\ndata: fell behind: reconnect with Last-Event-ID", "\(blocks.last ?? "")")
        let last = try #require(ids.last)
        #expect(ids == Array(1...last) && last < appended, "sent \(ids.count) events up to \(last) of \(appended)")

        // Reconnecting as a browser does, it is sent exactly what it missed.
        let again = ReadingPage(url: server.teacherURL + "events", headers: [HTTPHeader("Last-Event-ID", String(last))])
        #expect(await waitUntil(timeout: .seconds(30)) { again.newest == appended })
        again.stop()
        #expect(again.ids == Array((last + 1)...appended))
    }

    @Test("this machine holds 8 streams: a 9th is refused with 429 naming the limit; a page that closes gives its seat back at once")
    func thisMachinesSeats() async throws {
        let log = ClassroomLog()
        let server = try ClassroomServer.start(.init(port: 0), log: log, control: { _ in })
        defer { server.stop() }
        let pages = (0..<8).map { _ in ReadingPage(url: server.teacherURL + "events") }
        #expect(await waitUntil(timeout: .seconds(30)) { log.listenerCount == 8 })
        let ninth = try RawConnection(port: server.port)
        try ninth.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let refusal = try await onOwnThread { try ninth.readResponse() }
        #expect(refusal.hasPrefix("HTTP/1.1 429"), "\(refusal)")
        #expect(refusal.hasSuffix("\r\n\r\n429 Too Many Requests: 8 event streams from this machine already, the most one address may hold: "
                                  + "close a page, or wait for a closed one to be let go\n"), "\(refusal)")

        pages[0].stop()
        #expect(await waitUntil(timeout: .seconds(10)) { log.listenerCount == 7 })
        let another = ReadingPage(url: server.teacherURL + "events")
        #expect(await waitUntil(timeout: .seconds(10)) { log.listenerCount == 8 })
        log.append("{\"type\":\"line\",\"line\":1}")
        #expect(await waitUntil(timeout: .seconds(10)) { another.newest == 1 })
        for page in pages + [another] { page.stop() }
    }
}

@Suite("the classroom's seats")
struct ClassroomSeatsTests {
    @Test("8 streams an address, 128 from other machines in all; this machine's seats are its own; a seat given back is taken again")
    func seats() throws {
        let seats = ClassroomSeats(perAddress: 8, fromOthers: 128)
        var held: [ClassroomSeats.Seat] = []
        for student in 1...16 {
            for _ in 1...8 { held.append(try seats.take(from: "10.0.0.\(student)", thisMachine: false).get()) }
        }
        #expect(seats.taken == 128)
        // The room is full for a 17th student, not for one that is at its limit (that one hears why), nor for this machine.
        #expect(throws: ClassroomSeats.Refusal.full) { try seats.take(from: "10.0.0.17", thisMachine: false).get() }
        #expect(throws: ClassroomSeats.Refusal.address("10.0.0.1")) { try seats.take(from: "10.0.0.1", thisMachine: false).get() }
        for _ in 1...8 { held.append(try seats.take(from: "127.0.0.1", thisMachine: true).get()) }
        #expect(throws: ClassroomSeats.Refusal.address(ClassroomSeats.thisMachine)) {
            try seats.take(from: "::1", thisMachine: true).get()
        }
        #expect(seats.explain(.full) == "503 Service Unavailable: the classroom is full: 128 event streams from other machines already, "
                + "the most it serves; try again later")
        #expect(seats.explain(.address("10.0.0.1")).hasPrefix("429 Too Many Requests: 8 event streams from 10.0.0.1 already"))
        // Given back (released, or dropped), a seat is taken again; released twice, it is given back once.
        held[0].release()
        held[0].release()
        held.removeFirst()
        held.append(try seats.take(from: "10.0.0.17", thisMachine: false).get())
        #expect(throws: ClassroomSeats.Refusal.full) { try seats.take(from: "10.0.0.18", thisMachine: false).get() }
        held.removeAll()
        #expect(seats.taken == 0)
    }
}

@Suite("the classroom log's readers")
struct ClassroomLogReaderTests {
    @Test("a reader is handed what it missed in batches of the bytes it asks for, then live, then each new event as it comes")
    func batches() async {
        let log = ClassroomLog()
        for n in 1...10 { log.append("{\"n\":\(n),\"pad\":\"\(String(repeating: "x", count: 80))\"}") }
        let reader = log.listen(after: 2)
        var ids: [Int] = []
        while case .events(let events) = await reader.next(upTo: 300) {
            #expect(events.count <= 3 && !events.isEmpty)
            ids += events.map(\.id)
        }
        #expect(ids == Array(3...10))
        // Waiting now; an append wakes it.
        let next = Task { await reader.next(upTo: 300) }
        #expect(await waitUntil { log.listenerCount == 1 })
        log.append("{\"n\":11}")
        #expect(await next.value == .events([ClassroomLog.Event(id: 11, json: "{\"id\":11,\"n\":11}")]))
        log.heartbeat()
        #expect(await reader.next(upTo: 300) == .heartbeat)
        log.close()
        #expect(await reader.next(upTo: 300) == .closed)
        #expect(log.listenerCount == 0)
    }

    @Test("a reader with more than its limit waiting is let go (told once, onBehind called once); one large event alone lets no one go")
    func behind() async {
        let log = ClassroomLog()
        let dropped = Mutex(0)
        let slow = log.listen(after: nil, behindLimit: 1000) { dropped.withLock { $0 += 1 } }
        let reading = log.listen(after: nil, behindLimit: 1000)
        #expect(await slow.next(upTo: 1 << 20) == .live)
        #expect(await reading.next(upTo: 1 << 20) == .live)
        // An event twice the limit: nothing was waiting before it, so both stay.
        let large = log.append("{\"text\":\"\(String(repeating: "x", count: 2000))\"}")
        #expect(dropped.withLock { $0 } == 0 && log.listenerCount == 2)
        #expect(await reading.next(upTo: 1 << 20).isEvents([large]))
        // The next one finds 2 KB waiting for the reader that did not take it.
        let small = log.append("{}")
        #expect(dropped.withLock { $0 } == 1)
        #expect(await slow.next(upTo: 1 << 20) == .behind)
        #expect(await slow.next(upTo: 1 << 20) == .closed)
        #expect(await reading.next(upTo: 1 << 20).isEvents([small]))
        log.append("{}")
        #expect(dropped.withLock { $0 } == 1 && log.listenerCount == 1)
    }

    @Test("a reader whose next event falls out of the window is let go: it reconnects and is told where the window starts")
    func outOfWindow() async {
        let log = ClassroomLog(limit: 5)
        let reader = log.listen(after: nil)
        #expect(await reader.next(upTo: 1 << 20) == .live)
        for n in 1...3 { log.append("{\"n\":\(n)}") }
        #expect(await reader.next(upTo: 10).isEvents([1]))
        for n in 4...8 { log.append("{\"n\":\(n)}") }
        #expect(await reader.next(upTo: 1 << 20) == .behind)
    }
}

extension ClassroomLog.Delivery {
    func isEvents(_ ids: [Int]) -> Bool {
        if case .events(let events) = self { return events.map(\.id) == ids }
        return false
    }
}

/// The body of a chunked HTTP response (its head skipped), the chunks joined.
func dechunked(_ response: String) -> String {
    let crlf: [UInt8] = [13, 10]
    func lineEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        bytes.indices.first { bytes[$0...].starts(with: crlf) }
    }
    var bytes = Array(response.utf8)[...]
    guard let head = bytes.indices.first(where: { bytes[$0...].starts(with: crlf + crlf) }) else { return "" }
    bytes = bytes[(head + 4)...]
    var body: [UInt8] = []
    while let end = lineEnd(bytes), let size = Int(String(decoding: bytes[..<end], as: UTF8.self), radix: 16), size > 0 {
        body += bytes[(end + 2)..<(end + 2 + size)]
        bytes = bytes[(end + 2 + size + 2)...]
    }
    return String(decoding: body, as: UTF8.self)
}

/// A page that reads the event stream as it comes: the ids it got, in order.
final class ReadingPage: Sendable {
    private struct State {
        var ids: [Int] = []
        var partial = ""
        var text = ""
        var stopped = false
    }

    /// The state the reading task and the test share.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let task: Task<Void, Never>

    /// Reads `url` until `stop()`; keeps the whole text when `keepText`.
    init(url: String, headers: [HTTPHeader] = [], keepText: Bool = false) {
        let shared = self.shared
        task = Task {
            _ = try? await CurlHTTPClient().stream(HTTPRequest(url: url, headers: headers)) { chunk in
                shared.state.withLock { state in
                    let piece = String(decoding: chunk, as: UTF8.self)
                    if keepText { state.text += piece }
                    var lines = (state.partial + piece).split(separator: "\n", omittingEmptySubsequences: false)
                    state.partial = String(lines.removeLast())
                    for line in lines where line.hasPrefix("id: ") {
                        if let id = Int(line.dropFirst(4)) { state.ids.append(id) }
                    }
                    return !state.stopped
                }
            }
        }
    }

    /// The ids read so far, in order.
    var ids: [Int] { shared.state.withLock { $0.ids } }
    /// The newest id read so far (0 before any).
    var newest: Int { shared.state.withLock { $0.ids.last ?? 0 } }
    /// The text read so far (with `keepText`).
    var text: String { shared.state.withLock { $0.text } }

    /// Stops reading (the connection closes).
    func stop() {
        shared.state.withLock { $0.stopped = true }
        task.cancel()
    }
}

/// A TCP connection to the server that writes what it is told and reads
/// only when asked: a page that asks for the stream and then never reads.
final class RawConnection: Sendable {
    let socket: Int32

    init(port: Int, receiveBuffer: Int? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        // A read that finds nothing gives up instead of hanging the test.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Exactly `count` bytes (fewer only at the end of the stream).
    func read(count: Int) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            let got = recv(socket, &buffer, count - bytes.count, 0)
            if got == 0 { break }
            guard got > 0 else { throw POSIXError(.ETIMEDOUT) }
            bytes += buffer[..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The rest of a short response: its head and a body of Content-Length bytes.
    func readResponse() throws -> String {
        var text = ""
        while !text.contains("\r\n\r\n") {
            let byte = try read(count: 1)
            if byte.isEmpty { return text }
            text += byte
        }
        let length = text.firstMatch(of: /(?i)content-length: (\d+)/).flatMap { Int($0.1) } ?? 0
        return text + (try read(count: length))
    }

    /// Everything up to `marker`, which ends what the server sends (for now).
    func read(until marker: String) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let tail = Array(marker.utf8)
        while !bytes.suffix(tail.count).elementsEqual(tail) {
            let got = recv(socket, &buffer, buffer.count, 0)
            if got == 0 { break }
            guard got > 0 else { throw POSIXError(.ETIMEDOUT) }
            bytes += buffer[..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything until the server closes the connection.
    func readToEnd() throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let got = recv(socket, &buffer, buffer.count, 0)
            if got == 0 { return String(decoding: bytes, as: UTF8.self) }
            guard got > 0 else { throw POSIXError(.ETIMEDOUT) }
            bytes += buffer[..<got]
        }
    }
}

/// This process's resident memory (VmRSS), in bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return kilobytes << 10
}
