import Testing
import WshDataController

/// A toggle's call is built from its declaration alone: the id goes into the
/// path percent-encoded (an id from a server never becomes a path of its own),
/// or into the form field the API names; help reads the same declaration.
@Suite("StatusToggle: one declaration, each API's call")
struct StatusToggleTests {
    @Test("an id in the path is percent-encoded; a Weibo call sends it as its form field; help words each")
    func calls() throws {
        let mastodon = try #require(StatusToggle.favorite.calls["mastodon"])
        let sent = mastodon.on.endpoint(id: "12/../34?x=1")
        #expect(sent.path == "api/v1/statuses/12%2F..%2F34%3Fx%3D1/favourite")
        #expect(sent.parameters.isEmpty)
        #expect(mastodon.off.description == "POST /api/v1/statuses/:id/unfavourite")
        let weibo = try #require(StatusToggle.favorite.calls["weibo"])
        let form = weibo.on.endpoint(id: "4000000000001000")
        #expect(form.path == "favorites/create.json")
        #expect(form.parameters.map(\.0) == ["id"] && form.parameters.map(\.1) == ["4000000000001000"])
        #expect(weibo.on.description == "POST favorites/create.json (id)")
        #expect(StatusToggle.bookmark.calls["weibo"] == nil)
    }

    @Test("the words of notes and history come from the declaration")
    func words() {
        #expect(StatusToggle.favorite.command(false) == "unfavorite")
        #expect(StatusToggle.favorite.doing(true) == "favouriting" && StatusToggle.bookmark.doing(false) == "unbookmarking")
        #expect(StatusToggle.bookmark.past(false) == "unbookmarked")
    }
}
