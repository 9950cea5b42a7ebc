import Glibc
import Synchronization
import WshLanguage
import WshWeb

/// The classroom page while it is served: the server, its View on the
/// session's stream, the pipe that carries Next and Back from the teacher's
/// page to the presenter, as keys, and the page's replay requests.
final class WebSession {
    let server: ClassroomServer
    let view: WebView
    let keys: PagePipe
    let replay: ReplayRequests

    init(server: ClassroomServer, view: WebView, keys: PagePipe, replay: ReplayRequests) {
        self.server = server
        self.view = view
        self.keys = keys
        self.replay = replay
    }

    func close() {
        keys.close()
        replay.wake.close()
    }
}

/// A pipe from the page's server thread to the shell's main thread, which
/// polls its read end beside stdin while it waits for input: Next and Back
/// reach the presenter through it as keys (Enter or `b`), through the same
/// door as a key press, and a replay request wakes the prompt with it.
final class PagePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw LanguageError.commandFailed("web: cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Hands `control` to the presenter as its key.
    func send(_ control: ClassroomServer.Control) {
        send(control == .back ? UInt8(ascii: "b") : UInt8(ascii: "\n"))
    }

    func send(_ byte: UInt8) {
        var byte = byte
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Reads whatever waits in the pipe, so a poll on it blocks again.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while Glibc.read(readEnd, &bytes, bytes.count) > 0 {}
    }

    func close() {
        Glibc.close(writeEnd)
        Glibc.close(readEnd)
    }
}

/// "Replay from here" between the page's server thread and the shell: the
/// server asks whether a step can be replayed (`refusal(step:)`) and hands
/// the request over (`request(step:)`), which wakes the shell where it waits
/// for input; the shell takes it (`take()`) between commands and runs it on
/// its own thread. The shell keeps what the answer depends on up to date
/// (`update`) as each line ends.
final class ReplayRequests: Sendable {
    /// What decides whether a step can be replayed, as the shell last said.
    struct Facts: Sendable {
        /// Why this session can never replay (a live API without `--replay`); nil when it can.
        var refusal: String?
        /// The page's steps in the current branch.
        var steps = 0
        /// The first step at which the session talked to a live server (a
        /// `connect URL` on the sandbox): replays to it and later are refused.
        var liveFrom: Int?
    }

    let wake: PagePipe
    private let state = Mutex<(facts: Facts, pending: Int?)>((Facts(), nil))

    init(refusal: String?) throws {
        wake = try PagePipe()
        state.withLock { $0.facts.refusal = refusal }
    }

    /// Nil when `step` (nil: any step) can be replayed now, else why not, in one line.
    func refusal(step: Int?) -> String? {
        let facts = state.withLock { $0.facts }
        if let refusal = facts.refusal { return refusal }
        guard let step else { return nil }
        if step > facts.steps {
            return "there is no step \(step) yet: this session has \(facts.steps)"
        }
        if let live = facts.liveFrom, live <= step {
            return "step \(live) talks to a live server, and replay never does"
        }
        return nil
    }

    /// Hands `step` to the shell and wakes it (a newer request replaces one not yet taken).
    func request(step: Int) {
        state.withLock { $0.pending = step }
        wake.send(UInt8(ascii: "r"))
    }

    /// The step asked for, if any; the pipe is drained either way.
    func take() -> Int? {
        wake.drain()
        return state.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    /// True when a request waits to be taken.
    var isPending: Bool { state.withLock { $0.pending != nil } }

    /// Changes the facts the next answers depend on.
    func update(_ change: (inout Facts) -> Void) {
        state.withLock { change(&$0.facts) }
    }
}
