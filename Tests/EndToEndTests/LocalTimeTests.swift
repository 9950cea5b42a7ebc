import Foundation
import Testing
import WshTestSupport

/// The local time zone comes from the C library (`TZ`, the zone files), not
/// from Foundation: `post --at HH:MM` means that clock time where the user is.
@Suite("Local time, end to end")
struct LocalTimeTests {
    /// `scheduled_at` of `post … --at 23:30` run under `zone`.
    private func scheduledAt(zone: String) async throws -> String {
        let run = try await WshProcess.run(["--dialect", "mastodon", "-c", "post see you --at 23:30 --json"],
                                           environment: ["TZ": zone, "XDG_CONFIG_HOME": WshProcess.temporaryDirectory()])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["scheduled_at"] as? String)
    }

    @Test("post --at HH:MM is that clock time in TZ: 23:30 in Tokyo is 14:30 UTC, in New York 04:30 or 03:30 UTC")
    func clockTimeHonoursTZ() async throws {
        #expect(try await scheduledAt(zone: "Asia/Tokyo").contains("T14:30:00"))
        let newYork = try await scheduledAt(zone: "America/New_York")
        #expect(newYork.contains("T04:30:00") || newYork.contains("T03:30:00"), "\(newYork)")
        #expect(try await scheduledAt(zone: "UTC").contains("T23:30:00"))
        // A POSIX zone string, which no zone file names: five hours west of UTC.
        #expect(try await scheduledAt(zone: "XST5").contains("T04:30:00"))
    }
}
