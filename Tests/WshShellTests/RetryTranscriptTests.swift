import Synchronization
import Testing
import WshSandbox
@testable import WshShell

@Suite("retry against a rate-limited API")
struct RetryTranscriptTests {
    @Test("a rate-limited call makes retry wait until the limit resets, not --every; $errcode is the API's 10023")
    func retryWaitsForTheReset() async throws {
        let harness = try await ShellHarness(rateLimit: 2)
        let waits = Mutex<[Duration]>([])
        harness.shell.interpreter.sleep = { wait in waits.withLock { $0.append(wait) } }
        let run = await harness.run("""
            fetch 1
            fetch 1
            try { retry --times 3 --every 0.5 { fetch 1 } } catch { echo "[$errcode] $attempt" }
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "[10023] 3\n")
        let recorded = waits.withLock { $0 }
        #expect(recorded.count == 2)
        // The sandbox's window is an hour: the wait is the time left to its reset, far more than half a second.
        #expect(recorded.allSatisfy { $0 > .seconds(1) && $0 <= .seconds(3600) }, "\(recorded)")
    }
}
