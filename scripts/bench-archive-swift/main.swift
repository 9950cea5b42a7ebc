// Times `archive search` in-process for scripts/bench-archive: opens the
// archive as wsh does and runs each query RUNS times through
// `ArchiveStore.search`, printing the median and the worst in milliseconds per query.
// usage: wsh-bench-archive FILE QUERY… (RUNS=50)
import FoundationEssentials
import Glibc
import WshArchive

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    print("usage: wsh-bench-archive FILE QUERY…")
    exit(2)
}
let runs = Int(getenv("RUNS").map { String(cString: $0) } ?? "") ?? 50
let store: ArchiveStore
do {
    store = try ArchiveStore(path: arguments[0], create: false)
} catch {
    print("wsh-bench-archive: \(error)")
    exit(1)
}
let clock = ContinuousClock()
for query in arguments.dropFirst() {
    var times: [Double] = []
    var found = 0
    for _ in 0..<runs {
        let start = clock.now
        found = (try? store.search(query, limit: 20).count) ?? -1
        let elapsed = (clock.now - start).components
        times.append(Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15)
    }
    times.sort()
    print("\(query)\t\(found)\t\((times[times.count / 2] * 100).rounded() / 100)\t\((times[times.count - 1] * 100).rounded() / 100)")
}
