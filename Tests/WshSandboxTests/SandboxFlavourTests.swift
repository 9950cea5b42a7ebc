import Foundation
import Testing
import WshSandbox

/// `--flavour`: what a client of each server sees from the sandbox in that
/// server's flavour. The expected values are written out here as the real
/// servers answer them (docs/SANDBOX.md, "Flavours"), not read from the table.
@Suite("Sandbox flavours: nodeinfo, version, ids, paging header, errors, extra fields")
struct SandboxFlavourTests {
    /// What a client of each server sees, by flavour name.
    struct Expected {
        /// Each link of `/.well-known/nodeinfo`: schema, path.
        var nodeInfo: [(schema: String, path: String)]
        var software: String
        var softwareVersion: String
        var instanceVersion: String
        var idPattern: String
        var linkHeaderName: String
        var nextOnLastPage: Bool
        var notFound: String
        /// A bad token's status and error where a user is needed.
        var badToken: (Int, String)
    }

    static let expected: [String: Expected] = [
        "mastodon": Expected(
            nodeInfo: [("2.0", "/nodeinfo/2.0")], software: "mastodon", softwareVersion: "4.3.0",
            instanceVersion: "4.3.0", idPattern: "^[0-9]+$", linkHeaderName: "Link", nextOnLastPage: false,
            notFound: "Record not found", badToken: (401, "The access token is invalid")),
        "gotosocial": Expected(
            nodeInfo: [("2.0", "/nodeinfo/2.0")], software: "gotosocial", softwareVersion: "0.16.0+git-f1cbf6f",
            instanceVersion: "0.16.0+git-f1cbf6f", idPattern: "^0[0-9A-HJKMNP-TV-Z]{25}$", linkHeaderName: "Link",
            nextOnLastPage: true, notFound: "Not Found: record not found",
            badToken: (401, "Unauthorized: the access token is invalid")),
        "pleroma": Expected(
            nodeInfo: [("2.0", "/nodeinfo/2.0.json"), ("2.1", "/nodeinfo/2.1.json")], software: "pleroma",
            softwareVersion: "2.7.0", instanceVersion: "2.7.2 (compatible; Pleroma 2.7.0)",
            idPattern: "^[0-9A-Za-z]{18}$", linkHeaderName: "link", nextOnLastPage: true,
            notFound: "Record not found", badToken: (403, "Invalid credentials.")),
        "akkoma": Expected(
            nodeInfo: [("2.0", "/nodeinfo/2.0.json"), ("2.1", "/nodeinfo/2.1.json")], software: "akkoma",
            softwareVersion: "3.10.4-0-gebfb617", instanceVersion: "2.7.2 (compatible; Akkoma 3.10.4-0-gebfb617)",
            idPattern: "^[0-9A-Za-z]{18}$", linkHeaderName: "link", nextOnLastPage: true,
            notFound: "Record not found", badToken: (403, "Invalid credentials.")),
        "sharkey": Expected(
            nodeInfo: [("2.1", "/nodeinfo/2.1"), ("2.0", "/nodeinfo/2.0")], software: "sharkey",
            softwareVersion: "2024.1.0", instanceVersion: "3.0.0 (compatible; Sharkey 2024.1.0)",
            idPattern: "^[0-9a-z]{16}$", linkHeaderName: "link", nextOnLastPage: true,
            notFound: "Record not found", badToken: (401, "The access token is invalid")),
    ]

    static let names = ["mastodon", "gotosocial", "pleroma", "akkoma", "sharkey"]

    static func flavour(_ name: String) throws -> SandboxFlavour {
        try #require(SandboxFlavour.named(name))
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }

    @Test("every flavour is named and there are five", arguments: names)
    func named(name: String) throws {
        #expect(try Self.flavour(name).name == name)
        #expect(SandboxFlavour.all.map(\.name) == Self.names)
        #expect(SandboxFlavour.named("misskey") == nil)
    }

    @Test("nodeinfo: the links and their hrefs, each document's schema and software; instance's version",
          arguments: names)
    func nodeInfoAndVersion(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            let connection = TestHTTPConnection(port: server.port)
            let discovery = try #require(await connection.send("GET", "/.well-known/nodeinfo").json)
            let links = try #require(discovery["links"] as? [[String: Any]])
            #expect(links.compactMap { $0["rel"] as? String }
                == expected.nodeInfo.map { "http://nodeinfo.diaspora.software/ns/schema/" + $0.schema })
            let origin = String(server.mastodonBaseURL.dropLast())
            #expect(links.compactMap { $0["href"] as? String } == expected.nodeInfo.map { origin + $0.path })
            for (schema, path) in expected.nodeInfo {
                let document = try #require(await connection.send("GET", path).json, "\(path)")
                #expect(document["version"] as? String == schema)
                let software = try #require(document["software"] as? [String: Any])
                #expect(software["name"] as? String == expected.software)
                #expect(software["version"] as? String == expected.softwareVersion)
                // 2.0's schema has no repository or homepage; Akkoma's and Sharkey's 2.1 have one.
                if schema == "2.0" { #expect(software["repository"] == nil && software["homepage"] == nil) }
                #expect(document["protocols"] as? [String] == ["activitypub"])
            }
            // A schema this server does not serve is not there.
            let other = expected.nodeInfo.contains { $0.path.hasSuffix(".json") } ? "/nodeinfo/2.0" : "/nodeinfo/2.0.json"
            #expect(await connection.send("GET", other).status == 404)

            let v1 = try #require(await server.mastodon("instance").json)
            #expect(v1["version"] as? String == expected.instanceVersion)
            let v2 = try #require(await server.mastodon("v2/instance").json)
            #expect(v2["version"] as? String == expected.instanceVersion)
            // Only Mastodon 4.3 names its API version.
            #expect((v2["api_versions"] as? [String: Any])?["mastodon"] as? Int == (name == "mastodon" ? 2 : nil))
        }
    }

    @Test("ids are the flavour's shape; --id-style overrides them and nothing else", arguments: names)
    func ids(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            let page = await server.mastodon("timelines/public?limit=5")
            #expect(page.stringIDs.count == 5)
            for status in page.array {
                let id = try #require(status["id"] as? String)
                #expect(Self.matches(id, expected.idPattern), "\(id)")
                let account = try #require((status["account"] as? [String: Any])?["id"] as? String)
                #expect(Self.matches(account, expected.idPattern), "\(account)")
                // Each id takes the client back to its status.
                #expect(await server.mastodon("statuses/\(id)").json?["id"] as? String == id)
            }
        }
        let overridden = SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name), idStyle: .ulid)
        try await withSandbox(overridden) { server in
            let ids = await server.mastodon("timelines/public?limit=5").stringIDs
            #expect(ids.count == 5 && ids.allSatisfy { Self.matches($0, "^0[0-9A-HJKMNP-TV-Z]{25}$") }, "\(ids)")
            let instance = await server.mastodon("instance").json
            #expect(instance?["version"] as? String == expected.instanceVersion)
        }
    }

    @Test("the paging header: its name as the server writes it, the last page's links, none on an empty page",
          arguments: names)
    func pagingHeader(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            let first = await server.mastodon("timelines/public?limit=10")
            #expect(first.headerNames.contains(expected.linkHeaderName), "\(first.headerNames)")
            #expect(!first.headerNames.contains(expected.linkHeaderName == "Link" ? "link" : "Link"))
            // Walk by rel="next" as a client does, until there is none or a page is empty.
            var pages = [first]
            while pages.count < 20, !pages.last!.stringIDs.isEmpty, let next = pages.last!.links["next"] {
                pages.append(await server.follow(next))
            }
            let seen = pages.flatMap(\.stringIDs)
            #expect(Set(seen).count == seen.count && seen.count > 10)
            let last = try #require(pages.last { !$0.stringIDs.isEmpty })
            #expect(last.links["prev"] != nil)
            #expect((last.links["next"] != nil) == expected.nextOnLastPage, "\(last.headers)")
            if expected.nextOnLastPage {
                // Past the last page: nothing, and no header at all.
                let beyond = try #require(pages.last)
                #expect(beyond.status == 200 && beyond.stringIDs.isEmpty)
                #expect(beyond.headers["link"] == nil)
            } else {
                #expect(pages.last?.stringIDs == last.stringIDs)
            }
            let empty = await server.mastodon("timelines/public?remote=true")
            #expect(empty.stringIDs.isEmpty && empty.headers["link"] == nil)
        }
    }

    @Test("a route for a signed-in user refuses a request without a token, before anything else, as the server words it",
          arguments: names)
    func signedInRoutes(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            let status = server.configuration.idStyle.render(4_000_000_000_000_010)
            let routes = [("GET", "timelines/home"), ("GET", "accounts/verify_credentials"), ("POST", "statuses"),
                          ("POST", "statuses/\(status)/favourite"), ("DELETE", "statuses/\(status)"),
                          ("GET", "notifications"), ("POST", "notifications/clear"), ("GET", "bookmarks"),
                          ("GET", "lists"), ("GET", "scheduled_statuses"), ("POST", "v2/media"), ("GET", "v2/filters"),
                          // No such filter, nor such a path under filters: the token is asked for first.
                          ("DELETE", "v2/filters/nothing"), ("PATCH", "v2/filters/nothing/else")]
            for (method, path) in routes {
                let refused = await server.mastodon(method, path)
                #expect(refused.status == expected.badToken.0, "\(method) \(path)")
                #expect(refused.mastodonError == expected.badToken.1, "\(method) \(path)")
            }
            // A route open to anyone answers without a token.
            #expect(await server.mastodon("statuses/\(status)").status == 200)
            #expect(await server.mastodon("statuses/\(status)/favourited_by").status == 200)
        }
    }

    @Test("favourited_by and reblogged_by page as every list does: the flavour's header name, its last page's links",
          arguments: names)
    func whoFavouritedPaging(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            let id = server.configuration.idStyle.render(4_000_000_000_000_010)
            for account in server.accounts.prefix(2) {
                #expect(await server.mastodon("POST", "statuses/\(id)/favourite", token: account.token).status == 200)
                #expect(await server.mastodon("POST", "statuses/\(id)/reblog", token: account.token).status == 200)
            }
            for list in ["favourited_by", "reblogged_by"] {
                // Both accounts on one page: the last.
                let page = await server.mastodon("statuses/\(id)/\(list)")
                #expect(page.stringIDs.count == 2, "\(list)")
                #expect(page.headerNames.contains(expected.linkHeaderName), "\(list): \(page.headerNames)")
                #expect(!page.headerNames.contains(expected.linkHeaderName == "Link" ? "link" : "Link"), "\(list)")
                #expect(page.links["prev"] != nil, "\(list)")
                #expect((page.links["next"] != nil) == expected.nextOnLastPage, "\(list): \(page.headers)")
            }
        }
    }

    @Test("errors: an unknown status's 404 and a bad token's status, worded as the server words them",
          arguments: names)
    func errors(name: String) async throws {
        let expected = try #require(Self.expected[name])
        try await withSandbox(SandboxConfiguration(statuses: 30, flavour: try Self.flavour(name))) { server in
            // A well-formed id of this server's that names no status.
            let unknown = await server.mastodon("statuses/" + server.configuration.idStyle.render(4_000_000_000_999_999))
            #expect(unknown.status == 404)
            #expect(unknown.mastodonError == expected.notFound)
            let badToken = await server.mastodon("timelines/home", token: "not-a-token")
            #expect(badToken.status == expected.badToken.0)
            #expect(badToken.mastodonError == expected.badToken.1)
            // Where a user is needed and no token came, Pleroma's answer is the same 403.
            let none = await server.mastodon("timelines/home")
            if expected.badToken.0 == 403 {
                #expect(none.status == 403 && none.mastodonError == "Invalid credentials.")
            } else {
                #expect(none.status == 401)
            }
        }
    }

    @Test("extra fields: pleroma {…} with emoji_reactions, akkoma {…}, GoToSocial's interaction_policy; Mastodon's none",
          arguments: names)
    func extraFields(name: String) async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200, flavour: try Self.flavour(name))) { server in
            let statuses = await server.mastodon("timelines/public?limit=40", token: server.token).array
            #expect(statuses.count == 40)
            let pleroma = statuses.compactMap { $0["pleroma"] as? [String: Any] }
            let pleromaFamily = name == "pleroma" || name == "akkoma"
            #expect(pleroma.count == (pleromaFamily ? 40 : 0))
            if let first = pleroma.first {
                #expect((first["content"] as? [String: Any])?["text/plain"] is String)
                #expect(first["emoji_reactions"] is [Any])
                #expect(first["local"] as? Bool == true)
                // Some statuses carry reactions, as a Pleroma timeline does.
                let reactions = pleroma.flatMap { $0["emoji_reactions"] as? [[String: Any]] ?? [] }
                #expect(!reactions.isEmpty)
                #expect(reactions.allSatisfy { $0["name"] as? String == "❤️" && ($0["count"] as? Int ?? 0) > 0 })
            }
            let account = try #require(statuses.first?["account"] as? [String: Any])
            #expect((account["pleroma"] as? [String: Any])?["is_admin"] as? Bool == (pleromaFamily ? false : nil))
            let akkoma = statuses.compactMap { $0["akkoma"] as? [String: Any] }
            #expect(akkoma.count == (name == "akkoma" ? 40 : 0))
            #expect(akkoma.allSatisfy { ($0["source"] as? [String: Any])?["mediaType"] as? String == "text/plain" })
            #expect((account["akkoma"] != nil) == (name == "akkoma"))
            let policies = statuses.compactMap { $0["interaction_policy"] as? [String: Any] }
            #expect(policies.count == (name == "gotosocial" ? 40 : 0))
            #expect(policies.allSatisfy {
                ($0["can_reply"] as? [String: Any])?["always"] as? [String] == ["public", "me"]
            })
        }
    }

    @Test("notification types: Pleroma's family sends pleroma:emoji_reaction with its emoji, and filters by it",
          arguments: names)
    func notificationTypes(name: String) async throws {
        try await withSandbox(SandboxConfiguration(flavour: try Self.flavour(name))) { server in
            let reactions = await server.mastodon("notifications?types[]=pleroma:emoji_reaction&limit=80",
                                                  token: server.token)
            #expect(reactions.status == 200)
            let favourites = await server.mastodon("notifications?types[]=favourite&limit=80", token: server.token).array
            #expect(!favourites.isEmpty)
            #expect(favourites.allSatisfy { $0["type"] as? String == "favourite" && $0["emoji"] == nil })
            if name == "pleroma" || name == "akkoma" {
                #expect(!reactions.array.isEmpty)
                for reaction in reactions.array {
                    #expect(reaction["type"] as? String == "pleroma:emoji_reaction")
                    #expect(reaction["emoji"] as? String == "❤️")
                    #expect(reaction["status"] is [String: Any])
                    #expect((reaction["pleroma"] as? [String: Any])?["is_seen"] is Bool)
                }
                let others = await server.mastodon("notifications?exclude_types[]=pleroma:emoji_reaction&limit=80",
                                                   token: server.token).array
                #expect(!others.isEmpty && others.allSatisfy { $0["type"] as? String != "pleroma:emoji_reaction" })
                // A favourite made now is a favourite, whatever its id: only generated ones are reactions.
                let own = try #require(await server.mastodon(
                    "accounts/\(server.configuration.idStyle.render(Int64(server.accounts[0].uid)))/statuses?exclude_reblogs=true&limit=8").array)
                for status in own {
                    let id = try #require(status["id"] as? String)
                    _ = await server.mastodon("POST", "statuses/\(id)/favourite", token: "sandbox-token-2")
                    let newest = await server.mastodon("notifications?limit=1", token: server.token).array.first
                    #expect(newest?["type"] as? String == "favourite", "\(id)")
                }
            } else {
                #expect(reactions.array.isEmpty)
            }
        }
    }

    @Test("dismissing by body (pre-3.0 Mastodon, which Mastodon.py sends to Pleroma's version): Pleroma's family only",
          arguments: names)
    func dismissByBody(name: String) async throws {
        try await withSandbox(SandboxConfiguration(statuses: 200, flavour: try Self.flavour(name))) { server in
            let first = try #require(await server.mastodon("notifications?limit=1", token: server.token).stringIDs.first)
            let dismissed = await server.mastodon("POST", "notifications/dismiss", token: server.token, form: "id=\(first)")
            let kept = name == "pleroma" || name == "akkoma"
            #expect(dismissed.status == (kept ? 200 : 404))
            let now = await server.mastodon("notifications?limit=1", token: server.token).stringIDs.first
            #expect((now != first) == kept)
        }
    }

    @Test("streaming transports in the table: GoToSocial WebSocket only, the others both", arguments: names)
    func streamingTransports(name: String) throws {
        let transports = try Self.flavour(name).streamingTransports
        #expect(transports == (name == "gotosocial" ? .webSocket : .both))
    }
}
