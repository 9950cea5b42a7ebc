import Foundation
import Testing
import WshModel
import WshRequest
import WshSandbox

/// `POST statuses/upload.json`: a status with one picture, multipart
/// (`status`, the file `pic`), as Weibo's API takes it.
@Suite("statuses/upload.json")
struct WeiboUploadTests {
    private func upload(_ server: SandboxServer, _ parts: [MultipartPart]) async throws -> HTTPResponse {
        try await CurlHTTPClient(secrets: [server.token]).send(HTTPRequest(
            method: .post, url: server.baseURL + "statuses/upload.json",
            headers: [HTTPHeader("Authorization", "OAuth2 " + server.token)], multipart: parts))
    }

    private func file(_ bytes: [UInt8], _ ext: String) throws -> String {
        let path = NSTemporaryDirectory() + "wsh-upload-\(UUID().uuidString).\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 32)

    @Test("a status with its picture: pic_urls and thumbnail_pic name it, the timeline carries it")
    func postsAPicture() async throws {
        try await withSandbox { server in
            let path = try file(Self.png, "png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let answer = try await upload(server, [MultipartPart("status", .text("一张图")),
                                                   MultipartPart("pic", .file(path: path, filename: "a.png", contentType: "image/png"))])
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            let status = try ModelDecoding.decode(Status.self, from: answer.body)
            #expect(status.text == "一张图")
            #expect(status.picURLs.count == 1)
            #expect(status.thumbnailPic != nil)
            let mine = await server.get("statuses/user_timeline.json", "count=1")
            let first = try #require((mine.json?["statuses"] as? [[String: Any]])?.first)
            #expect((first["pic_urls"] as? [Any])?.count == 1)
        }
    }

    @Test("refused as Weibo refuses: no pic 10008, not a JPG, GIF or PNG 20005, a form that is not multipart 10008, no status 10008")
    func refusals() async throws {
        try await withSandbox { server in
            let noPicture = try await upload(server, [MultipartPart("status", .text("x"))])
            #expect(noPicture.status == 400)
            #expect(String(decoding: noPicture.body, as: UTF8.self).contains("\"error_code\":10008"))
            let text = try file(Array("not a picture".utf8), "png")
            defer { try? FileManager.default.removeItem(atPath: text) }
            let notPicture = try await upload(server, [MultipartPart("status", .text("x")),
                                                       MultipartPart("pic", .file(path: text, filename: "a.png", contentType: "image/png"))])
            #expect(String(decoding: notPicture.body, as: UTF8.self).contains("\"error_code\":20005"))
            let path = try file(Self.png, "png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let noStatus = try await upload(server, [MultipartPart("pic", .file(path: path, filename: "a.png", contentType: "image/png"))])
            #expect(String(decoding: noStatus.body, as: UTF8.self).contains("\"error_code\":10008"))
            let form = await server.post("statuses/upload.json", form: "status=x")
            #expect(form.status == 400)
            #expect(form.text.contains("multipart"))
        }
    }
}
