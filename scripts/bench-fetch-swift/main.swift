// Fetches N pages of M statuses through the Request and Model layers in one
// process (one CurlHTTPClient, so one kept-alive connection) and prints the
// wall time in seconds, the statuses decoded and the connections opened.
//
// usage: wsh-bench-fetch BASE_URL TOKEN PAGES COUNT
import Foundation
import WshModel
import WshRequest

let arguments = CommandLine.arguments
guard arguments.count == 5, let pages = Int(arguments[3]), let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: wsh-bench-fetch BASE_URL TOKEN PAGES COUNT\n".utf8))
    exit(2)
}
let client = APIClient(
    configuration: APIConfiguration(baseURL: arguments[1], token: .value(Secret(arguments[2]))),
    http: CurlHTTPClient(), errors: WeiboErrors())

let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var exitCode: Int32 = 0
// Detached: top-level code is main-actor isolated, and a plain Task would
// wait for the main thread, which is blocked in `done.wait()` below.
Task.detached {
    let start = ContinuousClock.now
    var decoded = 0
    var connections = 0
    do {
        for page in 1...pages {
            let endpoint = Endpoint(.get, "statuses/public_timeline.json",
                                    parameters: [("count", String(count)), ("page", String(page))])
            // As the DataController's exchange reads a page (DialectExchange.fetch):
            // the fast path first, the error check and the decoding for a body it declines.
            let (response, quick) = try await client.send(endpoint, readingQuickly: { data in
                ModelDecoding.decodeQuickly(TimelinePage.self, from: data, declining: client.errors.errorFieldKeys)
            })
            let timeline = try quick ?? ModelDecoding.decode(TimelinePage.self, from: response.body)
            decoded += timeline.statuses.count
            connections += response.metrics.newConnections
        }
        let (s, atto) = (ContinuousClock.now - start).components
        print(String(format: "%.4f %d %d", Double(s) + Double(atto) / 1e18, decoded, connections))
    } catch {
        FileHandle.standardError.write(Data("wsh-bench-fetch: \(error)\n".utf8))
        exitCode = 1
    }
    done.signal()
}
done.wait()
exit(exitCode)
