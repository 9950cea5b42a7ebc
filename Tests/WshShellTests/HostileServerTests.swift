import Foundation
import Testing
import WshTestSupport
@testable import WshShell

/// The trust boundary: a server whose every text field, error body and error
/// page carries escape sequences, C1 controls and bidi overrides drives every
/// View, every error path, `$error` and the trace; nothing of it may reach
/// the terminal, whole or as a remnant.
@Suite("A hostile server reaches no terminal")
struct HostileServerTests {
    static let token = "hostile-token-0123456789"

    /// Runs `script` against a fresh hostile server and returns what was printed.
    private func run(_ script: String, interactive: Bool = false, json: Bool = false) async throws -> Transcript {
        let server = try HostileServer()
        defer { server.stop() }
        let harness = ShellHarness(api: server.baseURL, token: Self.token, json: json)
        return await harness.run(script, interactive: interactive)
    }

    private func expectClean(_ transcript: Transcript, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let printed = transcript.stdout + transcript.stderr
        #expect(!HostileText.leaks(printed), "\(label) leaked: \(printed.debugDescription)", sourceLocation: sourceLocation)
        #expect(!printed.contains(Self.token), "\(label) showed the token", sourceLocation: sourceLocation)
    }

    @Test("every View of the timeline, detail, comments and user, as text and as JSON")
    func everyView() async throws {
        let script = """
            fetch 3
            list
            list --json
            detail 1
            detail 1 --json
            comments 1
            comments --json
            user
            back
            user --json
            back
            user evilperson
            mute evilperson
            mute
            unmute evilperson
            history
            history --json
            status
            status --json
            """
        let transcript = try await run(script)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout.contains("Text"))
        #expect(transcript.stdout.contains("App"))
        #expect(transcript.stdout.contains("Comment"))
        #expect(transcript.stdout.contains("Bio"))
        expectClean(transcript, "views")
        let interactive = try await run("fetch 3\ndetail 2\ncomments\nuser\nback\nback\nback", interactive: true)
        expectClean(interactive, "interactive views")
    }

    @Test("fetch --all against a server that sends the same full page for every page stops after three, keeping the first, and says why")
    func fetchAllStopsOnARepeatingServer() async throws {
        // The hostile server answers every page of the public timeline with the same three statuses.
        let transcript = try await run("fetch public 3 --all; echo kept $count")
        #expect(transcript.stderr.contains(
            "fetch: stopped after 3 statuses, kept: the server sent 3 pages in a row with nothing new: it repeats itself, so the walk stopped"),
                "\(transcript.stderr)")
        #expect(!transcript.stdout.contains("kept"), "a failed command stops the script: \(transcript.stdout)")
        expectClean(transcript, "fetch --all")
    }

    @Test("archive sync against the same server stops after three repeated pages too, keeping what it stored, and says why")
    func archiveSyncStopsOnARepeatingServer() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let transcript = try await run("archive sync public --archive \(file)")
        #expect(transcript.stderr.contains(
            "archive: public: stopped after 12 statuses, kept: the server sent 3 pages in a row with nothing new: it repeats itself, so the sync stopped"),
                "\(transcript.stderr)")
        #expect(try ArchiveTranscriptTests.sqlite3(file, "SELECT count(*) FROM statuses") == "3")
        expectClean(transcript, "archive sync")
    }

    @Test("API error bodies, HTML error pages and non-JSON answers, in messages, $error and $errcode")
    func everyErrorPath() async throws {
        for (line, expected) in [("user apierror", "API error 10023: Denied"), ("user htmlerror", "HTTP 502"),
                                 ("api get nowhere.json", "HTTP 404"), ("api get raw/notjson", "not valid JSON")] {
            let transcript = try await run(line)
            #expect(transcript.status == 1, "\(line)")
            #expect(transcript.stderr.contains(expected), "\(line): \(transcript.stderr)")
            expectClean(transcript, line)
        }
        let caught = try await run("try { user apierror } catch { echo \"[$errcode] $error\" }\ntry { user htmlerror } catch { echo \"[$errcode] $error\" }")
        #expect(caught.status == 0)
        #expect(caught.stdout.contains("[10023] API error 10023: Denied"))
        #expect(caught.stdout.contains("[502] HTTP 502"))
        expectClean(caught, "$error")
    }

    @Test("api prints hostile JSON pretty but clean, and the trace of every path is clean")
    func apiAndTrace() async throws {
        let api = try await run("api get statuses/show.json id=1")
        #expect(api.status == 0)
        #expect(api.stdout.contains("\"text\": \"Text"))
        expectClean(api, "api")
        let traced = try await run("trace on\nfetch 3\ndetail 1\ntry { user apierror } catch { }\ntry { api get raw/notjson } catch { }\napi get statuses/show.json id=1")
        #expect(traced.stderr.contains("DataController"))
        expectClean(traced, "trace")
    }
}
