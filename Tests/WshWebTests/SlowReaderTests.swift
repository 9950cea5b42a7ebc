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

    /// Reads `url` until `stop()`; keeps the whole text when `keepText`.
    init(url: String, headers: [HTTPHeader] = [], keepText: Bool = false) {
        let shared = self.shared
        Task {
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

    /// Stops reading at the next chunk (the connection closes).
    func stop() { shared.state.withLock { $0.stopped = true } }
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
