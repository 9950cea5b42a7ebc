import Foundation
import Testing
import WshModel
import WshSandbox

@Suite("statuses/show, users/show and comments/show")
struct LookupTests {
    @Test("statuses/show gives the status with that id, including its user")
    func showStatus_byID() async throws {
        try await withSandbox { server in
            let newest = try #require(await server.timeline(count: 1).first)
            let id = try #require(newest["idstr"] as? String)
            let result = await server.get("statuses/show.json", "id=\(id)")
            #expect(result.status == 200)
            let status = try ModelDecoding.decode(Status.self, from: result.data)
            #expect(status.idstr == id)
            #expect(status.user?.screenName == (newest["user"] as? [String: Any])?["screen_name"] as? String)
        }
    }

    @Test("statuses/show of an unknown id is 404 with error 20101")
    func showStatus_unknownID_is20101() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/show.json", "id=4000000000999999")
            #expect(result.status == 404)
            #expect(result.errorCode == 20101)
            #expect(await server.get("statuses/show.json").errorCode == 10008)
            #expect(await server.get("statuses/show.json", "id=abc").errorCode == 10008)
        }
    }

    @Test("users/show finds a user by uid and by a (percent-encoded, CJK) screen_name")
    func showUser_byUIDAndScreenName() async throws {
        try await withSandbox { server in
            let statuses = await server.timeline(count: 100)
            let users = statuses.compactMap { $0["user"] as? [String: Any] }
            let cjk = try #require(users.first { ($0["screen_name"] as? String)?.unicodeScalars.contains { $0.value > 0x2E80 } == true })
            let name = try #require(cjk["screen_name"] as? String)
            let byName = await server.get("users/show.json", "screen_name=\(formEncoded(name))")
            #expect(byName.status == 200)
            let user = try ModelDecoding.decode(User.self, from: byName.data)
            #expect(user.screenName == name)
            let byUID = await server.get("users/show.json", "uid=\(user.idstr ?? "")")
            #expect(byUID.data == byName.data)
            // The nested latest status has no user of its own.
            #expect(user.status != nil)
            #expect(user.status?.user == nil)
            #expect((byName.json?["status"] as? [String: Any])?["user"] == nil)
        }
    }

    @Test("users/show of an unknown user is 404 with error 20003")
    func showUser_unknown_is20003() async throws {
        try await withSandbox { server in
            let byName = await server.get("users/show.json", "screen_name=nobody_here")
            #expect(byName.status == 404)
            #expect(byName.errorCode == 20003)
            #expect(await server.get("users/show.json", "uid=42").errorCode == 20003)
            #expect(await server.get("users/show.json").errorCode == 10008)
        }
    }

    @Test("every generated screen name is unique and one shell word")
    func screenNames_uniqueShellWords() async throws {
        try await withSandbox(SandboxConfiguration(users: 200)) { server in
            var names: [String] = []
            for uid in 1_700_000_000..<1_700_000_200 {
                let json = try #require(await server.get("users/show.json", "uid=\(uid)").json)
                names.append(try #require(json["screen_name"] as? String))
            }
            #expect(Set(names).count == 200)
            for name in names {
                #expect(name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }, "\(name)")
            }
        }
    }

    @Test("comments/show pages through as many comments as the status's comments_count")
    func comments_matchCommentsCount() async throws {
        try await withSandbox { server in
            let statuses = await server.timeline(count: 50)
            let busy = try #require(statuses.first { ($0["comments_count"] as? Int ?? 0) > 5 })
            let id = try #require(busy["idstr"] as? String)
            let total = try #require(busy["comments_count"] as? Int)
            var seen: [String] = []
            for page in 1...((total + 4) / 5 + 1) {
                let result = await server.get("comments/show.json", "id=\(id)&count=5&page=\(page)")
                let decoded = try ModelDecoding.decode(CommentsPage.self, from: result.data)
                #expect(decoded.totalNumber == total)
                for comment in decoded.comments {
                    #expect(comment.user?.screenName != nil)
                    #expect(comment.status?.idstr == id)
                    #expect(comment.createdAt != nil)
                }
                seen += decoded.comments.compactMap(\.idstr)
            }
            #expect(seen.count == total)
            #expect(Set(seen).count == total)
            #expect(await server.get("comments/show.json", "id=4000000000999999").errorCode == 20101)
        }
    }

    @Test("an unknown path is 404 with a Weibo error body naming the path")
    func unknownPath_isWeibo404() async throws {
        try await withSandbox { server in
            let result = await server.get("statuses/nothing.json")
            #expect(result.status == 404)
            let error = try ModelDecoding.decode(APIErrorBody.self, from: result.data)
            #expect(error.code == 10020)
            #expect(error.request == "/2/statuses/nothing.json")
            #expect(!error.message.isEmpty)
            #expect(result.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(Set(result.json?.keys.map { $0 } ?? []) == ["error", "error_code", "request"])
        }
    }
}
