import Foundation
import Hummingbird

/// The admin endpoints, outside `/2/`, which need no token and meet no faults:
/// `GET|POST /admin/faults`, `POST /admin/reset`, `GET /admin/stats`.
///
/// They exist for tests and teaching on loopback; the sandbox is never a
/// public service.
struct AdminAPI: Sendable {
    let faults: FaultInjector
    let store: SandboxStore
    let stats: StatsRecorder

    func respond(to request: Request) async throws -> ByteBuffer {
        switch (request.method, request.uri.path) {
        case (.get, "/admin/faults"):
            return try encode(faults.faults)
        case (.post, "/admin/faults"):
            let body = try await request.body.collect(upTo: 64 * 1024)
            let text = String(buffer: body)
            let new: SandboxFaults
            do {
                new = try JSONDecoder().decode(SandboxFaults.self, from: Data((text.isEmpty ? "{}" : text).utf8))
            } catch {
                throw SandboxError.parameter("faults JSON not understood: \(Self.describe(error))")
            }
            faults.set(new)
            return try encode(new)
        case (.post, "/admin/reset"):
            reset()
            return try encode(faults.faults)
        case (.get, "/admin/stats"):
            return try encode(stats.stats)
        case (_, "/admin/faults"), (_, "/admin/reset"), (_, "/admin/stats"):
            throw SandboxError.methodNotSupported
        default:
            throw SandboxError.apiNotFound
        }
    }

    /// Clears faults, the rate-limit count, the statistics and posted statuses.
    func reset() {
        faults.set(SandboxFaults())
        store.reset()
        stats.reset()
    }

    private func encode(_ value: some Encodable) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ByteBuffer(bytes: try encoder.encode(value))
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context): return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: return "\(error)"
        }
    }
}
