/// Lists (`List`: `id`, `title`, `replies_policy`, `exclusive`) and arrays of accounts.
extension MastodonRenderer {
    func listJSON(_ list: SandboxList) -> [UInt8] {
        JSONWriter.bytes(capacity: 120) { writeList(list, into: &$0) }
    }

    /// `[List, …]`.
    func lists(_ lists: [SandboxList]) -> [UInt8] {
        array(lists, itemBytes: 120, writeList)
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
