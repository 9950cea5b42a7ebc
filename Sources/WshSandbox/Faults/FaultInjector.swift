/// Decides, request by request, which faults a `/2/` request meets.
///
/// The counter behind `rateLimit` and the PRNG behind `failRate` restart
/// whenever faults are set, so a test that sets faults sees the same
/// sequence every time.
final class FaultInjector: Sendable {
    /// What to do with one request.
    struct Plan: Sendable {
        var latencyMilliseconds = 0
        /// Answer with this failure (in the API's words) instead of serving the request.
        var failure: InjectedFault?
        var body = BodyFault.none
        /// Milliseconds between body writes, 0 for one write.
        var dripMilliseconds = 0
        var dripChunkBytes = 64
    }

    /// How the body of the response is damaged.
    enum BodyFault: Sendable, Equatable {
        case none
        case drop
        case truncate
        case malformed
        /// Serve the request, then close without the answer.
        case dropAfter
    }

    private struct State {
        var faults: SandboxFaults
        var requestsSinceSet = 0
        var rng: SplitMix64
    }

    private let seed: UInt64
    private let state: Locked<State>

    init(faults: SandboxFaults, seed: UInt64) {
        self.seed = seed
        state = Locked(State(faults: faults, rng: SplitMix64(seed: seed ^ Self.streamKey)))
    }

    // Keeps the failure sequence apart from the data generated from the same seed.
    private static let streamKey: UInt64 = 0xFA17_FA17_FA17_FA17

    var faults: SandboxFaults {
        state.withLock { $0.faults }
    }

    /// Replaces the faults and restarts the counter and the failure sequence.
    func set(_ faults: SandboxFaults) {
        state.withLock { $0 = State(faults: faults, rng: SplitMix64(seed: seed ^ Self.streamKey)) }
    }

    /// Counts one `/2/` request for `path` and decides its faults; a request
    /// outside the faults' `path` meets none and is not counted.
    func plan(path: String) -> Plan {
        state.withLock { state in
            let faults = state.faults
            guard faults.applies(to: path) else { return Plan() }
            state.requestsSinceSet += 1
            var plan = Plan(latencyMilliseconds: faults.latencyMilliseconds,
                            dripMilliseconds: faults.dripMilliseconds, dripChunkBytes: faults.dripChunkBytes)
            if faults.drop {
                plan.body = .drop
                return plan
            }
            if let limit = faults.rateLimit, state.requestsSinceSet > limit {
                plan.failure = InjectedFault(status: 403, isRateLimit: true, retryAfter: faults.retryAfter)
            } else if faults.failRate > 0, state.rng.unit() < faults.failRate {
                plan.failure = InjectedFault(status: faults.failStatus)
            }
            plan.body = faults.dropAfter ? .dropAfter : faults.truncate ? .truncate : faults.malformed ? .malformed : .none
            return plan
        }
    }
}
