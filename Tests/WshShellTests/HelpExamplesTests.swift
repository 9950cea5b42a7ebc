import Testing
@testable import WshShell

@Suite("Examples in help work as written")
struct HelpExamplesTests {
    @Test("every example line of help api runs against the sandbox and succeeds")
    func apiExamples() async throws {
        let harness = try await ShellHarness()
        let help = await harness.run("help api").stdout
        let examples = help.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.filter { $0.hasPrefix("api ") }
        #expect(examples.count == 2, "\(help)")
        for example in examples {
            let run = await harness.run(String(example))
            #expect(run.status == 0, "\(example): \(run.stderr)")
            #expect(run.stdout.contains("\"id\""), "\(example)")
        }
        #expect(harness.sandbox.stats.posts == 1)
    }
}
