import Foundation
import Testing
import WshTestSupport

/// Issue 33: on every sandbox flavour, `watch --stream` prints a status posted
/// meanwhile, over the transport that server software serves (GoToSocial: a
/// WebSocket only; the others: server-sent events), and says which in one line.
/// The real `wsh`, its embedded sandbox started with `--sandbox-flavour`; the
/// status comes from another client (account 2) posting to that sandbox.
@Suite("watch --stream on every sandbox flavour", .serialized)
struct FlavourStreamTests {
    @Test("wsh --sandbox-flavour F: watch --stream prints a status another client posts meanwhile, and says how in one line",
          arguments: [
              ("mastodon", "streaming over server-sent events"),
              ("gotosocial", "streaming over a WebSocket (the server has no server-sent events)"),
              ("pleroma", "streaming over server-sent events"),
              ("akkoma", "streaming over server-sent events"),
              ("sharkey", "streaming over server-sent events"),
          ])
    func streams(flavour: String, note: String) async throws {
        // `fetch 1` starts the embedded sandbox and `status` names its address, for the other client.
        let wsh = try RunningWsh(["--sandbox-flavour", flavour, "--dialect", "mastodon", "-c",
                                  "fetch 1; status; watch public --stream --until 1 --timeout 60; echo $count"],
                                 environment: ["HOME": WshProcess.temporaryDirectory()])
        let address = try #require(await wsh.line(containing: "base url"), "\(wsh.stderr)")
        let base = try #require(address.split(separator: " ").last.map(String.init), "\(address)")
        #expect(base.hasPrefix("http://127.0.0.1:"), "\(address)")
        // Once wsh says how it streams, another client posts (again, until wsh prints one: a status
        // posted before the stream opened never shows on it).
        let said = await wsh.line(containing: "streaming over", onStderr: true)
        #expect(said == note, "\(wsh.stderr)")
        let poster = keepPosting(toMastodon: base, token: "sandbox-token-2", text: "meanwhile-\(flavour)")
        let printed = await wsh.line(containing: "meanwhile-\(flavour)", timeout: .seconds(60))
        poster.cancel()
        let run = await wsh.finish()
        #expect(printed != nil, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1\n"), "\(run.stdout)")
        let notes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("streaming over") }
        #expect(notes == [Substring(note)], "\(run.stderr)")
        #expect(!run.stderr.contains("no streaming here"), "\(run.stderr)")
    }
}
