import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// `trace diagram FILE`: the traced commands as FILE.svg and FILE.mmd.
@Suite("trace diagram: the trace as a sequence diagram")
struct TraceDiagramTests {
    static let layers = ["Shell", "ViewModel", "DataController", "Request", "Model", "View"]

    /// A fresh directory for the files one test writes.
    func directory() throws -> String {
        let path = NSTemporaryDirectory() + "wsh-diagram-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// What `xmllint --noout` says of `path`: nil when the file is well-formed XML.
    func xmllintComplaint(_ path: String) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--noout", path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "xmllint exit \(process.terminationStatus): \(complaint)"
    }

    @Test("fetch 3: well-formed SVG with every layer named, the calls and the request line; Mermaid names every layer")
    func fetchDiagram() async throws {
        let harness = try await ShellHarness()
        let base = try directory() + "/fetch"
        let run = await harness.run("trace on\nfetch 3\ntrace diagram \(base)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote \(base).svg and \(base).mmd (1 command)"))
        #expect(try xmllintComplaint(base + ".svg") == nil)
        let svg = try String(contentsOfFile: base + ".svg", encoding: .utf8)
        for layer in Self.layers { #expect(svg.contains(">\(layer)</text>"), "\(layer)") }
        #expect(svg.contains(">wsh&gt; fetch 3</text>"))
        #expect(svg.contains(">SessionViewModel.fetch(source: public, count: 3"))
        #expect(svg.contains(">StatusDataController.timeline(public, count: 3)</text>"))
        #expect(svg.contains("GET \(harness.sandbox.baseURL)statuses/public_timeline.json?count=3"), "\(svg)")
        #expect(svg.contains(">200 · ") && svg.contains(" ms · "))
        #expect(svg.contains(">3 items</text>"))
        #expect(svg.contains(">answered from its cache") == false)
        #expect(svg.contains("render TimelineListView") || svg.contains("nothing to render"))
        #expect(!svg.contains(SandboxConfiguration.defaultToken))
        let mermaid = try String(contentsOfFile: base + ".mmd", encoding: .utf8)
        #expect(mermaid.hasPrefix("sequenceDiagram\n"))
        for layer in Self.layers { #expect(mermaid.contains("    participant \(layer)\n"), "\(layer)") }
        #expect(mermaid.contains("DataController->>Request: GET \(harness.sandbox.baseURL)statuses/public_timeline.json?count=3"))
    }

    @Test("detail 1 after a fetch: a note that the DataController answered from its cache, and no request")
    func cacheHitDiagram() async throws {
        let harness = try await ShellHarness()
        let base = try directory() + "/detail.svg"
        let run = await harness.run("fetch 5\ntrace on\ndetail 1\ntrace diagram \(base)")
        #expect(run.status == 0, "\(run.stderr)")
        let stem = String(base.dropLast(4))
        #expect(try xmllintComplaint(stem + ".svg") == nil)
        let svg = try String(contentsOfFile: stem + ".svg", encoding: .utf8)
        for layer in Self.layers { #expect(svg.contains(">\(layer)</text>"), "\(layer)") }
        #expect(svg.contains(">answered from its cache: no request</text>"))
        #expect(!svg.contains("GET "))
        let mermaid = try String(contentsOfFile: stem + ".mmd", encoding: .utf8)
        #expect(mermaid.hasPrefix("sequenceDiagram\n"))
        #expect(mermaid.contains("Note over DataController: answered from its cache: no request"))
    }

    @Test("--last 2 draws both commands in order; commands run while trace was off are not kept")
    func lastTwo() async throws {
        let harness = try await ShellHarness()
        let base = try directory() + "/two"
        let run = await harness.run("fetch 2\ntrace on\nfetch 3\ndetail 1\ntrace diagram \(base) --last 2")
        #expect(run.status == 0, "\(run.stderr)")
        let mermaid = try String(contentsOfFile: base + ".mmd", encoding: .utf8)
        let fetch = try #require(mermaid.range(of: "wsh> fetch 3"))
        let detail = try #require(mermaid.range(of: "wsh> detail 1"))
        #expect(fetch.lowerBound < detail.lowerBound)
        #expect(!mermaid.contains("wsh> fetch 2"))
        #expect(await harness.run("trace diagram \(base) --last 11").status == 2)
        #expect(await harness.run("trace on \(base)").status == 2)
    }

    @Test("nothing traced yet: a usage error that says trace on first")
    func nothingTraced() async throws {
        let harness = try await ShellHarness()
        let run = await harness.run("fetch 2\ntrace diagram \(try directory())/none")
        #expect(run.status == 2)
        #expect(run.stderr.contains("trace on first"))
    }

    @Test("server text is sanitized and escaped for XML and Mermaid")
    func hostileText() throws {
        let record = TraceRecord(
            command: "echo <b>&\"x\"; #1 \u{1B}[31mred\u{202E}", input: "SessionViewModel.mute(\"<i>\")",
            entries: [.dataController(.init(call: "UserDataController.show(\"a&b\")", method: "GET",
                                            url: "http://h/x?a=1&b=<2>", status: 200, bytes: 10))],
            rendered: [], failure: nil, elapsed: .milliseconds(3))
        let diagram = TraceDiagram([record])
        let svg = TraceSVGView().render(diagram)
        #expect(!svg.contains("\u{1B}") && !svg.contains("\u{202E}") && !svg.contains("[31m"))
        #expect(svg.contains("wsh&gt; echo &lt;b&gt;&amp;&quot;x&quot;; #1 red"))
        #expect(svg.contains("GET http://h/x?a=1&amp;b=&lt;2&gt;"))
        let path = try directory() + "/hostile.svg"
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try xmllintComplaint(path) == nil)
        let mermaid = TraceMermaidView().render(diagram)
        #expect(mermaid.contains("wsh> echo <b>&\"x\"#59; #35;1 red"))
        #expect(!mermaid.contains("\u{1B}"))
    }
}
