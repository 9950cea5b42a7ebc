import Foundation
import Testing
import WshTestSupport

/// `history --save FILE`: the session's operations as a script that a fresh
/// `wsh` runs back to the same history and the same rows.
@Suite("history --save, end to end")
struct HistorySaveTests {
    static let session = """
        fetch home 10
        fetch 5
        detail 2
        back
        mute @bob
        calc 12 + 7 =
        comments 1
        undo
        fetch mentions 4
        more
        calc 3
        """

    @Test("a saved session, run by a fresh wsh, gives the same history --json and list --json")
    func roundTrip() async throws {
        let folder = WshProcess.temporaryDirectory()
        let file = folder + "/session.wsh"
        let original = try await WshProcess.run(["-c", Self.session + "\nhistory --save \(file)\necho =====\nhistory --json\nlist --json\n"])
        #expect(original.status == 0, "\(original.stderr)")
        #expect(original.stderr.contains("saved 9 operations to \(file)"))
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.hasPrefix("#!/usr/bin/env wsh\n# Saved by wsh "))
        #expect(script.contains("# API: the embedded sandbox"))
        #expect(script.contains("# Run it: wsh \(file)"))
        #expect(!script.contains("comments 1"), "undone operations are left out")
        let commands = script.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(commands == ["fetch home 10", "fetch 5", "detail 2", "back", "mute @bob", "calc 12 + 7 =",
                             "fetch mentions 4", "more", "calc 3"])

        #expect(try await WshProcess.run([file]).status == 0)
        let replayed = try await WshProcess.run(["-c", "source \(file)\necho =====\nhistory --json\nlist --json\n"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        // Each wsh runs its own sandbox, whose pictures are served on its own port: the rest is the same.
        #expect(try jsonDocuments(portless(replayed.stdout)) == jsonDocuments(portless(original.stdout)))
        #expect(try jsonDocuments(original.stdout).count == 2)
    }

    @Test("writes stay out as comments unless --include-writes; an existing file needs --force")
    func writesAndOverwrite() async throws {
        let folder = WshProcess.temporaryDirectory()
        let file = folder + "/w.wsh"
        let first = try await WshProcess.run(["-c", "fetch 3\npost \"it's \\$5 now\"\nhistory --save \(file)"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\n# write left out: post \"it's \\$5 now\"\n"))

        let refused = try await WshProcess.run(["-c", "fetch 3\nhistory --save \(file)"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists: give --force"))

        let forced = try await WshProcess.run(["-c", "fetch 3\npost \"it's \\$5 now\"\nhistory --include-writes --force --save \(file)\nhistory --json"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.contains("\npost \"it's \\$5 now\"\n"))
        let replayed = try await WshProcess.run(["-c", "source \(file)\nhistory --json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(try jsonDocuments(replayed.stdout) == jsonDocuments(forced.stdout))
    }

    /// The JSON documents printed one after another, each re-serialised with sorted keys.
    /// `text` with the embedded sandbox's port (in its pictures' URLs) as `PORT`.
    private func portless(_ text: String) -> String {
        text.replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:PORT")
    }

    private func jsonDocuments(_ text: String) throws -> [String] {
        var documents: [String] = []
        // What the commands before the marker showed is not JSON.
        var rest = text.range(of: "=====\n").map { text[$0.upperBound...] } ?? Substring(text)
        while let start = rest.firstIndex(where: { $0 == "[" || $0 == "{" }) {
            rest = rest[start...]
            var depth = 0, inString = false, escaped = false
            var end = rest.startIndex
            for index in rest.indices {
                let character = rest[index]
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                    continue
                }
                if character == "\"" { inString = true } else if character == "[" || character == "{" { depth += 1 } else if character == "]" || character == "}" {
                    depth -= 1
                    if depth == 0 { end = index; break }
                }
            }
            let json = rest[...end]
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            let normal = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            documents.append(String(decoding: normal, as: UTF8.self))
            rest = rest[rest.index(after: end)...]
        }
        return documents
    }
}
