import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// Where wsh keeps its history and finds its rc file (XDG base directories),
/// and what running the rc file does to the session.
@Suite("History and rc file paths")
struct ShellPathsTests {
    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("history lives in $XDG_STATE_HOME/wsh/history, in a folder created 0700")
    func history_xdgState() throws {
        let state = WshProcess.temporaryDirectory() + "/state"
        let home = WshProcess.temporaryDirectory()
        let path = ShellPaths.historyFile(environment: ["XDG_STATE_HOME": state, "HOME": home])
        #expect(path == state + "/wsh/history")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state + "/wsh", isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try permissions(state + "/wsh") == 0o700)
        #expect(!FileManager.default.fileExists(atPath: home + "/.local"), "the default place was touched too")
    }

    @Test("without XDG_STATE_HOME, history is ~/.local/state/wsh/history, its folder 0700")
    func history_default() throws {
        let home = WshProcess.temporaryDirectory()
        #expect(ShellPaths.historyFile(environment: ["HOME": home]) == home + "/.local/state/wsh/history")
        #expect(try permissions(home + "/.local/state/wsh") == 0o700)
    }

    @Test("a relative or empty XDG_STATE_HOME is ignored, as the XDG spec says")
    func history_relativeStateIgnored() {
        let home = WshProcess.temporaryDirectory()
        for value in ["relative/state", "", "~/state"] {
            #expect(ShellPaths.historyFile(environment: ["XDG_STATE_HOME": value, "HOME": home])
                == home + "/.local/state/wsh/history", "XDG_STATE_HOME=\(value)")
        }
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/relative/state/wsh"))
    }

    @Test("with neither XDG_STATE_HOME nor HOME there is no history file")
    func history_noHome() {
        #expect(ShellPaths.historyFile(environment: [:]) == nil)
        #expect(ShellPaths.historyFile(environment: ["HOME": ""]) == nil)
    }

    @Test("the rc file: $XDG_CONFIG_HOME/wsh/wshrc first, else ~/.config/wsh/wshrc, else ~/.wshrc, else none")
    func startupFile_precedence() throws {
        let home = WshProcess.temporaryDirectory()
        let config = WshProcess.temporaryDirectory()
        let environment = ["HOME": home, "XDG_CONFIG_HOME": config]
        #expect(ShellPaths.startupFile(environment: environment) == nil)

        try write("", to: home + "/.wshrc")
        #expect(ShellPaths.startupFile(environment: ["HOME": home]) == home + "/.wshrc")

        try write("", to: home + "/.config/wsh/wshrc")
        #expect(ShellPaths.startupFile(environment: ["HOME": home]) == home + "/.config/wsh/wshrc")

        try write("", to: config + "/wsh/wshrc")
        #expect(ShellPaths.startupFile(environment: environment) == config + "/wsh/wshrc")
    }

    @Test("a relative XDG_CONFIG_HOME is ignored: ~/.config/wsh/wshrc is used")
    func startupFile_relativeConfigIgnored() throws {
        let home = WshProcess.temporaryDirectory()
        try write("", to: home + "/.config/wsh/wshrc")
        #expect(ShellPaths.startupFile(environment: ["HOME": home, "XDG_CONFIG_HOME": "config"])
            == home + "/.config/wsh/wshrc")
    }

    @Test("with XDG_CONFIG_HOME set but holding no wshrc, ~/.wshrc is used and ~/.config is not consulted (XDG)")
    func startupFile_setConfigWithoutFile() throws {
        let home = WshProcess.temporaryDirectory()
        let config = WshProcess.temporaryDirectory()
        try write("", to: home + "/.config/wsh/wshrc")
        #expect(ShellPaths.startupFile(environment: ["HOME": home, "XDG_CONFIG_HOME": config]) == nil)
        try write("", to: home + "/.wshrc")
        #expect(ShellPaths.startupFile(environment: ["HOME": home, "XDG_CONFIG_HOME": config]) == home + "/.wshrc")
    }

    @Test("running the rc file sets variables and loads rows in the session that follows")
    func runStartupFile_preparesSession() async throws {
        let harness = try await ShellHarness()
        let rc = WshProcess.temporaryDirectory() + "/wshrc"
        try write("set greeting 'from the rc'\nfetch 2\n", to: rc)
        await onOwnThread { [harness] in harness.shell.runStartupFile(at: rc) }
        #expect(harness.sandbox.stats.requests == 1)
        let transcript = await harness.run("echo $greeting\nhistory", interactive: true)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == "from the rc\n1  fetch 2 → 2 statuses\n")
        #expect(harness.shell.prompt() == "wsh sandbox [2]> ")
    }

    @Test("an rc file's error is reported with its file and line and stops the rc file, not the session")
    func runStartupFile_errorIsNotFatal() async throws {
        let harness = try await ShellHarness()
        let rc = WshProcess.temporaryDirectory() + "/wshrc"
        try write("set before 1\nnosuchcommand\nset after 1\n", to: rc)
        await onOwnThread { [harness] in harness.shell.runStartupFile(at: rc) }
        // What the rc printed is in the first transcript that follows.
        let transcript = await harness.run("echo $before\ntry { echo $after } catch { echo no-after }", interactive: true)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == "1\nno-after\n")
        #expect(transcript.stderr.contains("\(rc):2: "), "\(transcript.stderr)")
        #expect(transcript.stderr.contains("nosuchcommand"), "\(transcript.stderr)")
    }

    @Test("a missing rc file is silently skipped")
    func runStartupFile_missing() async throws {
        let harness = try await ShellHarness()
        await onOwnThread { [harness] in harness.shell.runStartupFile(at: "/nonexistent/wshrc") }
        let transcript = await harness.run("echo ok")
        #expect(transcript.status == 0)
        #expect(transcript.stdout == "ok\n")
        #expect(transcript.stderr.isEmpty, "\(transcript.stderr)")
    }
}
