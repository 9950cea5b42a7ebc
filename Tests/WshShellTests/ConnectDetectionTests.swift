import Foundation
import Testing
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `connect URL` finds out at once what answers there: the sandbox's
/// nodeinfo names the software its flavour imitates; a server wsh cannot
/// talk to is refused and the session stays where it was.
@Suite("connect finds out what answers", .serialized)
struct ConnectDetectionTests {
    @Test("connect URL names the software at once, in each flavour wsh speaks to", arguments: [
        (SandboxFlavour.mastodon, "mastodon"), (.gotosocial, "gotosocial"), (.pleroma, "pleroma"), (.akkoma, "akkoma"),
    ])
    func connectNamesTheSoftware(flavour: SandboxFlavour, software: String) async throws {
        let harness = try await ShellHarness(flavour: flavour)
        let connected = await harness.run("connect \(harness.sandbox.mastodonBaseURL)\nstatus")
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(connected.stderr.contains("connected to \(harness.sandbox.mastodonBaseURL): \(software) "), "\(connected.stderr)")
        let dialect = connected.stdout.split(separator: "\n").first { $0.hasPrefix("dialect") } ?? ""
        #expect(dialect.contains(software), "\(connected.stdout)")
        #expect(!dialect.contains("first request") && !dialect.contains("not asked"))
    }

    @Test("a sandbox in Sharkey's flavour is talked to through its Mastodon API, and status says it is a compatibility layer")
    func sharkeyThroughItsMastodonAPI() async throws {
        let harness = try await ShellHarness(flavour: .sharkey)
        let connected = await harness.run("connect \(harness.sandbox.mastodonBaseURL)\nstatus\nfetch 2")
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(connected.stderr.contains("connected to \(harness.sandbox.mastodonBaseURL): sharkey 2024.1.0"), "\(connected.stderr)")
        let server = connected.stdout.split(separator: "\n").first { $0.hasPrefix("server") } ?? ""
        #expect(server.contains("Sharkey 2024.1.0") && server.contains("compatibility layer"), "\(connected.stdout)")
        #expect(connected.stderr.contains("fetched 2 statuses"), "\(connected.stderr)")
    }

    @Test("a server that does not answer is connected, says so, and is not taken for Weibo")
    func unreachableServer() async throws {
        let harness = try await ShellHarness()
        let connected = await harness.run("connect http://127.0.0.1:9/\nstatus")
        #expect(connected.status == 0, "\(connected.stderr)")
        #expect(connected.stderr.contains("does not answer now"), "\(connected.stderr)")
        let dialect = connected.stdout.split(separator: "\n").first { $0.hasPrefix("dialect") } ?? ""
        #expect(!dialect.contains("weibo"), "\(connected.stdout)")
    }
}
