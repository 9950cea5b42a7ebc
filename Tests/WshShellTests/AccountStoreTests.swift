import Foundation
import Testing
import WshRequest
@testable import WshShell
import WshTestSupport

/// `accounts.json` shared by sessions in several terminals: changes under a
/// lock on the file as it is now, unknown fields kept, newer versions left
/// alone, stale temporary files removed, the folder private.
@Suite("The accounts store, shared")
struct AccountStoreTests {
    private func freshStore() -> AccountStore {
        AccountStore(directory: WshProcess.temporaryDirectory() + "/config/wsh")
    }

    private func account(_ uid: String, api: String = "https://api.weibo.com/2/") -> StoredAccount {
        StoredAccount(api: api, uid: uid, screenName: "user\(uid)", accessToken: "2.00token\(uid)xyz", expiresAt: nil)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test("a session's change applies to the file as it is now: an account another session added meanwhile stays")
    func staleCopyLosesNothing() throws {
        let directory = WshProcess.temporaryDirectory() + "/wsh"
        let first = AccountStore(directory: directory), second = AccountStore(directory: directory)
        let seenByFirst = try first.load()  // session A reads the accounts, then waits
        #expect(seenByFirst.accounts.isEmpty)
        try second.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("2")) }
        try first.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("1")) }
        #expect(try first.load().accounts.map(\.uid) == ["2", "1"])
        try first.update { (file: inout AccountsFile) throws(AccountStoreError) in file.remove(account("1")) }
        #expect(try second.load().accounts.map(\.uid) == ["2"])
    }

    @Test("32 threads, each with its own store on one folder, each adding 10 accounts: all 320 are kept")
    func concurrentUpdatesKeepEverything() throws {
        let directory = WshProcess.temporaryDirectory() + "/wsh"
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 32) { writer in
            let store = AccountStore(directory: directory)
            for index in 0..<10 {
                do {
                    try store.update { (file: inout AccountsFile) throws(AccountStoreError) in
                        file.signIn(StoredAccount(api: "sandbox", uid: "\(writer)-\(index)", screenName: "w\(writer)",
                                                  accessToken: "t-\(writer)-\(index)", expiresAt: nil))
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try AccountStore(directory: directory).load().accounts.count == 320)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.contains(".tmp-") })
    }

    @Test("temporary files a killed writer left behind are removed by the next change; another user's are not ours to touch")
    func staleTemporariesRemoved() throws {
        let store = freshStore()
        try store.save(AccountsFile())
        let stale = ["accounts.json.tmp-99999-12345", "login-pending.json.tmp-99998-1"]
        for name in stale {
            FileManager.default.createFile(atPath: store.directory + "/" + name, contents: Data("{\"half".utf8))
        }
        FileManager.default.createFile(atPath: store.directory + "/notes.txt", contents: Data("mine".utf8))
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("1")) }
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: store.directory))
            == ["accounts.json", "accounts.json.lock", "notes.txt"])
    }

    @Test("a killed process leaves no temporary file for long: kill -9 of a writer in a loop, then one change, leaves none")
    func killedWriter() async throws {
        let directory = WshProcess.temporaryDirectory() + "/wsh"
        let config = (directory as NSString).deletingLastPathComponent
        let store = AccountStore(directory: directory)
        try store.save(AccountsFile())
        // A wsh rewriting the file as fast as it can (use, again and again), killed mid-way.
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("1", api: "sandbox")) }
        let writer = try RunningWsh(["-c", "repeat 100000 { use user1 }"], environment: ["XDG_CONFIG_HOME": config])
        _ = await writer.line(containing: "using @user1", onStderr: true)
        writer.kill()
        _ = await writer.finish()
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("2", api: "sandbox")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.contains(".tmp-") })
        #expect(try store.load().accounts.map(\.uid) == ["1", "2"])
    }

    @Test("fields this wsh does not know — at the top, in an account, in an app — are kept by every change")
    func unknownFieldsKept() throws {
        let store = freshStore()
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try """
            {"version": 1, "default_api": "sandbox", "settings": {"pager": true, "n": [1, 2.5, null, "x"]},
             "accounts": [{"api": "sandbox", "uid": "7", "screen_name": "seven", "access_token": "tok-7-long",
                           "refresh_token": "r-7", "avatar": {"url": "https://x/7.png"}, "big": 9007199254740993}],
             "active": {"sandbox": "7"},
             "apps": [{"api": "https://m.example/", "client_id": "c", "client_secret": "s-secret",
                       "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "vapid_key": "v"}]}
            """.write(toFile: store.accountsPath, atomically: true, encoding: .utf8)
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in
            file.signIn(account("8", api: "sandbox"))
            // Signing in again as 7 keeps what wsh does not know of 7.
            file.signIn(StoredAccount(api: "sandbox", uid: "7", screenName: "seven", accessToken: "tok-7-new", expiresAt: nil))
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.accountsPath))) as? [String: Any])
        #expect(object["default_api"] as? String == "sandbox")
        #expect((object["settings"] as? [String: Any])?["pager"] as? Bool == true)
        #expect(((object["settings"] as? [String: Any])?["n"] as? [Any])?.count == 4)
        let accounts = try #require(object["accounts"] as? [[String: Any]])
        let seven = try #require(accounts.first { $0["uid"] as? String == "7" })
        #expect(seven["refresh_token"] as? String == "r-7")
        #expect(seven["access_token"] as? String == "tok-7-new")
        #expect((seven["avatar"] as? [String: Any])?["url"] as? String == "https://x/7.png")
        let text = try String(contentsOfFile: store.accountsPath, encoding: .utf8)
        #expect(text.contains("9007199254740993"))  // past 2^53: kept digit for digit
        #expect((object["apps"] as? [[String: Any]])?.first?["vapid_key"] as? String == "v")
        #expect(try store.load().accounts.map(\.uid) == ["8", "7"])
    }

    @Test("a file of a newer version is read but never rewritten: one clear line, the bytes unchanged")
    func newerVersionLeftAlone() throws {
        let store = freshStore()
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        let newer = """
            {"version": 2, "accounts": [{"api": "sandbox", "uid": "7", "screen_name": "seven", "access_token": "tok-7-long"}],
             "active": {"sandbox": "7"}, "profiles": {}}
            """
        try newer.write(toFile: store.accountsPath, atomically: true, encoding: .utf8)
        #expect(try store.load().activeAccount(for: "sandbox")?.uid == "7")
        do {
            try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("8")) }
            Issue.record("a version 2 file was rewritten")
        } catch {
            #expect(error.description.contains("it is version 2, written by a newer wsh (this one understands 1); upgrade wsh"))
            #expect(!error.description.contains("\n"))
        }
        #expect(try String(contentsOfFile: store.accountsPath, encoding: .utf8) == newer)

        // A newer file whose shape this wsh cannot read says so too.
        try #"{"version": 3, "accounts": {"by_api": {}}}"#.write(toFile: store.accountsPath, atomically: true, encoding: .utf8)
        #expect(throws: AccountStoreError.self) { try store.load() }
        do { _ = try store.load() } catch { #expect(error.description.contains("version 3, written by a newer wsh")) }
    }

    @Test("an existing folder others may read is made 0700 when an account is written, and the user is told once")
    func looseFolderTightened() throws {
        let store = freshStore()
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        #expect(mode(store.directory) == 0o755)
        let notices = Failures()
        store.notice = { notices.add($0) }
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("1")) }
        #expect(mode(store.directory) == 0o700)
        #expect(mode(store.accountsPath) == 0o600)
        #expect(notices.all == ["made \(store.directory) private (0700; it was 755): it holds tokens"])
        chmod(store.directory, 0o750)
        try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("2")) }
        #expect(mode(store.directory) == 0o700)
        #expect(notices.all.count == 1)
    }

    @Test("a folder where accounts.json should be is an error on reading and on writing, naming the path")
    func folderInPlaceOfFile() throws {
        let store = freshStore()
        try FileManager.default.createDirectory(atPath: store.accountsPath, withIntermediateDirectories: true)
        #expect(throws: AccountStoreError.self) { try store.load() }
        do {
            try store.update { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(account("1")) }
            Issue.record("wrote over a folder")
        } catch {
            #expect(error.description.contains(store.accountsPath))
            #expect(error.description.contains("Is a directory"))
        }
    }
}

/// Strings gathered from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
