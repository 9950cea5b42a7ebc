import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("Accounts: each token acts as its own user")
struct AccountsTests {
    @Test("three accounts by default: the first users, tokens sandbox-token, sandbox-token-2, sandbox-token-3")
    func defaultAccounts() async throws {
        try await withSandbox { server in
            #expect(server.accounts.map(\.token) == ["sandbox-token", "sandbox-token-2", "sandbox-token-3"])
            #expect(server.accounts.map(\.uid) == [1_700_000_000, 1_700_000_001, 1_700_000_002])
            #expect(server.token == server.accounts[0].token)
            for account in server.accounts {
                let uid = await server.get("account/get_uid.json", token: account.token).json?["uid"] as? Int64
                #expect(uid == account.uid)
                let shown = await server.get("users/show.json", "uid=\(account.uid)").json?["screen_name"] as? String
                #expect(shown == account.screenName)
            }
            let listed = try JSONSerialization.jsonObject(with: await server.admin("GET", "accounts").data) as? [[String: Any]]
            #expect(listed?.compactMap { $0["token"] as? String } == server.accounts.map(\.token))
        }
    }

    @Test("--accounts and --token shape the tokens; accounts are capped at the users")
    func configuredAccounts() async throws {
        try await withSandbox(SandboxConfiguration(users: 5, token: "s3cret", accounts: 5)) { server in
            #expect(server.accounts.map(\.token) == ["s3cret", "s3cret-2", "s3cret-3", "s3cret-4", "s3cret-5"])
            #expect(await server.get("account/get_uid.json", token: "s3cret-5").json?["uid"] as? Int64 == 1_700_000_004)
            #expect(await server.get("account/get_uid.json", token: "s3cret-6").errorCode == 21327)
        }
        try await withSandbox(SandboxConfiguration(users: 2)) { server in
            #expect(server.accounts.count == 2)
        }
        await #expect(throws: SandboxStartError.self) {
            _ = try await SandboxServer.start(SandboxConfiguration(accounts: 0))
        }
    }

    @Test("a post belongs to the account whose token made it; user_timeline without uid is the caller's")
    func postsBelongToTheirAccount() async throws {
        try await withSandbox { server in
            let second = server.second
            let result = await server.post("statuses/update.json", form: "status=from+two", as: second.token)
            #expect(result.status == 200)
            let posted = try ModelDecoding.decode(Status.self, from: result.data)
            #expect(posted.user?.idstr == String(second.uid))
            let mine = await server.get("statuses/user_timeline.json", "count=1", token: second.token)
            #expect(mine.statuses.first?["idstr"] as? String == posted.idstr)
            let firsts = await server.get("statuses/user_timeline.json", "count=100")
            #expect(!firsts.ids.contains(Int64(posted.idstr ?? "") ?? 0))
            #expect(server.stats.posts == 1)
            #expect(server.stats.writes == 1)
        }
    }

    @Test("another account cannot delete a status (20102) or a comment (20203); the owner can")
    func ownership() async throws {
        try await withSandbox { server in
            let second = server.second
            let posted = await server.post("statuses/update.json", form: "status=mine")
            let id = try #require(posted.idstr)
            let refused = await server.post("statuses/destroy.json", form: "id=\(id)", as: second.token)
            #expect(refused.status == 403)
            #expect(refused.errorCode == 20102)

            let comment = await server.post("comments/create.json", form: "id=\(id)&comment=hi", as: second.token)
            let cid = try #require(comment.idstr)
            let notYours = await server.post("comments/destroy.json", form: "cid=\(cid)")
            #expect(notYours.status == 403)
            #expect(notYours.errorCode == 20203)
            #expect(notYours.json?["request"] as? String == "/2/comments/destroy.json")
            #expect(await server.post("comments/destroy.json", form: "cid=\(cid)", as: second.token).status == 200)
            #expect(await server.post("statuses/destroy.json", form: "id=\(id)").status == 200)
        }
    }
}
