#if canImport(Glibc)
import Glibc
#endif

/// Runs another program (`posix_spawn`), its stdin /dev/null: what wsh needs
/// of Foundation's `Process` (`--token-command`, `wsh --test`'s children,
/// the browser at `login`), without Foundation.
public enum ChildProcess {
    /// How a child ended and what it wrote on the streams that were captured.
    public struct Ending: Sendable {
        /// Its exit status, or nil when a signal ended it.
        public var exitStatus: Int32?
        /// The signal that ended it, if one did.
        public var signal: Int32?
        public var output: [UInt8]
        public var errors: [UInt8]

        /// The exit status, or the signal's number where a signal ended it (as `Process.terminationStatus`).
        public var status: Int32 { exitStatus ?? signal ?? -1 }
    }

    /// Why a child could not start: `strerror` of the failure.
    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Runs `path` with `arguments` and waits for it. Standard output and
    /// error are captured when asked (both drained together, so a child that
    /// fills one while wsh reads the other cannot hang), else go to /dev/null.
    public static func run(_ path: String, _ arguments: [String], captureOutput: Bool = false,
                           captureErrors: Bool = false) throws(StartFailure) -> Ending {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        defer { for fd in outputPipe + errorPipe where fd >= 0 { close(fd) } }
        if captureOutput { try makePipe(&outputPipe) }
        if captureErrors { try makePipe(&errorPipe) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (fd, pipe) in [(Int32(1), outputPipe), (2, errorPipe)] {
            if pipe[1] >= 0 {
                posix_spawn_file_actions_adddup2(&actions, pipe[1], fd)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            }
        }

        // The child starts with every signal at its default and none blocked, whatever wsh
        // ignores (SIGPIPE) or blocks: a `head` in a token command must die of SIGPIPE as usual.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw StartFailure(description: "\(path): \(String(cString: strerror(spawned)))") }
        // The child has the write ends now; wsh keeps only the read ends, so each ends when the child closes it.
        if outputPipe[1] >= 0 { close(outputPipe[1]); outputPipe[1] = -1 }
        if errorPipe[1] >= 0 { close(errorPipe[1]); errorPipe[1] = -1 }

        let (output, errors) = drain(outputPipe[0], errorPipe[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7F
        return Ending(exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
                      output: output, errors: errors)
    }

    /// Starts `command` through `sh` in the background and returns at once
    /// (the shell that starts it is waited for, so no zombie is left).
    public static func startDetached(_ arguments: [String]) {
        _ = try? run("/bin/sh", ["-c", "\"$@\" </dev/null >/dev/null 2>&1 &", "sh"] + arguments)
    }

    /// Reads the two descriptors (either may be -1) to their ends.
    private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var results: [[UInt8]] = [[], []]
        var open = [first, second]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0 >= 0 }) {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            for index in fds.indices where open[index] >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(open[index], $0.baseAddress, $0.count) }
                if count > 0 {
                    results[index].append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    open[index] = -1
                }
            }
        }
        return (results[0], results[1])
    }

    /// A pipe whose ends close on exec, so no other child inherits them.
    private static func makePipe(_ ends: inout [Int32]) throws(StartFailure) {
        guard pipe(&ends) == 0 else { throw failure("pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    private static func failure(_ call: String) -> StartFailure {
        StartFailure(description: "\(call): \(String(cString: strerror(errno)))")
    }
}
