import Foundation
import Testing
import WshSandbox
@testable import WshShell

/// `trace diagram FILE`: the traced commands as FILE.svg and FILE.mmd.
@Suite("trace diagram: the trace as a sequence diagram")
struct TraceDiagramTests {
    static let layers = ["Shell", "View", "ViewModel", "DataController", "Model", "Request"]

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
        // Read as drawn, each text's wrapped lines joined.
        let texts = try #require(SVGGeometry(svg)).texts
        for layer in Self.layers { #expect(texts.contains(layer), "\(layer)") }
        #expect(texts.contains("wsh> fetch 3"))
        #expect(texts.contains { $0.hasPrefix("SessionViewModel.fetch(source: public, count: 3") })
        #expect(texts.contains("StatusDataController.timeline(public, count: 3)"))
        #expect(texts.contains { $0.hasPrefix("GET \(harness.sandbox.baseURL)statuses/public_timeline.json?count=3") },
                "\(texts)")
        #expect(texts.contains { $0.hasPrefix("200 · ") && $0.contains(" ms · ") })
        #expect(texts.contains("3 items"))
        #expect(!texts.contains { $0.hasPrefix("answered from its cache") })
        #expect(texts.contains { $0.hasPrefix("render TimelineListView") || $0.hasPrefix("nothing to render") })
        #expect(!svg.contains(SandboxConfiguration.defaultToken))
        let mermaid = try String(contentsOfFile: base + ".mmd", encoding: .utf8)
        #expect(mermaid.hasPrefix("sequenceDiagram\n"))
        for layer in Self.layers { #expect(mermaid.contains("    participant \(layer)\n"), "\(layer)") }
        #expect(mermaid.contains("DataController->>Request: GET \(harness.sandbox.baseURL)statuses/public_timeline.json?count=3"))
        // The sandbox's route that answered: a Server lifeline, called by the Request and answering it, as on the page.
        #expect(texts.contains("Server"))
        #expect(texts.contains { $0.hasSuffix("API GET /2/statuses/public_timeline.json") }, "\(texts)")
        #expect(mermaid.contains("    participant Server\n") && mermaid.contains("Server-->>Request: \n"))
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
        let texts = try #require(SVGGeometry(svg)).texts
        for layer in Self.layers { #expect(texts.contains(layer), "\(layer)") }
        #expect(texts.contains("answered from its cache: no request"))
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
        #expect(svg.contains("&amp;b=&lt;2&gt;") && !svg.contains("<2>"))
        #expect(try #require(SVGGeometry(svg)).texts.contains("GET http://h/x?a=1&b=<2>"))
        let path = try directory() + "/hostile.svg"
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try xmllintComplaint(path) == nil)
        let mermaid = TraceMermaidView().render(diagram)
        #expect(mermaid.contains("wsh> echo <b>&\"x\"#59; #35;1 red"))
        #expect(!mermaid.contains("\u{1B}"))
    }

    /// Two commands whose texts are far wider than a column: URLs with no
    /// space to break at, a 200-character error, Chinese and emoji (two
    /// columns each), a request the shell sends itself (an arrow across
    /// three lifelines) and a render arrow across all six.
    static let longLabels: TraceDiagram = {
        let url = "http://127.0.0.1:41234/api/v1/timelines/public?limit=20&local=true&only_media=false&max_id=109876543210"
        let error = "the server closed the connection before answering: "
            + String(repeating: "upstream gateway timed out waiting for the timeline shard to reply; ", count: 3)
        let chinese = "今天天气很好，我们去公园散步吧！🌳🌞 然后一起吃晚饭，再看一场电影《长安三万里》。"
        let failed = TraceRecord(
            command: "fetch 20 --url " + url, input: "SessionViewModel.fetch(source: \(url), count: 20, page: 1)",
            entries: [.dataController(.init(call: "StatusDataController.timeline(\(url), count: 20)", method: "GET",
                                            url: url, bytes: 0, source: .failed(String(error.prefix(200)))))],
            rendered: [], failure: String(error.prefix(200)), elapsed: .milliseconds(30_012))
        let posted = TraceRecord(
            command: "post " + chinese, input: "SessionViewModel.post(\"\(chinese)\")",
            entries: [.dataController(.init(call: "StatusDataController.post(\"\(chinese)\")", method: "POST",
                                            url: "http://127.0.0.1:41234/api/v1/statuses?status=" + chinese,
                                            status: 200, bytes: 2_345, itemCount: 1))],
            rendered: [], failure: nil, elapsed: .milliseconds(41))
        let direct = TraceRecord(
            command: "api GET " + url, input: nil,
            entries: [.dataController(.init(call: "api", method: "GET", url: url, status: 200, bytes: 99_000))],
            rendered: ["JSONView of a very long answer that names the whole request " + url], failure: nil,
            elapsed: .milliseconds(7))
        return TraceDiagram([failed, posted, direct])
    }()

    @Test("long labels wrap between their two lifelines, notes within their column, and all text stays inside the frame")
    func longLabelsStayInside() throws {
        let diagram = Self.longLabels
        #expect(diagram.steps.contains(.note(.view, "nothing to render (not asked to show)")))
        let svg = TraceSVGView().render(diagram)
        let path = try directory() + "/long.svg"
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try xmllintComplaint(path) == nil)

        let picture = try #require(SVGGeometry(svg))
        let lifelines = picture.lifelines
        try #require(lifelines.count == Self.layers.count)
        let spacing = lifelines[1] - lifelines[0]
        // Each step's text is drawn whole, in order, however it is wrapped.
        var unread = picture.texts[...]
        for step in diagram.steps {
            let text: String
            switch step {
            case .message(_, _, let label, _): text = label
            case .note(_, let note): text = note
            case .banner(let banner): text = banner
            }
            let found = unread.firstIndex(of: text)
            #expect(found != nil, "not drawn whole: \(text)")
            if let found { unread = unread[(found + 1)...] }
        }

        var lines: [SVGGeometry.Line] = []
        for (index, shape) in picture.shapes.enumerated() {
            switch shape {
            case .text(let drawn):
                lines += drawn
                for line in drawn {
                    #expect(line.left >= 0 && line.right <= picture.width, "x outside 0…\(picture.width): \(line)")
                    #expect(line.top >= 0 && line.bottom <= picture.height, "y outside 0…\(picture.height): \(line)")
                }
            case .rect(let box):
                #expect(box.minX >= 0 && box.maxX <= picture.width && box.minY >= 0 && box.maxY <= picture.height,
                        "box outside the frame: \(box)")
                let inside = lifelines.filter { $0 > box.minX && $0 < box.maxX }
                if inside.count == 1, let lifeline = inside.first {
                    // A note (or a lifeline's name) keeps to its lifeline's column.
                    #expect(box.minX >= lifeline - spacing / 2 && box.maxX <= lifeline + spacing / 2,
                            "box leaves the column of x=\(lifeline): \(box)")
                }
                guard index + 1 < picture.shapes.count, case .text(let drawn) = picture.shapes[index + 1] else { break }
                for line in drawn {
                    #expect(line.left >= box.minX && line.right <= box.maxX && line.top >= box.minY
                            && line.bottom <= box.maxY, "text outside its box \(box): \(line)")
                }
            case .arrow(let from, let to, let y):
                guard index + 1 < picture.shapes.count, case .text(let drawn) = picture.shapes[index + 1] else {
                    Issue.record("an arrow without a label at y=\(y)")
                    break
                }
                let (low, high) = (min(from, to), max(from, to))
                for line in drawn {
                    #expect(line.left >= low + Self.padding && line.right <= high - Self.padding,
                            "label not between its lifelines \(low)…\(high): \(line)")
                    let crossed = lifelines.filter { $0 > line.left - Self.padding && $0 < line.right + Self.padding }
                    #expect(crossed.isEmpty, "label across the lifeline at \(crossed): \(line)")
                    #expect(line.bottom <= y, "label below its arrow at y=\(y): \(line)")
                }
            }
        }
        // Rows grow with their lines: no two lines of text overlap, and none crosses an arrow.
        var clashes: [String] = []
        for (index, line) in lines.enumerated() {
            for other in lines[(index + 1)...] where line.overlaps(other) {
                clashes.append("text overlaps: \(line) and \(other)")
            }
            for case .arrow(let from, let to, let y) in picture.shapes
            where line.top < y && line.bottom > y && line.left < max(from, to) && line.right > min(from, to) {
                clashes.append("text across the arrow at y=\(y): \(line)")
            }
        }
        #expect(clashes.isEmpty, "\(clashes.count) clashes, the first: \(clashes.prefix(5).joined(separator: "\n"))")
    }

    /// The least room, in pixels, between a label and a lifeline.
    static let padding = 4.0

    @Test("wrapping breaks only after a space, / or ,; before . ? & (; between camelCase words; hard only where a piece is wider than a line")
    func wrapping() {
        #expect(TraceSVGView.wrap("abcdefghij", columns: 4) == ["abcd", "efgh", "ij"])
        #expect(TraceSVGView.wrap("今天天气很好", columns: 5) == ["今天", "天气", "很好"])
        #expect(TraceSVGView.wrap("short", columns: 20) == ["short"])
        #expect(TraceSVGView.wrap("", columns: 20) == [""])
        #expect(TraceSVGView.wrap("GET http://h/api/v1/x?limit=20", columns: 14)
                == ["GET http://h/", "api/v1/x", "?limit=20"])
        // Never inside a word: SessionViewModel breaks between its words, a number never.
        #expect(TraceSVGView.wrap("SessionViewModel.fetch(source: public, count: 5)", columns: 16)
                == ["SessionViewModel", ".fetch(source: ", "public, count: ", "5)"])
        #expect(TraceSVGView.wrap("StatusDataController.timeline", columns: 12) == ["StatusData", "Controller", ".timeline"])
        #expect(TraceSVGView.wrap("200 · 7.8 KB · 12.5 ms", columns: 9) == ["200 · 7.8 ", "KB · 12.5 ", "ms"])
        #expect(TraceSVGView.pieces("a.b 1.5 x,y, z") == ["a", ".b ", "1.5 ", "x,", "y, ", "z"])
        let texts = Self.longLabels.steps.map { step in
            switch step {
            case .message(_, _, let text, _), .note(_, let text), .banner(let text): text
            }
        } + ["a  b   c" + String(repeating: "🌳x", count: 40)]
        for text in texts {
            let lines = TraceSVGView.wrap(text, columns: 9)
            #expect(lines.joined() == text)
            for line in lines { #expect(DisplayWidth.of(SVGGeometry.visible(line)) <= 9, "\(line)") }
        }
    }
}

/// What a `TraceSVGView` drew, read back from its attributes: the shapes in
/// document order, and each line of text as the box its characters take
/// at `TraceSVGView.characterWidth` per column of 12 px (wide characters two).
struct SVGGeometry {
    /// One line of text: its characters and where they fall.
    struct Line: CustomStringConvertible {
        var text: String
        var left: Double, right: Double, top: Double, bottom: Double

        func overlaps(_ other: Line) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }

        var description: String { "\"\(text)\" x \(left)…\(right) y \(top)…\(bottom)" }
    }

    enum Shape {
        /// A horizontal arrow from one x to another.
        case arrow(from: Double, to: Double, y: Double)
        case rect(Rect)
        case text([Line])
    }

    struct Rect: CustomStringConvertible {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var description: String { "x \(minX)…\(maxX) y \(minY)…\(maxY)" }
    }

    var width: Double
    var height: Double
    /// The x of every vertical (dashed) lifeline, left to right.
    var lifelines: [Double] = []
    var shapes: [Shape] = []

    init?(_ svg: String) {
        guard let root = svg.firstMatch(of: /<svg\b([^>]*)>/) else { return nil }
        let attributes = Self.attributes(root.1)
        guard let width = attributes["width"].flatMap(Double.init),
              let height = attributes["height"].flatMap(Double.init) else { return nil }
        (self.width, self.height) = (width, height)
        for element in svg.matches(of: /<(line|rect)\b([^>]*)\/>|<text\b([^>]*)>(.*?)<\/text>/.dotMatchesNewlines()) {
            if let kind = element.1, let raw = element.2 {
                let a = Self.attributes(raw)
                if kind == "rect" {
                    // The background is 100% by 100%, no number: not a box.
                    guard let x = a["x"].flatMap(Double.init), let y = a["y"].flatMap(Double.init),
                          let w = a["width"].flatMap(Double.init), let h = a["height"].flatMap(Double.init) else { continue }
                    shapes.append(.rect(Rect(minX: x, minY: y, maxX: x + w, maxY: y + h)))
                    continue
                }
                guard let x1 = a["x1"].flatMap(Double.init), let x2 = a["x2"].flatMap(Double.init),
                      let y1 = a["y1"].flatMap(Double.init) else { continue }
                if x1 == x2 { lifelines.append(x1) } else { shapes.append(.arrow(from: x1, to: x2, y: y1)) }
            } else if let raw = element.3, let content = element.4 {
                let a = Self.attributes(raw)
                let size = a["font-size"].flatMap(Double.init) ?? 12
                let anchor = a["text-anchor"] ?? "start"
                var placed: [(attributes: [String: String], text: Substring)] = content.matches(of: /<tspan\b([^>]*)>(.*?)<\/tspan>/)
                    .map { (Self.attributes($0.1), $0.2) }
                if placed.isEmpty { placed = [(a, content)] }
                let lines = placed.compactMap { line -> Line? in
                    guard let x = (line.attributes["x"] ?? a["x"]).flatMap(Double.init),
                          let y = (line.attributes["y"] ?? a["y"]).flatMap(Double.init) else { return nil }
                    let text = Self.unescaped(line.text)
                    // A space that ends a wrapped line is the break: nothing is drawn for it.
                    let extent = Double(DisplayWidth.of(Self.visible(text))) * TraceSVGView.characterWidth * size / 12
                    let left = anchor == "middle" ? x - extent / 2 : anchor == "end" ? x - extent : x
                    // From the em box above the baseline to the descent below it.
                    return Line(text: text, left: left, right: left + extent, top: y - size, bottom: y + size / 4)
                }
                shapes.append(.text(lines))
            }
        }
        lifelines.sort()
    }

    /// `line` without the spaces that end it.
    static func visible(_ line: String) -> String {
        var result = line
        while result.last == " " { result.removeLast() }
        return result
    }

    /// Every text drawn, its lines joined: what a reader of the picture sees.
    var texts: [String] {
        shapes.compactMap { if case .text(let lines) = $0 { lines.map(\.text).joined() } else { nil } }
    }

    static func attributes(_ raw: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for match in raw.matches(of: /([\w:-]+)="([^"]*)"/) { result[String(match.1)] = unescaped(match.2) }
        return result
    }

    static func unescaped(_ text: Substring) -> String {
        String(text).replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}
