import Foundation
import Synchronization
import Testing
@testable import WshShell
#if canImport(Glibc)
import Glibc
#endif

/// The SIGINT counter the loop polls: signals land on one thread while
/// another takes them.
@Suite("Interrupts", .serialized)
struct InterruptsTests {
    @Test("take never loses a SIGINT that arrives while another thread takes")
    func takeLosesNoSignal() async throws {
        Interrupts.install()
        _ = Interrupts.takeCount()
        let raised = 20_000
        let done = Atomic<Bool>(false)
        // One thread raises (the handler runs on it), this one takes meanwhile.
        let raiser = Thread {
            for _ in 0..<raised { raise(SIGINT) }
            done.store(true, ordering: .sequentiallyConsistent)
        }
        raiser.start()
        var taken = 0
        while !done.load(ordering: .sequentiallyConsistent) { taken += Interrupts.takeCount() }
        taken += Interrupts.takeCount()
        #expect(taken == raised)
        #expect(!Interrupts.pending)
    }
}
