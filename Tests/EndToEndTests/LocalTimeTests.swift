import Foundation
import Testing
import WshTestSupport

/// The local time zone comes from the C library (`TZ`, the zone files), not
/// from Foundation: `post --at HH:MM` means that clock time where the user is.
@Suite("Local time, end to end")
struct LocalTimeTests {
    /// `scheduled_at` of `post … --at CLOCK` run under `zone`.
    private func scheduledAt(_ clock: String, zone: String) async throws -> String {
        let run = try await WshProcess.run(["--dialect", "mastodon", "-c", "post see you --at \(clock) --json"],
                                           environment: ["TZ": zone, "XDG_CONFIG_HOME": WshProcess.temporaryDirectory()])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["scheduled_at"] as? String)
    }

    /// 23:30, unless that is less than ten minutes off in a zone of these UTC
    /// offsets (hours), when `--at` refuses it as too soon: then 11:30. With
    /// the times in UTC it must come out as, one an offset.
    private func clock(offsets: [Int]) -> (clock: String, utc: [String]) {
        let minuteOfDay = Int(Date().timeIntervalSince1970 / 60) % 1440
        let soon = offsets.contains { offset in
            let local = ((minuteOfDay + offset * 60) % 1440 + 1440) % 1440
            return (23 * 60 + 20...23 * 60 + 30).contains(local)
        }
        let hour = soon ? 11 : 23
        return ("\(hour):30", offsets.map { String(format: "T%02d:30:00", ((hour - $0) % 24 + 24) % 24) })
    }

    @Test("post --at HH:MM is that clock time in TZ: 23:30 in Tokyo is 14:30 UTC, in New York 04:30 or 03:30 UTC (11:30 when 23:30 is minutes away)")
    func clockTimeHonoursTZ() async throws {
        // Each zone with its UTC offsets; XST5 is a POSIX zone string, which no zone file names: five hours west of UTC.
        for (zone, offsets) in [("Asia/Tokyo", [9]), ("America/New_York", [-5, -4]), ("UTC", [0]), ("XST5", [-5])] {
            let (clock, utc) = clock(offsets: offsets)
            let scheduled = try await scheduledAt(clock, zone: zone)
            #expect(utc.contains { scheduled.contains($0) }, "\(clock) in \(zone): \(scheduled), expected one of \(utc)")
        }
    }

    /// The detail's time of `fetch 1; detail 1` under `zone`, as the instant
    /// (seconds since 1970) and its clock text; and `list --json` of that run,
    /// the sandbox's port (a new one each run) left out.
    private func detailTime(_ dialect: String, zone: String) async throws -> (instant: Int, clock: String, json: String) {
        let run = try await WshProcess.run(["--dialect", dialect, "-c", "fetch 1; detail 1; list --json"], environment: ["TZ": zone])
        #expect(run.status == 0, "\(run.stderr)")
        let match = try #require(run.stdout.firstMatch(of: /· (\d{4})-(\d\d)-(\d\d) ((\d\d):(\d\d):(\d\d)) ([+-])(\d\d)(\d\d) ·/), "\(run.stdout)")
        let n = { (text: Substring) in Int(text)! }
        let parts = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                   year: n(match.1), month: n(match.2), day: n(match.3), hour: n(match.5), minute: n(match.6), second: n(match.7))
        let offset = (n(match.9) * 3600 + n(match.10) * 60) * (match.8 == "-" ? -1 : 1)
        let clock = try #require(parts.date)
        return (Int(clock.timeIntervalSince1970) - offset, "\(match.4) \(match.8)\(match.9)\(match.10)",
                run.stdout.range(of: "\n[").map { String(run.stdout[$0.lowerBound...]).replacing(/127\.0\.0\.1:\d+/, with: "") } ?? "")
    }

    @Test("detail shows a status's time in TZ on both APIs: the same instant 8 hours apart on the clock in UTC and Shanghai; list --json keeps the server's text")
    func detailTimeHonoursTZ() async throws {
        for dialect in ["weibo", "mastodon"] {
            let utc = try await detailTime(dialect, zone: "UTC")
            let shanghai = try await detailTime(dialect, zone: "Asia/Shanghai")
            #expect(utc.instant == shanghai.instant, "\(dialect): \(utc.clock) and \(shanghai.clock)")
            #expect(utc.clock.hasSuffix("+0000") && shanghai.clock.hasSuffix("+0800"), "\(dialect): \(utc.clock), \(shanghai.clock)")
            let hours = [utc.clock, shanghai.clock].map { Int($0.prefix(2))! }
            #expect((hours[0] + 8) % 24 == hours[1], "\(dialect): \(utc.clock) and \(shanghai.clock)")
            #expect(!utc.json.isEmpty && utc.json == shanghai.json, "\(dialect): list --json does not depend on TZ")
        }
    }
}
