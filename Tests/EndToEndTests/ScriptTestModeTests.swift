import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WshTestSupport

/// `wsh --test`: a folder of scripts run as test cases, with JUnit and TAP reports.
@Suite("wsh --test, end to end")
struct ScriptTestModeTests {
    /// A folder of five scripts: two pass, one fails an assert, one fails a command, one has a syntax error.
    static func makeSuite() throws -> String {
        let folder = WshProcess.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        let files = [
            "a_pass.wsh": "fetch 3\nassert $count == 3\n",
            "b_assert.wsh": "set x 2\nassert $x == 3 \"x is <2> & not 3\"\n",
            "c_command.wsh": "fetch 2\ndetail 9\n",
            "nested/d_syntax.wsh": "echo \"open\n",
            "nested/e_pass.wsh": "echo fine\n",
            "notes.txt": "not a test\n",
        ]
        for (name, text) in files {
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test("exit status 1, the last line counts, JUnit valid and counted, TAP read back, --jobs 4 reports as --jobs 1")
    func folderOfScripts() async throws {
        let folder = try Self.makeSuite()
        let out = WshProcess.temporaryDirectory()
        let run = try await WshProcess.run(["--test", "--report-junit", out + "/r1.xml", "--report-tap", out + "/r1.tap", folder],
                                           environment: ["WSH_ACCESS_TOKEN": "sekrit-token-value"])
        #expect(run.status == 1)
        #expect(run.stdout.split(separator: "\n").last == "2 passed, 3 failed")
        #expect(run.stdout == "2 passed, 3 failed\n", "nothing else on a pipe")
        #expect(run.stderr.isEmpty)

        let xml = try String(contentsOfFile: out + "/r1.xml", encoding: .utf8)
        #expect(!xml.contains("sekrit-token-value"))
        let counts = try JUnitCounts(xml)
        #expect(counts.testcases == 5)
        #expect(counts.failures == 1)
        #expect(counts.errors == 2)
        #expect(counts.suiteName == "wsh")
        #expect(counts.suiteAttributes["tests"] == "5")
        #expect(counts.suiteAttributes["failures"] == "1")
        #expect(counts.suiteAttributes["errors"] == "2")
        #expect(counts.names == ["a_pass", "b_assert", "c_command", "d_syntax", "e_pass"].enumerated().map { index, name in
            folder + "/" + (index >= 3 ? "nested/" : "") + name + ".wsh"
        })
        #expect(counts.failureMessages == [folder + "/b_assert.wsh:2: x is <2> & not 3"])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") {
            let lint = try runTool("/usr/bin/xmllint", ["--noout", out + "/r1.xml"])
            #expect(lint.status == 0, "\(lint.output)")
        }

        let tap = try String(contentsOfFile: out + "/r1.tap", encoding: .utf8)
        #expect(tap.hasPrefix("TAP version 13\n1..5\nok 1 - \(folder)/a_pass.wsh\nnot ok 2 - \(folder)/b_assert.wsh\n  ---\n  message: "))
        #expect(tap.contains("  severity: fail\n"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/prove") {
            let prove = try runTool("/usr/bin/prove", ["--exec", "cat", out + "/r1.tap"])
            #expect(prove.status != 0)
            #expect(prove.output.contains("Failed 3/5 subtests"), "\(prove.output)")
        }

        let parallel = try await WshProcess.run(["--test", "--jobs", "4", "--report-junit", out + "/r4.xml", "--report-tap", out + "/r4.tap", folder])
        #expect(parallel.status == 1)
        #expect(parallel.stdout == run.stdout)
        #expect(try String(contentsOfFile: out + "/r4.tap", encoding: .utf8) == tap)
        let timeless = { (text: String) in text.replacingOccurrences(of: #"time="[0-9.]+""#, with: "", options: .regularExpression) }
        #expect(timeless(try String(contentsOfFile: out + "/r4.xml", encoding: .utf8)) == timeless(xml))
    }

    @Test("all passing exits 0; usage errors exit 2: no paths, unknown option, missing path")
    func statuses() async throws {
        let folder = WshProcess.temporaryDirectory()
        try "echo ok\n".write(toFile: folder + "/one.wsh", atomically: true, encoding: .utf8)
        let passing = try await WshProcess.run(["--test", folder])
        #expect(passing.status == 0)
        #expect(passing.stdout == "1 passed, 0 failed\n")
        #expect(try await WshProcess.run(["--test"]).status == 2)
        #expect(try await WshProcess.run(["--test", "--frobnicate", folder]).status == 2)
        #expect(try await WshProcess.run(["--test", folder, "--jobs", "2"]).status == 2)
        let missing = try await WshProcess.run(["--test", folder + "/nope"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope"))
        #expect(try await WshProcess.run(["--report-tap", "x.tap", folder + "/one.wsh"]).status == 2)
    }

    @Test("-x prints each command with its expanded words on stderr before it runs, one + per level")
    func echo() async throws {
        let run = try await WshProcess.run(["-x", "-c", "set n 2; fetch $n; def f { detail $1 }; f 1; post \"two words\""])
        #expect(run.status == 0, "\(run.stderr)")
        let traced = run.stderr.split(separator: "\n").filter { $0.hasPrefix("+") }
        #expect(traced == ["+ set n 2", "+ fetch 2", "+ def f", "+ f 1", "++ detail 1", "+ post 'two words'"])
        #expect(try await WshProcess.run(["--echo", "-c", "fetch 1"]).stderr.hasPrefix("+ fetch 1\n"))
    }

    @Test("issue 25 as reported: -x echoes echo and set, --keep-going runs the command after ;")
    func issueReproductions() async throws {
        let echoed = try await WshProcess.run(["-x", "-c", "echo a; set b 2"])
        #expect(echoed.status == 0)
        #expect(echoed.stdout == "a\n")
        #expect(echoed.stderr == "+ echo a\n+ set b 2\n")
        let going = try await WshProcess.run(["--keep-going", "-c", "nosuch_cmd; echo after"])
        #expect(going.status == 1)
        #expect(going.stdout == "after\n")
        #expect(going.stderr == "-c:1: nosuch_cmd: unknown command\n")
    }

    @Test("--keep-going runs on after a failure and exits 1 at the end")
    func keepGoing() async throws {
        let path = try WshProcess.writeScript("echo one\ndetail 4\necho two\nexit\n")
        let run = try await WshProcess.run(["--keep-going", path])
        #expect(run.status == 1)
        #expect(run.stdout == "one\ntwo\n")
        #expect(run.stderr.contains("\(path):2: detail:"))
        let plain = try await WshProcess.run([path])
        #expect(plain.stdout == "one\n")
        let script = try WshProcess.writeScript("detail 4\necho after\n", name: "end.wsh")
        let ended = try await WshProcess.run(["--keep-going", script])
        #expect(ended.status == 1)
        #expect(ended.stdout == "after\n")
    }

    @Test("--keep-going skips a line of stdin that is not UTF-8, and still refuses such a file whole")
    func keepGoingInvalidText() async throws {
        let batch = try await WshProcess.run(["--keep-going"], input: Data(Array("echo a\n".utf8) + [0xFF, 0x0A] + Array("echo b\n".utf8)),
                                             timeout: 20)
        #expect(batch.status == 2)
        #expect(batch.stdout == "a\nb\n")
        #expect(batch.stderr == "<stdin>:2: syntax error: invalid UTF-8 in input\n")
        let path = WshProcess.temporaryDirectory() + "/bad.wsh"
        try Data(Array("echo a\n".utf8) + [0xFF, 0x0A] + Array("echo b\n".utf8)).write(to: URL(fileURLWithPath: path))
        let file = try await WshProcess.run(["--keep-going", path], timeout: 20)
        #expect(file.status == 2)
        #expect(file.stdout.isEmpty)
        #expect(file.stderr == "\(path):2: syntax error: invalid UTF-8 in input\n")
    }

}

/// What a JUnit report holds, read with XMLParser.
final class JUnitCounts: NSObject, XMLParserDelegate {
    var testcases = 0
    var failures = 0
    var errors = 0
    var suiteName: String?
    var suiteAttributes: [String: String] = [:]
    var names: [String] = []
    var failureMessages: [String] = []

    init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        switch name {
        case "testsuite":
            suiteName = attributes["name"]
            suiteAttributes = attributes
        case "testcase":
            testcases += 1
            names.append(attributes["name"] ?? "")
        case "failure":
            failures += 1
            failureMessages.append(attributes["message"] ?? "")
        case "error": errors += 1
        default: break
        }
    }
}
