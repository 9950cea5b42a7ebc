import Testing
import WshArchive
@testable import WshDataController

/// What `archive media` keeps and where a redirect goes: the judgement of a
/// file from its type and first bytes, without a server.
@Suite("archive media's checks")
struct ArchiveMediaCheckTests {
    private static func kept(_ type: String?, _ head: [UInt8]) -> String? {
        if case .success(let kept) = ArchiveMediaType.checked(contentType: type, head: head) { return kept }
        return nil
    }

    @Test("a type and the first bytes that agree are kept; HTML, no type, or bytes of another type are refused")
    func typeAndBytesAgree() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        let mp4 = [0, 0, 0, 0x18] + Array("ftypisom".utf8)
        let webp = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBP".utf8)
        #expect(Self.kept("image/jpeg", jpeg) == "image/jpeg")
        #expect(Self.kept("image/pjpeg", jpeg) == "image/jpeg")
        #expect(Self.kept("image/PNG; charset=binary", png) == "image/png")
        #expect(Self.kept("video/mp4", mp4) == "video/mp4")
        #expect(Self.kept("video/quicktime", mp4) == "video/quicktime")
        #expect(Self.kept("image/webp", webp) == "image/webp")
        #expect(Self.kept("audio/mpeg", Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0, 0, 0]) == "audio/mpeg")
        #expect(Self.kept("audio/mpeg", [0xFF, 0xFB, 0x90, 0x64] + Array(repeating: 0, count: 8)) == "audio/mpeg")

        #expect(Self.kept("image/jpeg", png) == nil)
        #expect(Self.kept(nil, png) == nil)
        #expect(Self.kept("application/octet-stream", png) == nil)
        let html = Array("<!DOCTYPE html>\n<html><head><title>Sign".utf8)
        guard case .failure(let refusal) = ArchiveMediaType.checked(contentType: "text/html; charset=utf-8", head: html) else {
            Issue.record("an HTML page was kept")
            return
        }
        #expect(refusal.line == "the server says it is text/html (it starts with <!DOCTYPE html>…)")
        guard case .failure(let lying) = ArchiveMediaType.checked(contentType: "image/png", head: html) else {
            Issue.record("an HTML page that says it is a PNG was kept")
            return
        }
        #expect(lying.line == "it says image/png, but its bytes are no picture, video or sound wsh knows (it starts with <!DOCTYPE html>…)")
    }

    @Test("a redirect's Location as a whole URL; the origin that says whether a file is on the API's host")
    func redirectsAndOrigins() {
        let base = "https://files.example/media/a/b.png?x=1"
        #expect(MediaDownload.resolve("https://cdn.example/c.png", against: base) == "https://cdn.example/c.png")
        #expect(MediaDownload.resolve("//cdn.example/c.png", against: base) == "https://cdn.example/c.png")
        #expect(MediaDownload.resolve("/c.png", against: base) == "https://files.example/c.png")
        #expect(MediaDownload.origin(of: "HTTPS://Files.Example:8443/x") == "https://files.example:8443")
        #expect(MediaDownload.origin(of: "http://127.0.0.1:8080/2/") == MediaDownload.origin(of: "http://127.0.0.1:8080/media/a.png"))
        #expect(MediaDownload.origin(of: "not a url") == "")
    }
}
