import Foundation
import Testing
import WshArchive
import WshSandbox
import WshTestSupport
@testable import WshShell

/// `archive export`: JSON Lines and CSV that other tools read, the files
/// Mastodon's import page reads (checked by the rules of Mastodon's own
/// importer, app/models/form/import.rb), and the static site.
@Suite("The archive's exports", .serialized)
struct ArchiveExportTests {
    private func sqlite3(_ file: String, _ query: String) throws -> String { try ArchiveTranscriptTests.sqlite3(file, query) }

    /// `python3 -c SCRIPT ARGS…`'s output: the files read by Python's own json and csv modules.
    private func python(_ script: String, _ arguments: [String]) throws -> String {
        let run = try runTool("/usr/bin/python3", ["-c", script] + arguments)
        #expect(run.status == 0, "\(run.output)")
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("jsonl: one valid JSON document a status with the server's JSON whole; csv: a header and a row a status, quoted as RFC 4180 says")
    func jsonLinesAndCSV() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let tricky = "a, \\\"quoted\\\" word\\nand a second line"
        let posted = await harness.run("post \"\(tricky)\"\narchive sync me public --limit 80 --archive \(file)")
        #expect(posted.status == 0, "\(posted.stderr)")
        let folder = (file as NSString).deletingLastPathComponent
        let run = await harness.run("archive export jsonl \(folder)/all.jsonl --archive \(file)\n"
                                    + "archive export csv \(folder)/all.csv --archive \(file)")
        #expect(run.status == 0, "\(run.stderr)")
        let count = try sqlite3(file, "SELECT count(*) FROM statuses")
        #expect(run.stderr.contains("wrote \(folder)/all.jsonl: \(count) rows"), "\(run.stderr)")
        let lines = try python("""
            import json, sys
            docs = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]
            print(len(docs), sum(d['status']['id'] == d['id'] for d in docs), sum('me' in d['sources'] for d in docs) > 0)
            """, [folder + "/all.jsonl"])
        #expect(lines == "\(count) \(count) True")
        let rows = try python("""
            import csv, sys
            rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
            header = rows[0]
            mine = [r for r in rows[1:] if r[header.index('text')].startswith('a, "quoted"')]
            print(len(rows) - 1, ','.join(header[:4]), repr(mine[0][header.index('text')]) if mine else 'none')
            """, [folder + "/all.csv"])
        #expect(rows == "\(count) server,account,api,id 'a, \"quoted\" word\\nand a second line'", "\(rows)")
        // Nothing half-written is left beside them, and the archive was only read.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }.isEmpty)
    }

    @Test("mastodon: the six files read back by Mastodon's import rules give the follows with boosts, notify and languages, mutes, blocks, lists and bookmarks, every address with its domain")
    func mastodonImportFiles() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon, accounts: 5)
        let me = harness.sandbox.accounts[0]
        let (muted, blocked, member) = (harness.sandbox.accounts[2], harness.sandbox.accounts[3], harness.sandbox.accounts[4])
        try await harness.mastodonPost("api/v1/accounts/\(muted.uid)/mute", as: me, form: "notifications=true")
        try await harness.mastodonPost("api/v1/accounts/\(blocked.uid)/block", as: me)
        try await harness.mastodonPost("api/v1/accounts/\(member.uid)/follow", as: me,
                                       form: "reblogs=false&notify=true&languages[]=en&languages[]=fr")
        let list = try await harness.mastodonPost("api/v1/lists", as: me, form: "title=Friends%2C%20close")
        let listID = try #require((try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["id"] as? String)
        try await harness.mastodonPost("api/v1/lists/\(listID)/accounts", as: me, form: "account_ids[]=\(member.uid)")
        #expect(await harness.run("fetch public 3\nbookmark 2").status == 0)
        let folder = (file as NSString).deletingLastPathComponent + "/mastodon"
        let run = await harness.run("archive sync following mutes blocks lists bookmarks --archive \(file)\n"
                                    + "archive export mastodon \(folder) --archive \(file)")
        #expect(run.status == 0, "\(run.stderr)")
        let domain = try sqlite3(file, "SELECT domain FROM servers")
        #expect(!domain.isEmpty)

        // Mastodon's importer: the first line is a header only when its first cell is a known first header;
        // else the file is read with the type's default headers. Booleans: false, f, 0, off are false, empty is nil.
        let read = try python("""
            import csv, json, sys
            known = {'Account address', '#domain', '#uri', 'List name'}
            defaults = {'following': ['Account address'], 'blocks': ['Account address'], 'muting': ['Account address'],
                        'bookmarks': ['#uri'], 'lists': ['List name', 'Account address']}
            def load(path, kind):
                rows = [r for r in csv.reader(open(path, newline='', encoding='utf-8')) if r]
                if rows and rows[0][0] in known:
                    header, rows = rows[0], rows[1:]
                else:
                    header = defaults[kind]
                return [dict(zip(header, r)) for r in rows]
            def boolean(text):
                return None if text == '' else text.lower() not in ('false', 'f', '0', 'off')
            folder = sys.argv[1]
            out = {}
            out['following'] = {r['Account address']: [boolean(r['Show boosts']), boolean(r['Notify on new posts']),
                                [l.strip() for l in r['Languages'].split(',')] if r['Languages'] else None]
                                for r in load(folder + '/following_accounts.csv', 'following')}
            out['muting'] = {r['Account address']: boolean(r['Hide notifications']) for r in load(folder + '/muted_accounts.csv', 'muting')}
            out['blocks'] = [r['Account address'] for r in load(folder + '/blocked_accounts.csv', 'blocks')]
            out['lists'] = [[r['List name'], r['Account address']] for r in load(folder + '/lists.csv', 'lists')]
            out['bookmarks'] = [r['#uri'] for r in load(folder + '/bookmarks.csv', 'bookmarks')]
            print(json.dumps(out, sort_keys=True))
            """, [folder])
        let imported = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        let following = try #require(imported["following"] as? [String: [Any]])
        let followed = try #require(following["\(member.screenName)@\(domain)"])
        #expect(followed[0] as? Bool == false && followed[1] as? Bool == true && followed[2] as? [String] == ["en", "fr"], "\(followed)")
        #expect(following.count == Int(try sqlite3(file, "SELECT count(*) FROM relations WHERE kind = 'following'")))
        #expect(following.keys.allSatisfy { $0.hasSuffix("@" + domain) || $0.split(separator: "@").count == 2 })
        #expect((imported["muting"] as? [String: Bool]) == ["\(muted.screenName)@\(domain)": true])
        #expect((imported["blocks"] as? [String]) == ["\(blocked.screenName)@\(domain)"])
        #expect((imported["lists"] as? [[String]]) == [["Friends, close", "\(member.screenName)@\(domain)"]])
        let uri = try sqlite3(file, "SELECT json_extract(s.json, '$.uri') FROM statuses s JOIN source_statuses ss "
                                    + "ON ss.status = s.rowid WHERE ss.source = 'bookmarks'")
        #expect((imported["bookmarks"] as? [String]) == [uri])
        // Headers exactly as Mastodon's export writes them, rows ended by LF.
        let followingText = try String(contentsOfFile: folder + "/following_accounts.csv", encoding: .utf8)
        #expect(followingText.hasPrefix("Account address,Show boosts,Notify on new posts,Languages\n"))
        #expect(followingText.contains("\(member.screenName)@\(domain),false,true,\"en, fr\"\n"), "\(followingText)")
        #expect(try String(contentsOfFile: folder + "/muted_accounts.csv", encoding: .utf8)
                == "Account address,Hide notifications\n\(muted.screenName)@\(domain),true\n")
    }

    @Test("html: pages of at most N statuses, a reply under the status it answers, every status once, and a search index")
    func htmlPagesAndThreads() async throws {
        let file = ArchiveTranscriptTests.freshFile()
        let harness = try await ShellHarness(dialect: .mastodon)
        let posted = await harness.run("post \"the first of a thread\"\nfetch user @\(harness.sandbox.accounts[0].screenName) 1\n"
                                       + "post --reply 1 \"and its answer\"\narchive sync me public --limit 120 --archive \(file)")
        #expect(posted.status == 0, "\(posted.stderr)")
        let folder = (file as NSString).deletingLastPathComponent + "/site"
        let connection = try ArchiveStore.readOnlyConnection(path: file)
        let written = try ArchiveExport.html(connection, media: ArchiveMediaFolder(archivePath: file), to: folder, pageSize: 50)
        let count = Int(try sqlite3(file, "SELECT count(*) FROM statuses")) ?? 0
        let pages = written.files.dropFirst()
        #expect(pages.count == (count + 49) / 50 || pages.count == (count + 49) / 50 + 1)
        #expect(pages.allSatisfy { $0.rows <= 50 && $0.rows > 0 })
        var articles: [String] = []
        for page in pages {
            let html = try String(contentsOfFile: page.name, encoding: .utf8)
            articles += html.components(separatedBy: "<article id=\"").dropFirst().map { String($0.prefix(while: { $0 != "\"" })) }
        }
        #expect(articles.count == count && Set(articles).count == count)
        let first = try sqlite3(file, "SELECT rowid FROM statuses WHERE text = 'the first of a thread'")
        let answer = try sqlite3(file, "SELECT rowid FROM statuses WHERE text LIKE '%and its answer%'")
        let at = try #require(articles.firstIndex(of: "s-\(first)"))
        #expect(articles[at + 1] == "s-\(answer)", "the answer comes right after the status it answers")
        let page = try #require(pages.first { (try? String(contentsOfFile: $0.name, encoding: .utf8))?.contains("s-\(answer)") == true })
        #expect(try String(contentsOfFile: page.name, encoding: .utf8).contains("<article id=\"s-\(answer)\" class=\"status\" style=\"--depth: 1\">"))
        let index = try String(contentsOfFile: folder + "/search-index.js", encoding: .utf8)
        #expect(index.components(separatedBy: "\n").filter { $0.hasPrefix("[") }.count == count)
        #expect(index.contains("the first of a thread"))
    }
}
