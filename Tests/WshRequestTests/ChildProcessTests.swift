import Testing
import WshRequest

/// `ChildProcess`, which stands where Foundation's `Process` stood: exit
/// statuses, signals, both streams at once, a program that cannot start.
@Suite("Child processes")
struct ChildProcessTests {
    @Test("output and errors captured together, even when both are large; the exit status kept")
    func capturesBothStreams() throws {
        // 200 KB on each stream: more than a pipe holds, so reading one while the other fills would hang.
        let ending = try ChildProcess.run("/bin/sh", ["-c", "head -c 200000 /dev/zero; head -c 200000 /dev/zero >&2; exit 3"],
                                          captureOutput: true, captureErrors: true)
        #expect(ending.output.count == 200_000 && ending.errors.count == 200_000)
        #expect(ending.exitStatus == 3 && ending.signal == nil && ending.status == 3)
    }

    @Test("a signal is told apart from an exit status; stdin is /dev/null")
    func signalsAndInput() throws {
        let killed = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(killed.signal == 15 && killed.exitStatus == nil)
        let input = try ChildProcess.run("/bin/sh", ["-c", "wc -c"], captureOutput: true)
        #expect(String(decoding: input.output, as: UTF8.self).trimmingWhitespaceForTest == "0")
    }

    @Test("a program that does not exist fails to start with the reason")
    func missingProgram() {
        #expect(throws: ChildProcess.StartFailure.self) { try ChildProcess.run("/nonexistent/wsh-test", []) }
    }
}

private extension String {
    var trimmingWhitespaceForTest: String { split(whereSeparator: \.isWhitespace).joined() }
}
