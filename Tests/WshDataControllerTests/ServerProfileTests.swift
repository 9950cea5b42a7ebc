import Foundation
import Testing
@testable import WshDataController
import WshModel
import WshRequest
import WshTestSupport

/// Real servers' nodeinfo and instance bodies (Tests/WshModelTests/Fixtures/servers,
/// sources in its SOURCES.md): what detection names, what it speaks to, what it refuses.
@Suite("Server profiles from real nodeinfo and instance bodies")
struct ServerProfileTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WshModelTests/Fixtures/servers")

    static func body(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    /// A server at https://example.com/ whose `/.well-known/nodeinfo` is the
    /// Akkoma documentation's (2.0 and 2.1 links, `…/2.0.json`, `…/2.1.json`),
    /// serving `nodeinfo` (nil: no nodeinfo at all) as the 2.1 document and
    /// `instance` (nil: 404) at `api/v1/instance`.
    static func server(nodeinfo: String?, instance: String?) throws -> FakeHTTPClient {
        let links = try body("akkoma_doc_wellknown_nodeinfo")
        let document = try nodeinfo.map(body)
        let instanceBody = try instance.map(body)
        return FakeHTTPClient { request in
            switch request.url {
            case "https://example.com/.well-known/nodeinfo" where document != nil: return .json(links)
            case "https://example.com/nodeinfo/2.1.json" where document != nil: return .json(document!)
            case "https://example.com/nodeinfo/2.0.json": return .json(#"{"software":{"name":"wrong-one","version":"0"}}"#)
            case "https://example.com/api/v1/instance" where instanceBody != nil: return .json(instanceBody!)
            default: return .json(#"{"error":"Not Found"}"#, status: 404)
            }
        }
    }

    static func detect(nodeinfo: String?, instance: String?) async throws -> DialectDetector.Found {
        try await DialectDetector.detect(base: "https://example.com/", http: server(nodeinfo: nodeinfo, instance: instance))
    }

    @Test("a Mastodon API beside the server's own is spoken, named, and said to be a compatibility layer", arguments: [
        ("sharkey_nodeinfo_2_1", "sharkey_instance_v1",
         "Sharkey 2024.2.0-beta.12 through its Mastodon-compatible API (compatibility layer)"),
        ("firefish_nodeinfo_2_1", "firefish_instance_v1", "Firefish 20240523 through its Mastodon-compatible API (compatibility layer)"),
        ("iceshrimp_nodeinfo_2_1", "iceshrimp_instance_v1", "Iceshrimp 2023.12.7 through its Mastodon-compatible API (compatibility layer)"),
        ("iceshrimpnet_nodeinfo_2_1", "iceshrimpnet_instance_v1",
         "Iceshrimp.NET 2024.1-beta2.security3+e1d25a9231 through its Mastodon-compatible API (compatibility layer)"),
        ("catodon_nodeinfo_2_1", "catodon_instance_v1", "Catodon 24.04-dev.2 through its Mastodon-compatible API (compatibility layer)"),
        ("meisskey_nodeinfo_2_1", "sharkey_instance_v1",
         "Meisskey 10.102.699-m544 through its Mastodon-compatible API (compatibility layer)"),
        ("pixelfed_nodeinfo_2_0", "pixelfed_instance_v1", "Pixelfed 0.12.3 through its Mastodon-compatible API (compatibility layer)"),
        ("friendica_nodeinfo_2_0", "friendica_instance_v1",
         "Friendica 2024.03-1557 through its Mastodon-compatible API (compatibility layer)"),
    ])
    func compatibilityLayers(nodeinfo: String, instance: String, summary: String) async throws {
        let found = try await Self.detect(nodeinfo: nodeinfo, instance: instance)
        #expect(found.dialect.name == "mastodon")
        let profile = try #require(found.profile)
        #expect(profile.description == summary)
        #expect(profile.compatibilityLayer)
        #expect(found.dialect.serverName == profile.software.name)
    }

    @Test("servers whose own API is Mastodon's are named with the Mastodon version they answer as", arguments: [
        ("akkoma_nodeinfo_2_0", "akkoma_instance_v1", "Akkoma 3.12.2-0-g26a91d5 (Mastodon API, as Mastodon 2.7.2)"),
        ("pleroma_nodeinfo_2_0", "pleroma_instance_v1", "Pleroma 2.6.3 (Mastodon API, as Mastodon 2.7.2)"),
        ("pleroma_nodeinfo_2_0_shitposterclub", "pleroma_instance_v1_gleasonator",
         "Pleroma 2.5.51-9314-g9528fc46-shitposterclub (Mastodon API, as Mastodon 2.7.2)"),
        ("gotosocial_nodeinfo_2_0", "gotosocial_instance_v1_testrig", "GoToSocial 0.16.0+git-f1cbf6f (Mastodon API)"),
        ("mastodon_nodeinfo_2_0", "mastodon_instance_v2_4_3", "Mastodon 4.3.0-nightly.2024-07-05-security (Mastodon API v2)"),
    ])
    func mastodonFamily(nodeinfo: String, instance: String, summary: String) async throws {
        let found = try await Self.detect(nodeinfo: nodeinfo, instance: instance)
        let profile = try #require(found.profile)
        #expect(profile.description == summary)
        #expect(!profile.compatibilityLayer)
        #expect(profile.lacking.isEmpty, "\(profile.lacking)")
        #expect(found.dialect.capabilities.schedulesStatuses && found.dialect.capabilities.editsStatuses)
    }

    @Test("Mastodon 4.3's api_versions is kept")
    func apiVersions() async throws {
        let found = try await Self.detect(nodeinfo: "mastodon_nodeinfo_2_0", instance: "mastodon_instance_v2_4_3")
        #expect(found.profile?.mastodonAPIVersion == 2)
        #expect(found.profile?.mastodonVersion == "4.3.0-nightly.2024-07-05-security")
    }

    @Test("software with no Mastodon API is refused in one line naming it, without asking its instance", arguments: [
        ("lemmy_nodeinfo_2_0", "Lemmy 0.18.5"), ("peertube_nodeinfo_2_0", "PeerTube 5.0.0"),
    ])
    func noMastodonAPI(nodeinfo: String, named: String) async throws {
        let http = try Self.server(nodeinfo: nodeinfo, instance: "sharkey_instance_v1")
        do {
            _ = try await DialectDetector.detect(base: "https://example.com/", http: http)
            Issue.record("\(nodeinfo) was accepted")
        } catch {
            #expect(error.description.contains("runs \(named) (its nodeinfo says so), which has no Mastodon API"), "\(error.description)")
            #expect(error.description.contains("wsh cannot talk to it") && !error.description.contains("\n"))
        }
        #expect(!http.requests.contains { $0.url.hasSuffix("api/v1/instance") })
    }

    @Test("a Misskey-family server whose api/v1/instance does not answer is refused in one line")
    func layerWithoutInstance() async throws {
        do {
            _ = try await Self.detect(nodeinfo: "sharkey_nodeinfo_2_1", instance: nil)
            Issue.record("a Sharkey without a Mastodon API was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains("runs Sharkey 2024.2.0-beta.12 (its nodeinfo says so), whose Mastodon-compatible API "
                + "does not answer here"), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test("what a compatibility layer lacks comes from the table and the instance, and is off in its capabilities")
    func lacking() async throws {
        let sharkey = try #require(try await Self.detect(nodeinfo: "sharkey_nodeinfo_2_1", instance: "sharkey_instance_v1").profile)
        #expect(sharkey.lacking == ["scheduled statuses", "status edits"])
        #expect(!sharkey.capabilities.schedulesStatuses && !sharkey.capabilities.editsStatuses)
        #expect(sharkey.capabilities.notifications && sharkey.capabilities.polls && sharkey.capabilities.streaming)
        // Pixelfed's instance says `"streaming_api": null`.
        let pixelfed = try #require(try await Self.detect(nodeinfo: "pixelfed_nodeinfo_2_0", instance: "pixelfed_instance_v1").profile)
        #expect(pixelfed.lacking == ["scheduled statuses", "lists", "a streaming API"])
        #expect(!pixelfed.capabilities.lists && !pixelfed.capabilities.streaming && pixelfed.capabilities.bookmarks)
        let friendica = try #require(try await Self.detect(nodeinfo: "friendica_nodeinfo_2_0", instance: "friendica_instance_v1").profile)
        #expect(friendica.lacking == ["a streaming API"])
    }

    @Test("without nodeinfo, the instance's version names the server, whatever its form", arguments: [
        ("akkoma_instance_v1", "Akkoma 3.10.4-0-gebfb617 (Mastodon API, as Mastodon 2.7.2)"),
        ("akkoma_instance_v1_3_3", "Akkoma 3.3.1-0-gaf90a4e51 (Mastodon API, as Mastodon 2.7.2)"),
        ("pleroma_instance_v1", "Pleroma 2.5.0 (Mastodon API, as Mastodon 2.7.2)"),
        ("pleroma_instance_v1_gleasonator", "Pleroma 2.4.51-1129-gf2cfef09-gleasonator (Mastodon API, as Mastodon 2.7.2)"),
        ("sharkey_instance_v1", "Sharkey 2024.1.0.beta1 through its Mastodon-compatible API (compatibility layer)"),
        ("firefish_instance_v1", "Firefish 1.0.5-dev20 through its Mastodon-compatible API (compatibility layer)"),
        ("firefish_instance_v2", "Firefish 20240909 through its Mastodon-compatible API (compatibility layer)"),
        ("iceshrimp_instance_v1", "Iceshrimp 2023.12.1 through its Mastodon-compatible API (compatibility layer)"),
        ("iceshrimpnet_instance_v1",
         "Iceshrimp.NET 2024.1-beta2.security3+e1d25a9231 through its Mastodon-compatible API (compatibility layer)"),
        ("catodon_instance_v1", "Catodon 24.01-dev through its Mastodon-compatible API (compatibility layer)"),
        ("pixelfed_instance_v1", "Pixelfed 0.12.3 through its Mastodon-compatible API (compatibility layer)"),
        ("pixelfed_instance_v1_0_11", "Pixelfed 0.11.4 through its Mastodon-compatible API (compatibility layer)"),
        ("friendica_instance_v1", "Friendica 2023.05 through its Mastodon-compatible API (compatibility layer)"),
        ("mitra_instance_v1", "Mitra 0.4.0 (Mastodon API, as Mastodon 3.0.0)"),
        ("mastodon_instance_v2_4_3", "Mastodon 4.3.0+pr-32577-ba659d5 (Mastodon API v2)"),
        // Versions that name no software: taken as Mastodon's, as they read.
        ("friendica_instance_v1_2022", "Mastodon 2022.05-dev"),
        ("gotosocial_instance_v1_0_2", "Mastodon 0.2.0"),
        ("gotosocial_instance_v1_testrig", "Mastodon 0.0.0-testrig"),
    ])
    func instanceOnly(instance: String, summary: String) async throws {
        let found = try await Self.detect(nodeinfo: nil, instance: instance)
        #expect(found.dialect.name == "mastodon")
        #expect(found.profile?.description == summary)
    }

    @Test("every version string's parts: the Mastodon version, the software and its version")
    func versionStrings() {
        let cases: [(String, String?, String?, String?)] = [
            ("2.7.2 (compatible; Akkoma 3.10.4-0-gebfb617)", "2.7.2", "akkoma", "3.10.4-0-gebfb617"),
            ("4.2.1 (compatible; Iceshrimp.NET/2024.1-beta2.security3+e1d25a9231)", "4.2.1", "iceshrimp.net",
             "2024.1-beta2.security3+e1d25a9231"),
            ("3.0.0 (compatible; Sharkey 2024.1.0.beta1; like Akkoma)", "3.0.0", "sharkey", "2024.1.0.beta1"),
            ("0.16.0+git-f1cbf6f", nil, nil, nil),
            ("2022.05-dev", nil, nil, nil),
        ]
        for (text, mastodon, name, version) in cases {
            let parsed = InstanceVersion(text)
            #expect(parsed.mastodon == mastodon, "\(text)")
            #expect(parsed.software?.name == name && parsed.software?.version == version, "\(text)")
        }
        #expect(InstanceVersion("0.16.0+git-f1cbf6f").bare == "0.16.0+git-f1cbf6f")
        #expect(InstanceVersion("2022.05-dev").bare == "2022.05-dev")
    }

    @Test("a nodeinfo index with one 2.0 link on the server's own origin (Pleroma's) is followed")
    func pleromaIndex() async throws {
        let index = try Self.body("pleroma_wellknown_nodeinfo")
        let document = try Self.body("pleroma_nodeinfo_2_0")
        let http = FakeHTTPClient { request in
            switch request.url {
            case "https://pleroma.robertoszek.xyz/.well-known/nodeinfo": return .json(index)
            case "https://pleroma.robertoszek.xyz/nodeinfo/2.0": return .json(document)
            default: return .json(#"{"error":"Not Found"}"#, status: 404)
            }
        }
        let found = try await DialectDetector.detect(base: "https://pleroma.robertoszek.xyz/", http: http)
        #expect(found.profile?.description == "Pleroma 2.6.3 (Mastodon API)")
    }
}
