import Testing
@testable import WshShell

/// `$result`: every command with a JSON form leaves it for `json get`, with or
/// without `--json`, and the script reads the same values `--json` prints.
@Suite("$result after commands with a JSON form")
struct ResultDocumentTests {
    @Test("given fetch, list, detail and status when a script reads json get then it sees their documents")
    func scriptReadsDocuments() async throws {
        let harness = try await ShellHarness(seed: 1)
        let transcript = await harness.run("""
            fetch 5; set shown $(list)
            assert $(json get '. | length') == 5
            assert $(json get '.[-1].index') == 5
            set shown $(detail 1)
            json get .id
            assert $(json get '.user.verified') == true
            json get '.user | keys'
            set shown $(status)
            json get .rows
            """)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stdout == ("""
            4000000000001000
            ["description","followers_count","friends_count","id","idstr","location","name","screen_name","statuses_count","verified"]
            5

            """), "\(transcript.stdout)")
    }

    @Test("given list when a later command hides rows then json get still reads the rows list showed")
    func listDocumentIsWhatListSaw() async throws {
        let harness = try await ShellHarness(seed: 1)
        let transcript = await harness.run("""
            fetch 5; set shown $(list)
            set who $(json get '.[0].user.screen_name')
            mute @$who
            assert $(json get '. | length') == 5
            assert $(json get '.[0].user.screen_name') == $who
            set shown $(list)
            assert $(json get '. | length') == 4
            """)
        #expect(transcript.status == 0, "\(transcript.stderr)")
        #expect(transcript.stderr.contains("→ 1 row hidden"), "\(transcript.stderr)")
    }

    @Test("given a path the document lacks when read then the script fails naming it")
    func missingPath() async throws {
        let harness = try await ShellHarness(seed: 1)
        let transcript = await harness.run("fetch 2; list; json get '.[2].user'")
        #expect(transcript.status == 1)
        #expect(transcript.stderr.contains("json: no index 2 at .: the array has 2 elements"), "\(transcript.stderr)")
    }
}
