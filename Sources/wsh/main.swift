// wsh: parse the command line, wire the shell to the sandbox, run, exit.
import FoundationEssentials
import CCommandLine
import WshCommandLine
import WshHAR
import WshRequest
import WshSandbox
import WshShell
import WshText
#if canImport(Glibc)
import Glibc

// One malloc arena for the whole process, before any thread starts. libcurl's
// thread, the concurrency pool and the embedded sandbox's threads each free
// what another allocated; with glibc's default of one arena per thread, the
// freed pieces stay scattered over several arenas and a long session's
// resident memory keeps creeping up past the history cap (about 4 KB per
// `fetch 20` over thousands of fetches, against 0.5 KB with one arena:
// scripts/bench-rss). A user's own MALLOC_ARENA_MAX is left as given.
// (mallopt is glibc's, declared in <malloc.h>, which Swift's Glibc module
// leaves out: it is looked up; M_ARENA_MAX is -8.)
//
// And memory freed is kept for the next page rather than handed back at once:
// a page's body (200 KB for 100 statuses) and libcurl's buffer were larger
// than glibc's first mmap threshold, and the top of the heap was given back
// whenever 128 KB lay free there, so each page's buffers landed in fresh
// memory the kernel had to clear, on libcurl's thread before the page
// reached the decoder (100 pages × 100, scripts/bench-table's pages row:
// 5 700 → 4 060 page faults). Up to 64 MB free at the top stays; blocks
// under 32 MB come from the heap. A user's own GLIBC_TUNABLES is left as given.
// (M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD -3.)
if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    let set = unsafeBitCast(mallopt, to: Mallopt.self)
    if getenv("MALLOC_ARENA_MAX") == nil { _ = set(-8, 1) }
    if getenv("GLIBC_TUNABLES") == nil {
        _ = set(-1, 64 << 20)
        _ = set(-3, 32 << 20)
    }
}
#endif

// The words after the program's name, decoded as `CommandLine.arguments` decodes
// them (invalid UTF-8 repaired), but read from argv here: the standard library's
// array looks its element type up by name on first use, about a sixth of the
// time `wsh -c 'echo hi'` spent in main (scripts/bench-startup).
let arguments = (1..<Int(CommandLine.argc)).map { String(cString: CommandLine.unsafeArgv[$0]!) }
let options: Options
do {
    options = try Options.parse(arguments)
} catch {
    let report = Options.report(error)
    if report.isError {
        StandardStreams.writeError("wsh: \(report.text)\n")
    } else {
        print(report.text)
    }
    exit(report.status)
}
if options.version {
    print(BuildInfo.versionText(Shell.version))
    exit(0)
}

/// A usage error found after parsing (a file an option names): one line, status 2.
func usageError(_ message: String) -> Never {
    StandardStreams.writeError("wsh: \(message)\n")
    exit(2)
}

if options.test {
    // Each test file's wsh replays the recording itself; a bad one is refused here, once.
    if let path = options.replay {
        do { _ = try HARRecording.load(path: path) } catch { usageError("--replay: \(error)") }
    }
    exit(ScriptTestRunner(paths: options.script, jobs: options.jobs, junit: options.reportJUnit, tap: options.reportTAP,
                          childArguments: options.testChildArguments, tokenFile: options.tokenFile).run())
}

// --replay: the recording is read, and refused, before anything runs; its API
// stands in for the sandbox, which never starts.
let replay: HARRecording?
do {
    replay = try options.replay.map { (path) throws(HARError) in try HARRecording.load(path: path) }
} catch {
    usageError("--replay: \(error)")
}
let api = options.api ?? replay.map { $0.apiBase ?? "http://replay.invalid/" }

// The sandbox lives as long as the process; it starts on the first request
// (and again, fresh, for the classroom page's "Replay from here").
nonisolated(unsafe) var sandbox: SandboxServer?
var configuration = Shell.Configuration(
    target: api.map { .url($0.hasSuffix("/") ? $0 : $0 + "/") } ?? .sandbox,
    // Precedence: --token-command or --token-file, else $WSH_ACCESS_TOKEN, else the stored active account.
    tokenSource: options.tokenCommand.map { .command($0) } ?? options.tokenFile.map { .file($0) } ?? .environment("WSH_ACCESS_TOKEN"),
    launchSandbox: replay != nil ? nil : {
        // A request follows at once: libcurl loads while the sandbox binds.
        let flavour = options.sandboxFlavour.flatMap(SandboxFlavour.named) ?? .mastodon
        let server = try SandboxServer.start(SandboxConfiguration(flavour: flavour), whileBinding: CurlHTTPClient.preload)
        sandbox = server
        return (server.baseURL, server.token, { server.stop() })
    },
    json: options.json,
    timeout: .milliseconds(Int(options.timeout * 1000)),
    accountStore: ShellPaths.configDirectory().map { AccountStore(directory: $0) })
configuration.dialect = (options.dialect ?? (options.api == nil ? replay?.dialect : nil))
    .flatMap(Connection.DialectChoice.init(rawValue:)) ?? .detect
configuration.echo = options.echo
configuration.webPort = options.web
if let host = options.webHost { configuration.webHost = host }
configuration.keepGoing = options.keepGoing
configuration.archivePath = options.archive
configuration.offline = options.offline
// curl's tools' order: --cacert, else $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's.
configuration.certificateAuthorities = options.cacert.map { CertificateAuthorities(bundle: $0, origin: "--cacert") }
    ?? .fromEnvironment()
configuration.certificateAuthorities.advice = "pass --cacert FILE to trust a private CA"
if let replay {
    configuration.tape = .replay(ReplayHTTPClient(recording: replay))
} else if let path = options.record {
    do {
        configuration.tape = .record(try HARRecorder(path: path, creator: "wsh", version: Shell.version))
    } catch {
        usageError("--record: \(error)")
    }
}

// A server named by --api is talked to through libcurl, almost always by the first
// command: it loads (4 ms, 30 libraries) on a thread of its own while the shell
// starts and reads its commands, not after. (No thread is made in between that the
// load would hold up; the sandbox's case preloads while it binds, above.)
if options.api != nil, replay == nil, !options.offline {
    CurlHTTPClient.preload()
}
let shell = Shell(configuration: configuration, console: .standard(colorAllowed: !options.noColor))
let invocation: Invocation
if let command = options.command {
    invocation = .command(command, arguments: options.script)
} else if let lesson = options.present {
    invocation = .present(path: lesson, arguments: options.script)
} else if let path = options.script.first {
    invocation = .script(path: path, arguments: Array(options.script.dropFirst()))
} else {
    invocation = .standardInput
}
let status = shell.start(invocation)
// The sandbox ends with the process: no graceful stop to wait for, as no
// client of it outlives the shell. What the shell wrote is flushed, then the
// process ends without exit()'s handlers: they are OpenSSL's cleanup and every
// loaded library's destructors (0.7 M instructions, a fifth of a millisecond of
// each run, freeing memory the kernel takes back at once), and they would wait
// for libcurl to finish loading if the sandbox started but no request was sent.
// (A coverage build writes its profile first: wsh_exit.)
fflush(nil)
wsh_exit(status)
