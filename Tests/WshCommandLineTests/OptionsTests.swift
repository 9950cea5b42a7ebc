import Foundation
import Testing
@testable import WshCommandLine

@Suite("Command line")
struct OptionsTests {
    /// Words a command line may hold: every option, values good and bad, and
    /// forms only argument-parser understands.
    static let vocabulary = [
        "-c", "echo hi", "--json", "--no-color", "--api", "http://127.0.0.1:8080/2/", "ftp://x",
        "--timeout", "2.5", "0", "inf", "--token-file", "token.txt", "--token-command", "pass show weibo", "t.wsh", "-v", "--help", "-h",
        "--version", "--", "-", "--api=https://api.weibo.com/2/", "-cx", "", "--dialect", "mastodon", "gopher",
        "--present", "lesson.wsh",
    ]

    /// Every command line of up to three words from `vocabulary`.
    static var everyShortLine: [[String]] { lines(of: vocabulary) }

    /// Every command line of up to `length` words from `words`.
    static func lines(of words: [String], length: Int = 3) -> [[String]] {
        var lines: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 1...length {
            frontier = frontier.flatMap { line in words.map { line + [$0] } }
            lines += frontier
        }
        return lines
    }

    /// Checks that argument-parser reads each of `lines` the quick path takes
    /// as the quick path does; returns how many it took.
    static func quickPathAgrees(on lines: [[String]]) throws -> Int {
        var taken = 0
        for line in lines {
            guard let quick = QuickParse.options(line) else { continue }
            taken += 1
            let declared = try #require(try? Arguments.parse(line).options, "argument-parser rejects \(line)")
            #expect(quick == declared, "\(line)")
        }
        return taken
    }

    @Test("given any short command line the quick path takes, then argument-parser reads it the same")
    func quickPathAgreesWithArgumentParser() throws {
        #expect(try Self.quickPathAgrees(on: Self.everyShortLine) > 100)
    }

    @Test("given longer everyday command lines, then the quick path takes them as argument-parser does", arguments: [
        ["--api", "https://api.weibo.com/2/", "--token-file", "/run/token", "--timeout", "5", "--json", "-c", "fetch 5; list --json"],
        ["--no-color", "script.wsh", "one", "--json", "-c", "x"],
        ["--api", "https://api.weibo.com/2/", "--token-command", "pass show weibo/token", "-c", "whoami"],
        ["--api", "https://mastodon.social", "--dialect", "mastodon", "-c", "fetch local 5"],
        ["-c", "echo $1 $2", "first", "-second", "--third"],
        ["examples/tour.wsh"],
        ["--present", "lessons/undo.wsh", "--no-color"],
        ["--api", "https://mastodon.social", "--present", "lesson.wsh", "one", "two"],
        [],
    ])
    func everydayLines(_ line: [String]) throws {
        let quick = try #require(QuickParse.options(line))
        #expect(quick == (try Arguments.parse(line).options))
    }

    @Test("given --sandbox-flavour, then the embedded sandbox's flavour is kept, and -c after it is still the command")
    func sandboxFlavour() throws {
        let options = try Options.parse(["--sandbox-flavour", "gotosocial", "-c", "connect sandbox"])
        #expect(options.sandboxFlavour == "gotosocial")
        #expect(options.command == "connect sandbox")
        #expect(try Options.parse(["-c", "x"]).sandboxFlavour == nil)
    }

    @Test("given --token-command, then it is kept as one word for sh -c")
    func tokenCommand() throws {
        let options = try Options.parse(["--token-command", "pass show weibo", "-c", "whoami"])
        #expect(options.tokenCommand == "pass show weibo")
        #expect(options.tokenFile == nil)
    }

    @Test("given -c with a script's arguments, then the arguments pass through untouched")
    func passThrough() throws {
        let options = try Options.parse(["--json", "-c", "echo $@", "a", "--json", "-c"])
        #expect(options.command == "echo $@")
        #expect(options.json)
        #expect(options.script == ["a", "--json", "-c"])
    }

    @Test("given help, version or an unusual form, then argument-parser answers", arguments: [
        ["--help"], ["--version"], ["--api=https://api.weibo.com/2/"], ["-c", "x", "-c", "y"], ["-c", "-x"], ["-"],
    ])
    func handedToArgumentParser(_ line: [String]) {
        #expect(QuickParse.options(line) == nil)
    }

    @Test("given a wrong command line, then the error is a usage error (2) that names the problem", arguments: [
        (["--frobnicate"], "--frobnicate"),
        (["--api", "ftp://x"], "--api must be an http:// or https:// URL"),
        (["--timeout", "0"], "--timeout must be more than 0"),
        (["--timeout", "inf"], "--timeout must be more than 0 and at most 86400 seconds"),
        (["-c"], "-c"),
        (["--token-file", "t", "--token-command", "echo x"], "give --token-file or --token-command, not both"),
        (["--token-command", "echo x", "--token-file", "t"], "give --token-file or --token-command, not both"),
        (["--dialect", "gopher"], "--dialect must be weibo or mastodon, not 'gopher'"),
        (["--present", "l.wsh", "-c", "fetch"], "give -c or --present, not both"),
        (["-c", "fetch", "--present", "l.wsh"], "give -c or --present, not both"),
        (["--cacert", "/nonexistent-wsh/ca.pem", "-c", "fetch"], "--cacert: cannot read '/nonexistent-wsh/ca.pem': No such file or directory"),
        (["--cacert", "/", "-c", "fetch"], "--cacert: '/' is a folder, not a file of CA certificates"),
        (["--cacert", OptionsTests.manifest, "-c", "fetch"], "--cacert: '\(OptionsTests.manifest)' holds no PEM certificate"),
        (["--record", "a.har", "--replay", "b.har", "-c", "fetch"], "give --record or --replay, not both"),
        (["--replay", "b.har", "--record", "a.har"], "give --record or --replay, not both"),
        (["--record", "a.har", "--test", "tests"], "--record does not go with --test"),
        (["--sandbox-flavour", "misskey", "-c", "fetch"],
         "--sandbox-flavour must be one of mastodon, gotosocial, pleroma, akkoma, sharkey, not 'misskey'"),
        (["--api", "https://mastodon.social", "--sandbox-flavour", "pleroma"], "--sandbox-flavour is for the embedded sandbox"),
    ])
    func usageErrors(_ line: [String], _ named: String) {
        // Before any request: the quick path leaves it to argument-parser, which refuses it.
        do {
            let options = try Options.parse(line)
            Issue.record("parsed \(line) as \(options)")
        } catch {
            let report = Options.report(error)
            #expect(report.status == 2)
            #expect(report.isError)
            #expect(report.text.contains(named), "\(report.text)")
        }
    }

    @Test("given a request for a completion script or the help JSON, then argument-parser answers it as a success", arguments: [
        (["--generate-completion-script", "bash"], "--api"),
        (["--generate-completion-script", "zsh"], "--token-file"),
        (["--generate-completion-script", "fish"], "timeout"),
        (["--experimental-dump-help"], "\"commandName\""),
    ])
    func generatedForTools(_ line: [String], _ expected: String) {
        #expect(QuickParse.options(line) == nil)
        do {
            let options = try Options.parse(line)
            Issue.record("parsed \(line) as \(options)")
        } catch {
            let report = Options.report(error)
            #expect(report.status == 0, "\(report.text)")
            #expect(report.text.contains(expected))
        }
    }

    @Test("given --help, then help is a success that lists every option")
    func help() {
        do {
            _ = try Options.parse(["--help"])
            Issue.record("--help parsed as options")
        } catch {
            let report = Options.report(error)
            #expect(report.status == 0)
            #expect(!report.isError)
            for option in ["--api", "--token-file", "--token-command", "--cacert", "--json", "--no-color", "-c", "--timeout", "--version",
                           "--present", "--record", "--replay"] {
                #expect(report.text.contains(option), "help lacks \(option)")
            }
        }
    }

    /// A file that exists and holds no certificate: the package's manifest.
    static let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Package.swift").path

    /// Files for `--cacert`: a PEM bundle, a file without a certificate, a folder and a path with nothing there.
    struct CAFiles {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-cacert-\(UUID().uuidString)").path
        var bundle: String { folder + "/ca.pem" }
        var notPEM: String { folder + "/ca.der" }
        var missing: String { folder + "/missing.pem" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: bundle, atomically: true, encoding: .utf8)
            try Data([0x30, 0x82, 0x01, 0x0A]).write(to: URL(fileURLWithPath: notPEM))
        }
    }

    @Test("given --cacert with a PEM bundle, then both parsers keep the path")
    func cacert() throws {
        let files = try CAFiles()
        let line = ["--api", "https://weibo.example.com/2/", "--cacert", files.bundle, "-c", "fetch 5"]
        let quick = try #require(QuickParse.options(line))
        #expect(quick.cacert == files.bundle)
        #expect(quick == (try Arguments.parse(line).options))
    }

    @Test("given any short command line with --cacert, then the quick path takes only what argument-parser reads the same")
    func cacertQuickPathAgrees() throws {
        let files = try CAFiles()
        let words = ["--cacert", files.bundle, files.notPEM, files.missing, files.folder, "-c", "x", "--json"]
        #expect(try Self.quickPathAgrees(on: Self.lines(of: words)) > 20)
    }

    @Test("given --record or --replay, then both parsers keep the path")
    func recordReplay() throws {
        for option in ["--record", "--replay"] {
            let line = ["--api", "https://m.example/", option, "s.har", "-c", "fetch 5"]
            let quick = try #require(QuickParse.options(line))
            #expect((option == "--record" ? quick.record : quick.replay) == "s.har")
            #expect(quick == (try Arguments.parse(line).options))
        }
    }

    @Test("given any short command line with --record and --replay, then the quick path takes only what argument-parser reads the same")
    func recordReplayQuickPathAgrees() throws {
        let words = ["--record", "--replay", "s.har", "-c", "x", "--json"]
        #expect(try Self.quickPathAgrees(on: Self.lines(of: words)) > 20)
    }
}
