import Foundation
import Synchronization
import WshLanguage
import WshRequest
import WshSandbox
@testable import WshShell

/// What one run of the shell's loop printed and returned.
struct Transcript {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A shell wired to an in-process sandbox, with its output captured, driven
/// through the real loop (`Shell.run(source:)`).
///
/// The loop blocks its thread while async inputs run, as it blocks the main
/// thread in `wsh`; so it runs on a thread of its own here, never on the
/// concurrency pool the sandbox and the inputs need.
final class ShellHarness: @unchecked Sendable {
    /// The in-process sandbox, unless the harness talks to another API.
    private let sandboxStorage: SandboxServer?
    let shell: Shell
    private let output = CapturedOutput()

    var sandbox: SandboxServer { sandboxStorage! }

    init(faults: SandboxFaults = SandboxFaults(), token: String = SandboxConfiguration.defaultToken,
         json: Bool = false, seed: UInt64 = SandboxConfiguration().seed, rateLimit: Int? = nil,
         dialect: Connection.DialectChoice = .detect, accountStore: AccountStore? = nil,
         idStyle: MastodonIDStyle? = nil, flavour: SandboxFlavour = .mastodon, streaming: StreamingTransports? = nil,
         echo: Bool = false, keepGoing: Bool = false, accounts: Int = 3) async throws {
        var configuration = SandboxConfiguration(seed: seed, token: token, faults: faults, flavour: flavour, idStyle: idStyle,
                                                 streamingTransports: streaming)
        configuration.accounts = accounts
        configuration.rateLimit = rateLimit
        let sandbox = try await SandboxServer.start(configuration)
        sandboxStorage = sandbox
        var shellConfiguration = Shell.Configuration(
            target: .sandbox, launchSandbox: { (sandbox.baseURL, sandbox.token, {}) }, json: json, accountStore: accountStore)
        shellConfiguration.dialect = dialect
        shellConfiguration.echo = echo
        shellConfiguration.keepGoing = keepGoing
        shell = Shell(configuration: shellConfiguration, console: Self.console(capturingInto: output))
    }

    /// A shell on the API at `baseURL`, sending `token`, each request limited to `timeout`.
    init(api baseURL: String, token: String?, json: Bool = false, timeout: Duration = .seconds(30),
         accountStore: AccountStore? = nil, echo: Bool = false, keepGoing: Bool = false) {
        sandboxStorage = nil
        var configuration = Shell.Configuration(
            target: .url(baseURL), tokenSource: token.map { .value(Secret($0)) } ?? .none, json: json,
            timeout: timeout, accountStore: accountStore)
        configuration.echo = echo
        configuration.keepGoing = keepGoing
        shell = Shell(configuration: configuration, console: Self.console(capturingInto: output))
    }

    /// A shell made from `configuration` as it stands (a replayed API, say).
    init(configuration: Shell.Configuration) {
        sandboxStorage = nil
        shell = Shell(configuration: configuration, console: Self.console(capturingInto: output))
    }

    private static func console(capturingInto capture: CapturedOutput) -> Console {
        Console(
            result: { text in
                let stdout = capture.storage.withLock { $0.stdout += text; return $0.stdout }
                capture.wake(stdout)
            },
            diagnostic: { text in capture.storage.withLock { $0.stderr += text } },
            columns: { 100 })
    }

    /// Runs `script` as `-c` (or as an interactive session) and returns what it printed since the last run.
    func run(_ script: String, name: String = "-c", interactive: Bool = false) async -> Transcript {
        await run(source: interactive ? ScriptedPrompt(script) : TextLineSource(name: name, text: script))
    }

    /// Runs the loop over `source` and returns what it printed since the last run.
    func run(source: LineSource) async -> Transcript {
        let job = Unchecked((shell, source))
        let status = await onOwnThread { job.value.0.run(source: job.value.1) }
        let printed = output.storage.withLock { captured in
            defer { captured = ("", "") }
            return captured
        }
        return Transcript(status: status, stdout: printed.stdout, stderr: printed.stderr)
    }

    /// Waits until a run in progress has printed a stdout line containing `text`; returns that line.
    func line(containing text: String) async -> String {
        await withCheckedContinuation { continuation in
            output.waiters.withLock { $0.append((text, continuation)) }
            output.wake(output.storage.withLock { $0.stdout })
        }
    }

    /// The JSON of `list --json` after `script`.
    func rows(after script: String = "") async throws -> [[String: Any]] {
        let transcript = await run(script.isEmpty ? "list --json" : script + "\nlist --json")
        let data = Data(transcript.stdout.utf8)
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    // The blocking stop must not hold a concurrency-pool thread, which the
    // servers of other tests need; a thread of its own does it.
    deinit {
        guard let sandbox = sandboxStorage else { return }
        Thread.detachNewThread { sandbox.stop() }
    }
}

/// An interactive line source that types the lines of a script.
final class ScriptedPrompt: LineSource {
    var name: String { "<prompt>" }
    var isInteractive: Bool { true }
    private var lines: [String]
    private(set) var remembered: [String] = []

    init(_ script: String) {
        lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func readLine(prompt: String) -> LineRead {
        lines.isEmpty ? .end : .line(lines.removeFirst())
    }

    func remember(_ entry: String) { remembered.append(entry) }
}

/// Runs `body` on a new thread and waits for it without blocking the pool.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Hands a value to another thread that alone uses it from then on.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// What the shell wrote to its two streams.
final class CapturedOutput: Sendable {
    let storage = Mutex<(stdout: String, stderr: String)>(("", ""))
    /// Tests waiting for a line of stdout containing some text.
    let waiters = Mutex<[(String, CheckedContinuation<String, Never>)]>([])

    /// Resumes every waiter whose text `stdout` now has.
    func wake(_ stdout: String) {
        let lines = stdout.split(separator: "\n").map(String.init)
        let ready = waiters.withLock { waiters -> [(String, CheckedContinuation<String, Never>)] in
            let ready = waiters.filter { waiter in lines.contains { $0.contains(waiter.0) } }
            waiters.removeAll { waiter in lines.contains { $0.contains(waiter.0) } }
            return ready
        }
        for (text, continuation) in ready {
            continuation.resume(returning: lines.first { $0.contains(text) } ?? "")
        }
    }
}

extension ShellHarness {
    /// `POST PATH` (under the Mastodon base, e.g. `api/v1/lists`) with a form, as `account`: what another
    /// person, or the token's owner outside wsh, does on the sandbox.
    @discardableResult
    func mastodonPost(_ path: String, as account: SandboxAccount, form: String = "") async throws -> HTTPResponse {
        try await CurlHTTPClient(secrets: [account.token]).send(HTTPRequest(
            method: .post, url: sandbox.mastodonBaseURL + path,
            headers: [HTTPHeader("Authorization", "Bearer " + account.token),
                      HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(form.utf8)))
    }
}
