// The benchmark behind scripts/bench-history: time and memory of 100 000
// recorded operations over a 10 000-status timeline, through the real
// SessionViewModel, TimelineDataController and APIClient, with an
// in-process HTTP client serving generated pages (no sockets, so the numbers
// are the MVVM middle's own).

import Foundation
import WshDataController
import WshModel
import WshRequest
import WshViewModel

/// Serves generated timeline pages, comments and users from memory.
final class MemoryHTTPClient: HTTPClient {
    let pages: [Int: Data]
    let comments: Data
    let user: Data

    init(statuses: Int, pageSize: Int, commentsPerStatus: Int) {
        let authors = (0..<50).map { User(id: Int64(1000 + $0), idstr: String(1000 + $0), screenName: "user\($0)") }
        let start = Timestamp(weiboText: "Tue May 31 17:46:00 +0800 2011")!
        let all = (0..<statuses).map { n in
            Status(id: 4_000_000_000_000_000 - Int64(n), idstr: String(4_000_000_000_000_000 - Int64(n)),
                   createdAt: Timestamp(date: start.date.addingTimeInterval(Double(-60 * n))),
                   text: "status \(n) #wsh# with some text to make it realistic, 中文 and emoji 🎉",
                   source: "<a href=\"http://weibo.com/\" rel=\"nofollow\">Weibo Web</a>",
                   picURLs: n % 3 == 0 ? ["http://ww1.sinaimg.cn/thumbnail/\(n).jpg"] : [],
                   user: authors[n % authors.count], repostsCount: n % 7, commentsCount: n % 5, attitudesCount: n % 11)
        }
        let encoder = JSONEncoder()
        var pages: [Int: Data] = [:]
        for page in 1...(statuses / pageSize) {
            let slice = Array(all[(page - 1) * pageSize..<page * pageSize])
            pages[page] = try! encoder.encode(TimelinePage(statuses: slice, totalNumber: statuses))
        }
        self.pages = pages
        comments = try! encoder.encode(CommentsPage(comments: (0..<commentsPerStatus).map { Comment(idstr: String($0), text: "comment \($0)", user: authors[$0 % authors.count]) }))
        user = try! encoder.encode(authors[7])
    }

    func send(_ request: HTTPRequest) async throws(RequestError) -> HTTPResponse {
        let body: Data
        if request.url.contains("public_timeline") {
            let page = request.url.split(separator: "page=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 1
            body = pages[page] ?? Data(#"{"statuses":[]}"#.utf8)
        } else if request.url.contains("comments/show") {
            body = comments
        } else {
            body = user
        }
        return HTTPResponse(status: 200, body: body, metrics: TransferMetrics(bytesReceived: body.count))
    }
}

/// The peak resident set so far (VmHWM), in MiB.
func peakRSS() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
}

/// The resident set now (VmRSS), in MiB.
func currentRSS() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
}

struct Row {
    let phase: String
    let operations: Int
    let seconds: Double
    let rss: Double
}

func measure(_ phase: String, operations: Int, _ work: () async throws -> Void) async rethrows -> Row {
    let clock = ContinuousClock()
    let start = clock.now
    try await work()
    let elapsed = (clock.now - start).components
    return Row(phase: phase, operations: operations,
               seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, rss: currentRSS())
}

@main
enum BenchHistory {
    static func main() async throws {
        try await run()
    }

    /// Runs off the main actor, as the shell's bridge runs the ViewModels: the
    /// session and everything that touches it share one isolation domain.
    nonisolated static func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let statusCount = Int(environment["BENCH_STATUSES"] ?? "") ?? 10_000
        let operationCount = Int(environment["BENCH_OPERATIONS"] ?? "") ?? 100_000
        let pageSize = 200

        let commentsPerStatus = Int(environment["BENCH_COMMENTS"] ?? "") ?? 5
        let http = MemoryHTTPClient(statuses: statusCount, pageSize: pageSize, commentsPerStatus: commentsPerStatus)
        let client = APIClient(configuration: APIConfiguration(baseURL: "http://memory.test/2/"), http: http, errors: WeiboErrors())
        let session = SessionViewModel(dataController: TimelineDataController(client: client))
        var notifications = 0
        session.onChange = { _ in notifications += 1 }
        let baseline = currentRSS()
        var rows: [Row] = []

        rows.append(try await measure("load \(statusCount) statuses (fetch + more)", operations: statusCount / pageSize) {
            try await session.fetch(count: pageSize)
            for _ in 1..<(statusCount / pageSize) { try await session.more() }
        })
        precondition(session.rows.count == statusCount, "expected \(statusCount) rows, got \(session.rows.count)")

        // A classroom session, over and over: look at statuses, their comments and
        // authors, compute, and mute now and then.
        let loaded = session.operationCount
        // Each kind of operation is timed on its own, for the second table.
        var kinds: [(name: String, count: Int, seconds: Double)] = []
        func timed(_ name: String, _ work: () async throws -> Void) async rethrows {
            let start = ContinuousClock.now
            try await work()
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            if let i = kinds.firstIndex(where: { $0.name == name }) {
                kinds[i].count += 1
                kinds[i].seconds += seconds
            } else {
                kinds.append((name, 1, seconds))
            }
        }
        rows.append(try await measure("record \(operationCount) operations", operations: operationCount) {
            for n in 0..<operationCount {
                let index = (n * 37) % statusCount + 1
                switch n % 10 {
                case 0: try await timed("detail N") { try await session.detail(index: index) }
                case 1: try await timed("comments (sent, decoded)") { try await session.comments() }
                case 2, 3, 5: try await timed("back") { try session.back() }
                case 4: try await timed("user NAME (cached)") { try await session.user(name: "user\(n % 50)") }
                case 6: try await timed("calc N + 7 =") { try session.calc(keys: ["\(n % 100)", "+", "7", "="]) }
                case 7: try await timed("calc * 2 =") { try session.calc(keys: ["*", "2", "="]) }
                case 8:
                    if n % 100 == 8 {
                        try await timed("mute NAME (filters the timeline)") { try session.mute("user\(n % 50)") }
                    } else {
                        try await timed("detail N") { try await session.detail(index: index) }
                    }
                default:
                    if n % 100 == 9 {
                        try await timed("unmute NAME") { try session.unmute("user\((n - 1) % 50)") }
                    } else {
                        try await timed("back") { try session.back() }
                    }
                }
            }
        })
        let recorded = session.operationCount - loaded

        rows.append(try await measure("undo all \(session.operationCount)", operations: session.operationCount) {
            while session.canUndo { try await session.undo() }
        })
        rows.append(try await measure("redo all", operations: recorded + loaded) {
            while session.canRedo { try await session.redo() }
        })
        rows.append(await measure("clear", operations: 1) { session.clear() })

        func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
        func lpad(_ text: String, _ width: Int) -> String { text.count >= width ? text : String(repeating: " ", count: width - text.count) + text }

        print("bench-history: \(operationCount) operations over a \(statusCount)-status timeline (release build)")
        print("baseline RSS before loading: \(String(format: "%.1f", baseline)) MiB")
        print(pad("phase", 42) + lpad("ops", 9) + lpad("seconds", 10) + lpad("µs/op", 9) + lpad("RSS MiB", 10))
        for row in rows {
            let perOp = row.seconds / Double(max(row.operations, 1)) * 1e6
            print(pad(row.phase, 42) + lpad(String(row.operations), 9) + lpad(String(format: "%.3f", row.seconds), 10)
                  + lpad(String(format: "%.1f", perOp), 9) + lpad(String(format: "%.1f", row.rss), 10))
        }
        print("")
        print(pad("operation", 42) + lpad("count", 9) + lpad("seconds", 10) + lpad("µs/op", 9))
        for kind in kinds {
            print(pad(kind.name, 42) + lpad(String(kind.count), 9) + lpad(String(format: "%.3f", kind.seconds), 10)
                  + lpad(String(format: "%.1f", kind.seconds / Double(kind.count) * 1e6), 9))
        }
        print("peak RSS (VmHWM): \(String(format: "%.1f", peakRSS())) MiB; change notifications sent: \(notifications)")
    }
}
