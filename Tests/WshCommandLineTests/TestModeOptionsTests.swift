import Testing
@testable import WshCommandLine

@Suite("Command line: --test, -x, --keep-going")
struct TestModeOptionsTests {
    @Test("--test takes --jobs and the report files before its paths")
    func testMode() throws {
        let options = try Options.parse(["--test", "--jobs", "4", "--report-junit", "r.xml", "--report-tap", "r.tap", "tests/", "more.wsh"])
        #expect(options.test)
        #expect(options.jobs == 4)
        #expect(options.reportJUnit == "r.xml")
        #expect(options.reportTAP == "r.tap")
        #expect(options.script == ["tests/", "more.wsh"])
    }

    @Test("the options a test file's own wsh gets: the API, dialect, token source, timeout, -x and --keep-going")
    func childArguments() throws {
        let options = try Options.parse(["--api", "https://example.org", "--dialect", "mastodon", "--token-file", "/run/t",
                                         "--timeout", "5", "-x", "--keep-going", "--test", "tests"])
        #expect(options.testChildArguments == ["--api", "https://example.org", "--dialect", "mastodon", "--token-file", "/run/t",
                                               "--timeout", "5.0", "--keep-going", "-x"])
        #expect(try Options.parse(["--test", "tests"]).testChildArguments == [])
    }

    @Test("a test file's own wsh trusts the same CAs: --cacert is handed on")
    func childTrustsTheSameCAs() throws {
        let bundle = try OptionsTests.CAFiles().bundle
        #expect(try Options.parse(["--cacert", bundle, "--test", "tests"]).testChildArguments == ["--cacert", bundle])
    }

    @Test("-x, --echo and --keep-going are flags for any run")
    func flags() throws {
        #expect(try Options.parse(["-x", "-c", "fetch 5"]).echo)
        #expect(try Options.parse(["--echo", "s.wsh"]).echo)
        let going = try Options.parse(["--keep-going", "s.wsh", "a"])
        #expect(going.keepGoing)
        #expect(going.script == ["s.wsh", "a"])
        #expect(try Options.parse(["s.wsh"]) == Options.parse(["s.wsh"]))
        #expect(!(try Options.parse(["s.wsh"]).echo))
    }

    @Test("usage errors: no paths, an option after the paths, --jobs out of range, report options without --test, -c with --test",
          arguments: [
            ["--test"], ["--test", "tests", "--jobs", "2"], ["--test", "--jobs", "0", "tests"], ["--test", "--jobs", "x", "tests"],
            ["--report-junit", "r.xml", "s.wsh"], ["--jobs", "2", "s.wsh"], ["--test", "-c", "echo", "tests"],
          ])
    func usageErrors(_ line: [String]) {
        #expect(throws: (any Error).self) { try Options.parse(line) }
        do {
            _ = try Options.parse(line)
        } catch {
            #expect(Options.report(error).status == 2)
        }
    }
}
