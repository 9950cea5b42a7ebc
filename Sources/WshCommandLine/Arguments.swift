import ArgumentParser

/// wsh's command line as argument-parser declares it: the specification of
/// every option, `--help` and the wording of usage errors.
struct Arguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh",
        abstract: "A line-editing shell for the Weibo API, built on MVVM layers you can watch.",
        discussion: """
            With no --api, wsh starts an embedded sandbox API on 127.0.0.1 and works offline.
            The token: --token-command or --token-file, else $WSH_ACCESS_TOKEN, else the account
            'login' stored as active for that API ($XDG_CONFIG_HOME/wsh/accounts.json).
            Exit status: 0 success, 1 a command failed, 2 usage or syntax error, 130 interrupted.
            """)

    @Option(name: .long, help: ArgumentHelp("API base URL: Weibo (https://api.weibo.com/2/) or a Mastodon server (https://mastodon.social).", valueName: "url"))
    var api: String?

    @Option(name: .long, help: ArgumentHelp("The API's dialect, weibo or mastodon (default: found out from --api; weibo for the sandbox).", valueName: "name"))
    var dialect: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp("Read the access token from the first line of a file (else $WSH_ACCESS_TOKEN).", valueName: "path"))
    var tokenFile: String?

    @Option(name: .customLong("token-command"), help: ArgumentHelp("Run 'sh -c CMD' and use the first line it prints as the access token (never stored).", valueName: "cmd"))
    var tokenCommand: String?

    @Option(name: .long, help: ArgumentHelp(
        "Trust the CA certificates in this PEM file for https (a company or test CA); else $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's. Servers are always verified.",
        valueName: "file"))
    var cacert: String?

    @Option(name: .long, help: ArgumentHelp(
        "Append every HTTP exchange of the session (OAuth and the sandbox too) to a HAR 1.2 file, tokens and secrets masked as ***; the file is replaced, mode 0600.",
        valueName: "file"))
    var record: String?

    @Option(name: .long, help: ArgumentHelp(
        "Answer every request from a HAR file (wsh's --record or a browser's), with no network and no sandbox; the API is --api, else the recording's. With --test, every test file replays it.",
        valueName: "file"))
    var replay: String?

    @Option(name: .long, help: ArgumentHelp(
        "The local archive (archive, sql, and timelines when the server cannot be reached); default $XDG_DATA_HOME/wsh/archive.sqlite, else ~/.local/share/wsh/archive.sqlite.",
        valueName: "file"))
    var archive: String?

    @Flag(name: .long, help: "Answer timelines (fetch, more) from the archive, sending no request.")
    var offline = false

    @Flag(name: .long, help: "Print results as JSON.")
    var json = false

    @Flag(name: .customLong("no-color"), help: "Never colour output (NO_COLOR does the same).")
    var noColor = false

    @Option(name: .customShort("c"), help: ArgumentHelp("Run COMMANDS and exit.", valueName: "commands"))
    var command: String?

    @Option(name: .long, help: ArgumentHelp("Present a lesson: on a terminal each command waits for a key (Enter/Space runs, b steps back, s skips, q ends); without one it runs as a script.", valueName: "lesson"))
    var present: String?

    @Option(name: .long, help: ArgumentHelp("Seconds before a request gives up.", valueName: "seconds"))
    var timeout: Double = Options.defaultTimeout

    @Flag(name: [.customShort("x"), .long], help: "Print each command on stderr before it runs, its words expanded (+ fetch 5); one more + inside each function call, sourced file and $(…).")
    var echo = false

    @Flag(name: .customLong("keep-going"), help: "After a failing command go on with the next one, on the same line or in the same block; exit with the first failure's status (1 for a failed command).")
    var keepGoing = false

    @Flag(name: .long, help: "Run every .wsh file under the paths (folders searched) as a test case, each in a fresh wsh.")
    var test = false

    @Option(name: .long, help: ArgumentHelp("With --test: how many test files run at once.", valueName: "n"))
    var jobs: Int = 1

    @Option(name: .customLong("report-junit"), help: ArgumentHelp("With --test: write a JUnit XML report.", valueName: "file"))
    var reportJUnit: String?

    @Option(name: .customLong("report-tap"), help: ArgumentHelp("With --test: write a TAP 13 report.", valueName: "file"))
    var reportTAP: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Serve the classroom page at http://127.0.0.1:PORT/ (--web PORT picks the port, else a free one): every layer of the session, live, in a browser; with --present, its Next and Back step the lesson.",
        valueName: "port"))
    var web = false

    @Option(name: .customLong("web-port"), help: .hidden)
    var webPort: Int?

    @Option(name: .customLong("web-host"), help: ArgumentHelp(
        "Where the classroom page listens (default 127.0.0.1): the only way it is served beyond this machine; students join read-only with the key in the link wsh prints.",
        valueName: "addr"))
    var webHost: String?

    @Option(name: .customLong("sandbox-flavour"), help: ArgumentHelp(
        "The server the embedded sandbox's Mastodon side imitates: mastodon (default), gotosocial, pleroma, akkoma or sharkey (its nodeinfo, version, ids, paging header, errors and extra fields).",
        valueName: "name"))
    var sandboxFlavour: String?

    @Flag(name: .long, help: "Print the version and exit.")
    var version = false

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A .wsh script and its arguments ($1…).", valueName: "file"))
    var script: [String] = []

    mutating func validate() throws {
        if let api, !Options.isAPIBase(api) {
            throw ValidationError("--api must be an http:// or https:// URL")
        }
        // A script's own arguments may start with '-', but not the script's name.
        // Passthrough capture takes --help too; before a script name it means help.
        if command == nil, let first = script.first, first == "--help" || first == "-h" {
            throw CleanExit.helpRequest(self)
        }
        // The JSON that swift-argument-parser's manual generator (and scripts/manual) reads.
        if command == nil, script.first == "--experimental-dump-help" {
            throw CleanExit.message(Self._dumpHelp())
        }
        if command == nil, let first = script.first, first.hasPrefix("-"), first != "-" {
            throw ValidationError("unknown option '\(first)'")
        }
        if let dialect, !Options.dialects.contains(dialect) {
            throw ValidationError("--dialect must be weibo or mastodon, not '\(dialect)'")
        }
        if present != nil, command != nil {
            throw ValidationError("give -c or --present, not both")
        }
        if let cacert, let problem = CABundleFile.problem(cacert) {
            throw ValidationError("--cacert: \(problem)")
        }
        if record != nil, replay != nil {
            throw ValidationError("give --record or --replay, not both")
        }
        if test, record != nil {
            throw ValidationError("--record does not go with --test (test files run at once would write one file): "
                + "record a session with wsh --record FILE, then run the tests on it with --test --replay FILE")
        }
        if tokenFile != nil, tokenCommand != nil {
            throw ValidationError("give --token-file or --token-command, not both")
        }
        if !test, jobs != 1 || reportJUnit != nil || reportTAP != nil {
            throw ValidationError("--jobs, --report-junit and --report-tap go with --test")
        }
        if test {
            guard command == nil else { throw ValidationError("give --test or -c, not both") }
            guard !script.isEmpty else { throw ValidationError("--test needs at least one file or folder") }
            if let option = script.first(where: { $0.hasPrefix("-") }) {
                throw ValidationError("unknown option '\(option)' (with --test, options go before the paths)")
            }
            guard jobs >= 1 && jobs <= 64 else { throw ValidationError("--jobs must be 1 to 64") }
        }
        if let webPort, !(0...65_535).contains(webPort) {
            throw ValidationError("--web takes a port from 0 to 65535, not \(webPort)")
        }
        if webPort != nil, !web {
            throw ValidationError("--web-port goes with --web: wsh --web PORT")
        }
        if let webHost, webHost.isEmpty || webHost.contains(where: { $0.isWhitespace || $0 == "/" }) {
            throw ValidationError("--web-host takes an address such as 0.0.0.0 or 192.168.1.20, not '\(webHost)'")
        }
        if let sandboxFlavour {
            guard Options.sandboxFlavours.contains(sandboxFlavour) else {
                throw ValidationError("--sandbox-flavour must be one of \(Options.sandboxFlavours.joined(separator: ", ")), not '\(sandboxFlavour)'")
            }
            if api != nil || replay != nil {
                throw ValidationError("--sandbox-flavour is for the embedded sandbox: it does not go with --api or --replay")
            }
        }
        if web, test {
            throw ValidationError("--web does not go with --test (each test file runs in a wsh of its own)")
        }
        guard Options.isTimeout(timeout) else {
            throw ValidationError("--timeout must be more than 0 and at most \(Int(Options.maximumTimeout)) seconds")
        }
    }

    /// The parsed values.
    var options: Options {
        Options(api: api, dialect: dialect, tokenFile: tokenFile, tokenCommand: tokenCommand, cacert: cacert,
                record: record, replay: replay, archive: archive, offline: offline, json: json, noColor: noColor, command: command, present: present,
                timeout: timeout, version: version, script: script, echo: echo, keepGoing: keepGoing, test: test,
                jobs: jobs, reportJUnit: reportJUnit, reportTAP: reportTAP, web: web ? (webPort ?? 0) : nil, webHost: webHost,
                sandboxFlavour: sandboxFlavour)
    }
}
