/// Lists (`List`: `id`, `title`, `replies_policy`, `exclusive`) and arrays of accounts.
extension MastodonRenderer {
    func listJSON(_ list: SandboxList) -> [UInt8] {
        var json = JSONWriter(capacity: 120)
        writeList(list, into: &json)
        return json.bytes
    }

    /// `[List, …]`.
    func lists(_ lists: [SandboxList]) -> [UInt8] {
        array(lists, itemBytes: 120) { writeList($0, into: &$1) }
    }

    private func writeList(_ list: SandboxList, into json: inout JSONWriter) {
        json.objectStart()
        json.member("id", ids.render(Int64(list.id)))
        json.member("title", list.title)
        json.member("replies_policy", list.repliesPolicy)
        json.member("exclusive", list.exclusive)
        json.objectEnd()
    }
}
