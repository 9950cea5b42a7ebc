import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// The prompt's history file, as sessions one after another and side by side
/// leave it: each line typed stored once, nothing written through a link.
@Suite("The history file")
struct PromptHistoryTests {
    /// What a session said about its history file.
    final class Warnings: @unchecked Sendable {
        var lines: [String] = []
    }

    /// A session's history on `path`, its warnings recorded.
    private func session(_ path: String, _ warnings: Warnings = Warnings(),
                         redact: @escaping (String) -> String = { $0 }) throws -> PromptHistory {
        try PromptHistory(path: path, redact: redact) { warnings.lines.append($0) }
    }

    /// A history path in a fresh 0700 folder, as `ShellPaths.historyFile` makes it.
    private func freshPath() -> String {
        ShellPaths.historyFile(environment: ["XDG_STATE_HOME": WshProcess.temporaryDirectory()])!
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    private func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    // MARK: Each line once

    @Test("three sessions that each type one line leave each line in the file exactly once")
    func threeSessions_eachLineOnce() throws {
        let path = freshPath()
        for line in ["fetch 5", "detail 2", "echo 微博 😀"] {
            let history = try session(path)
            history.remember(line)
        }
        #expect(try PromptHistory.entries(inFile: path) == ["fetch 5", "detail 2", "echo 微博 😀"])
        #expect(try permissions(path) == 0o600)
    }

    @Test("a session writes only the lines typed in it, never the ones it loaded, and Up still reaches both")
    func loadedLines_neverWrittenBack() throws {
        let path = freshPath()
        let first = try session(path)
        for line in ["one", "two", "three"] { first.remember(line) }
        let second = try session(path)
        #expect(second.entries == ["one", "two", "three"], "loaded at start")
        second.remember("four")
        second.remember("five")
        #expect(second.entries == ["one", "two", "three", "four", "five"])
        #expect(try PromptHistory.entries(inFile: path) == ["one", "two", "three", "four", "five"])
    }

    @Test("two sessions at once each store their own lines once, in the order they were typed")
    func concurrentSessions_keepEachOthersLines() throws {
        let path = freshPath()
        let first = try session(path)
        let second = try session(path)
        first.remember("first a")
        second.remember("second a")
        first.remember("first b")
        second.remember("second b")
        #expect(try PromptHistory.entries(inFile: path) == ["first a", "second a", "first b", "second b"])
        // Each session's Up walks its own lines; a third session sees them all.
        #expect(first.entries == ["first a", "first b"])
        #expect(try session(path).entries == ["first a", "second a", "first b", "second b"])
    }

    @Test("a line typed twice in a row is stored once; typed again after another line, it is stored again")
    func repeats_foldedOnlyWhenConsecutive() throws {
        let path = freshPath()
        let history = try session(path)
        for line in ["fetch 5", "fetch 5", "list", "fetch 5", "fetch 5  "] { history.remember(line) }
        #expect(try PromptHistory.entries(inFile: path) == ["fetch 5", "list", "fetch 5"])
        #expect(history.entries == ["fetch 5", "list", "fetch 5"])
    }

    @Test("a multi-line entry is stored as one entry and read back whole")
    func multilineEntry_roundTrips() throws {
        let path = freshPath()
        try session(path).remember("for i in 1 2 {\n  echo \"$i\\tdone\"\n}")
        try session(path).remember("echo after")
        #expect(try PromptHistory.entries(inFile: path) == ["for i in 1 2 {\n  echo \"$i\\tdone\"\n}", "echo after"])
    }

    @Test("a token typed at the prompt reaches the file masked")
    func secrets_maskedInFile() throws {
        let path = freshPath()
        let history = try session(path, redact: { $0.replacingOccurrences(of: "s3cret-token", with: "***") })
        history.remember("login --token s3cret-token")
        #expect(try PromptHistory.entries(inFile: path) == ["login --token ***"])
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("s3cret-token"))
    }

    @Test("a session that types past 2000 lines trims the file to the newest 1000 as it goes")
    func trim_asALongSessionGoes() throws {
        let path = freshPath()
        let lines = (1...2500).map { "echo line-\($0)" }
        let history = try session(path)
        for line in lines { history.remember(line) }
        // Trimmed when the file passed 2000 (at line 2000), then 500 more appended.
        #expect(try PromptHistory.entries(inFile: path) == Array(lines[1000...]))
        #expect(try permissions(path) == 0o600)
    }

    @Test("a file past 2000 lines is trimmed to its newest 1000 when a session starts; its lines follow once")
    func trim_atStart() throws {
        let path = freshPath()
        // Three sessions of 999 lines each: none has typed enough to trim.
        let lines = (1...2997).map { "echo line-\($0)" }
        for part in stride(from: 0, to: lines.count, by: 999) {
            let history = try session(path)
            for line in lines[part..<part + 999] { history.remember(line) }
        }
        #expect(try PromptHistory.entries(inFile: path) == lines)

        let next = try session(path)
        #expect(try PromptHistory.entries(inFile: path) == Array(lines.suffix(1000)))
        next.remember("echo after-trim")
        #expect(try PromptHistory.entries(inFile: path) == Array(lines.suffix(1000)) + ["echo after-trim"])
        #expect(try permissions(path) == 0o600)
    }

    @Test("a file earlier wsh left with its header line repeated loads without the header as an entry")
    func repeatedHeader_notAnEntry() throws {
        let path = freshPath()
        // What wsh 0.1.0 appended over two sessions: the header again before each line, and the line before it again.
        let written = "_HiStOrY_V2_\necho\\040one\n_HiStOrY_V2_\necho\\040one\necho\\040two\n"
        try written.write(toFile: path, atomically: false, encoding: .utf8)
        let history = try session(path)
        #expect(history.entries == ["echo one", "echo two"])
        history.remember("echo three")
        #expect(try PromptHistory.entries(inFile: path) == ["echo one", "echo one", "echo two", "echo three"])
    }

    // MARK: Links are not followed

    @Test("a history file that is a symbolic link is refused in one line; the target keeps its text and mode")
    func symlinkedFile_refused() throws {
        let path = freshPath()
        let target = WshProcess.temporaryDirectory() + "/precious"
        try "precious text\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)

        let warnings = Warnings()
        let history = try session(path, warnings)
        for line in ["echo one", "echo two", "echo three"] { history.remember(line) }

        #expect(warnings.lines.count == 1, "\(warnings.lines)")
        let warning = try #require(warnings.lines.first)
        #expect(warning.contains(path), "\(warning)")
        #expect(warning.contains("symbolic link"), "\(warning)")
        #expect(warning.contains("this session has no history file"), "\(warning)")
        #expect(!warning.contains("\n"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious text\n")
        #expect(try permissions(target) == 0o644)
        #expect(isSymbolicLink(path))
        // The session goes on: Up still walks what was typed.
        #expect(history.entries == ["echo one", "echo two", "echo three"])
    }

    @Test("a dangling symbolic link is refused and nothing is created where it points")
    func danglingSymlink_refused() throws {
        let path = freshPath()
        let target = WshProcess.temporaryDirectory() + "/not-yet"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let warnings = Warnings()
        try session(path, warnings).remember("echo one")
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("symbolic link"), "\(warnings.lines)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a history folder that is a symbolic link is refused; nothing is written in the folder it points to")
    func symlinkedFolder_refused() throws {
        let state = WshProcess.temporaryDirectory()
        let elsewhere = WshProcess.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: state + "/wsh", withDestinationPath: elsewhere)
        let path = try #require(ShellPaths.historyFile(environment: ["XDG_STATE_HOME": state]))
        let warnings = Warnings()
        try session(path, warnings).remember("echo one")
        #expect(warnings.lines.count == 1, "\(warnings.lines)")
        let warning = try #require(warnings.lines.first)
        #expect(warning.contains(state + "/wsh") && warning.contains("symbolic link"), "\(warning)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("a history folder others may read is made 0700, said once, and the history is kept")
    func looseFolder_madePrivate() throws {
        let path = freshPath()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        let warnings = Warnings()
        try session(path, warnings).remember("echo one")
        #expect(warnings.lines == ["made \(folder) private (0700; it was 755): it holds the history"])
        #expect(try permissions(folder) == 0o700)
        #expect(try PromptHistory.entries(inFile: path) == ["echo one"])
        let again = Warnings()
        try session(path, again).remember("echo two")
        #expect(again.lines.isEmpty)
    }

    @Test("a FIFO at the history path is refused at once, not waited on")
    func fifo_refused() throws {
        let path = freshPath()
        try #require(mkfifo(path, 0o600) == 0)
        let warnings = Warnings()
        try session(path, warnings).remember("echo one")
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("not a regular file"), "\(warnings.lines)")
    }

    @Test("a history folder that belongs to another user is refused", .enabled(if: geteuid() == 0, "needs root to chown"))
    func foreignFolder_refused() throws {
        let path = freshPath()
        let folder = (path as NSString).deletingLastPathComponent
        try #require(chown(folder, 65534, 65534) == 0)
        let warnings = Warnings()
        try session(path, warnings).remember("echo one")
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("belongs to another user"), "\(warnings.lines)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
