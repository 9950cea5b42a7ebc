import Foundation
import Testing
@testable import WshDataController
import WshRequest
import WshTestSupport

/// Finding out which API answers: Weibo by its base, the Mastodon family by
/// nodeinfo, others refused, `api/v1/instance` for servers without nodeinfo.
@Suite("Dialect detection")
struct DialectDetectorTests {
    /// A server whose nodeinfo names `software` (nil: no nodeinfo), optionally linking `href` instead.
    private func server(software: (String, String)?, href: String = "https://social.example/nodeinfo/2.0",
                        instance: Bool = false) -> FakeHTTPClient {
        FakeHTTPClient { request in
            switch request.url {
            case "https://social.example/.well-known/nodeinfo" where software != nil:
                return .json(#"{"links":[{"rel":"http://nodeinfo.diaspora.software/ns/schema/2.0","href":"\#(href)"}]}"#)
            case href where software != nil:
                return .json(#"{"version":"2.0","software":{"name":"\#(software!.0)","version":"\#(software!.1)"},"protocols":["activitypub"]}"#)
            case "https://social.example/api/v1/instance" where instance:
                return .json(#"{"uri":"social.example","version":"4.3.1"}"#)
            default:
                return .json(#"{"error":"Not found"}"#, status: 404)
            }
        }
    }

    @Test("nodeinfo names the software: the Mastodon family speaks Mastodon's API", arguments: [
        ("mastodon", "4.3.1"), ("gotosocial", "0.17.3"), ("pleroma", "2.7.0"), ("akkoma", "3.13.2"), ("Hometown", "1.1.1"),
    ])
    func mastodonFamily(name: String, version: String) async throws {
        let found = try await DialectDetector.detect(base: "https://social.example/", http: server(software: (name, version)))
        #expect(found.dialect.name == "mastodon")
        #expect(found.software == ServerSoftware(name: name.lowercased(), version: version))
        #expect(found.software?.description == "\(name.lowercased()) \(version)")
    }

    @Test("software without a Mastodon API is refused in one line naming it (a Misskey whose instance does not answer too)",
          arguments: [("misskey", "Misskey"), ("firefish", "Firefish"), ("lemmy", "Lemmy")])
    func otherAPIsRefused(name: String, shown: String) async {
        do {
            _ = try await DialectDetector.detect(base: "https://social.example/", http: server(software: (name, "13.0")))
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.description.contains("runs \(shown) 13.0"))
            #expect(error.description.contains("wsh cannot talk to it"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("without nodeinfo, api/v1/instance tells Mastodon; without either it is Weibo; /2/ is Weibo without asking")
    func fallbacks() async throws {
        #expect(try await DialectDetector.detect(base: "https://social.example/", http: server(software: nil, instance: true)).dialect.name == "mastodon")
        #expect(try await DialectDetector.detect(base: "https://social.example/", http: server(software: nil)).dialect.name == "weibo")
        let asked = server(software: ("mastodon", "4.3.1"))
        #expect(try await DialectDetector.detect(base: "https://api.weibo.com/2/", http: asked).dialect.name == "weibo")
        #expect(asked.requests.isEmpty)
    }

    @Test("without nodeinfo, the instance's version names the software: Mastodon's own, or the one a compatible server names")
    func instanceVersion() {
        #expect(DialectDetector.software(fromInstanceVersion: "4.2.0") == ServerSoftware(name: "mastodon", version: "4.2.0"))
        #expect(DialectDetector.software(fromInstanceVersion: "2.7.2 (compatible; Pleroma 2.5.0)") == ServerSoftware(name: "pleroma", version: "2.5.0"))
        #expect(DialectDetector.software(fromInstanceVersion: "2.7.2 (compatible; Akkoma 3.13.2)") == ServerSoftware(name: "akkoma", version: "3.13.2"))
        #expect(DialectDetector.software(fromInstanceVersion: "") == ServerSoftware(name: "mastodon", version: nil))
        // A hostile version cannot smuggle control characters into `status`.
        #expect(DialectDetector.software(fromInstanceVersion: "4.2.0\u{1B}[2J").version == "4.2.02J")
    }

    @Test("a server that cannot be reached is not taken for Weibo: the failure is said, and nothing is decided")
    func unreachableIsNotWeibo() async {
        let down = FakeHTTPClient { (_: HTTPRequest) throws(RequestError) -> HTTPResponse in
            throw .transport(TransportFailure(kind: .refused, curlCode: 7, message: "Connection refused", url: "https://social.example/"))
        }
        await #expect(throws: RequestError.self) { _ = try await DialectDetector.detect(base: "https://social.example/", http: down) }
    }

    @Test("a nodeinfo link to another origin is never followed")
    func otherOriginIgnored() async throws {
        let http = server(software: ("misskey", "13"), href: "https://evil.example/nodeinfo/2.0", instance: true)
        let found = try await DialectDetector.detect(base: "https://social.example/", http: http)
        #expect(found.dialect.name == "mastodon" && found.software == ServerSoftware(name: "mastodon", version: "4.3.1"))
        #expect(!http.requests.contains { $0.url.contains("evil.example") })
    }
}
