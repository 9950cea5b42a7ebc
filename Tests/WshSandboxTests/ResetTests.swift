import Foundation
import Testing
import WshSandbox

@Suite("/admin/reset forgets every write")
struct ResetTests {
    @Test("reset restores the generated data and forgets posts, reposts, comments, follows, favourites and OAuth tokens")
    func reset_restoresEverything() async throws {
        try await withSandbox { server in
            let probes = [
                ("statuses/public_timeline.json", "count=50"), ("statuses/home_timeline.json", "count=50"),
                ("statuses/mentions.json", ""), ("users/show.json", "uid=1700000001"),
                ("statuses/show.json", "id=4000000000000990"), ("comments/show.json", "id=4000000000000990"),
                ("favorites.json", ""),
            ]
            var before: [[UInt8]] = []
            for (endpoint, query) in probes { before.append(await server.get(endpoint, query).body) }

            let status = "4000000000000990"
            _ = await server.post("statuses/update.json", form: "status=" + formEncoded("@\(server.accounts[0].screenName) hi"),
                                  as: server.second.token)
            _ = await server.post("statuses/repost.json", form: "id=\(status)")
            _ = await server.post("comments/create.json", form: "id=\(status)&comment=c")
            _ = await server.post("favorites/create.json", form: "id=\(status)")
            _ = await server.post("friendships/create.json", form: "uid=1700000001")
            _ = await server.post("friendships/destroy.json", form: "uid=1700000001")
            _ = await server.post("friendships/create.json", form: "uid=1700000001")
            let code = queryItems(ofLocation: await server.oauth("POST", "authorize", form: "client_id=\(App.key)&redirect_uri="
                + formEncoded(App.redirect) + "&user=1700000000&approve=1").headers["location"])["code"] ?? ""
            let token = try #require(await server.oauth("POST", "access_token", form: "client_id=\(App.key)&client_secret=\(App.secret)"
                + "&grant_type=authorization_code&code=\(code)&redirect_uri=" + formEncoded(App.redirect)).json?["access_token"] as? String)
            #expect(server.stats.writes == 7)

            #expect(await server.admin("POST", "reset").status == 200)
            #expect(server.stats == SandboxStats())
            for ((endpoint, query), bytes) in zip(probes, before) {
                #expect(await server.get(endpoint, query).body == bytes, "\(endpoint)?\(query)")
            }
            #expect(await server.get("statuses/home_timeline.json", token: token).errorCode == 21327)
            #expect(await server.oauth("POST", "access_token", form: "client_id=\(App.key)&client_secret=\(App.secret)"
                + "&grant_type=authorization_code&code=\(code)&redirect_uri=" + formEncoded(App.redirect)).errorCode == 21325)
        }
    }
}
