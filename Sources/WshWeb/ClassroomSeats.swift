import Synchronization

/// How many event streams the classroom serves at once, like seats in a
/// room: each address holds at most `perAddress` (this machine counts as
/// one address), and the other machines hold at most `fromOthers` together.
/// This machine's seats are not among those, so students filling the room
/// cannot lock the teacher's page out, and one student cannot fill it alone.
final class ClassroomSeats: Sendable {
    /// Why a stream was refused, in words the page shows.
    enum Refusal: Error, Equatable {
        /// This address holds `perAddress` streams already.
        case address(String)
        /// The other machines hold `fromOthers` streams already.
        case full

        var status: Int { self == .full ? 503 : 429 }
    }

    /// A seat taken; given back by `release()` (or when it is dropped).
    final class Seat: Sendable {
        private let seats: ClassroomSeats
        private let holder: String
        private let released = Atomic(false)

        fileprivate init(seats: ClassroomSeats, holder: String) {
            self.seats = seats
            self.holder = holder
        }

        func release() {
            if !released.exchange(true, ordering: .relaxed) { seats.giveBack(holder) }
        }

        deinit { release() }
    }

    /// The name this machine's seats are held under.
    static let thisMachine = "this machine"

    let perAddress: Int
    let fromOthers: Int
    /// Seats held, by holder; and how many the other machines hold in all.
    private let held = Mutex<(byHolder: [String: Int], others: Int)>(([:], 0))

    init(perAddress: Int, fromOthers: Int) {
        self.perAddress = max(1, perAddress)
        self.fromOthers = max(0, fromOthers)
    }

    /// A seat for a stream from `address`, or why not.
    func take(from address: String, thisMachine: Bool) -> Result<Seat, Refusal> {
        let holder = thisMachine ? Self.thisMachine : address
        return held.withLock { held in
            if held.byHolder[holder, default: 0] >= perAddress { return .failure(.address(holder)) }
            if !thisMachine && held.others >= fromOthers { return .failure(.full) }
            held.byHolder[holder, default: 0] += 1
            if !thisMachine { held.others += 1 }
            return .success(Seat(seats: self, holder: holder))
        }
    }

    /// How many seats are taken now.
    var taken: Int { held.withLock { $0.byHolder.values.reduce(0, +) } }

    /// The refusal as the one line a page (or curl) shows.
    func explain(_ refusal: Refusal) -> String {
        switch refusal {
        case .address(let holder):
            return "429 Too Many Requests: \(perAddress) event streams from \(holder) already, the most one address may hold: "
                + "close a page, or wait for a closed one to be let go"
        case .full:
            return "503 Service Unavailable: the classroom is full: \(fromOthers) event streams from other machines already, "
                + "the most it serves; try again later"
        }
    }

    private func giveBack(_ holder: String) {
        held.withLock { held in
            held.byHolder[holder, default: 0] -= 1
            if held.byHolder[holder] == 0 { held.byHolder[holder] = nil }
            if holder != Self.thisMachine { held.others -= 1 }
        }
    }
}
