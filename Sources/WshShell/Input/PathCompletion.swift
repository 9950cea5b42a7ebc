import FoundationEssentials

/// File-path candidates for TAB, as shells give them: folders end in `/`,
/// hidden files only when the typed name starts with a dot.
enum PathCompletion {
    static func candidates(for typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let namePrefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let expanded = folderPart.hasPrefix("~/")
            ? FileManager.default.homeDirectoryForCurrentUser.path + folderPart.dropFirst() : folderPart
        let folder = expanded.isEmpty ? "." : expanded
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names
            .filter { $0.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name in
                var isFolder = false
                _ = FileManager.default.fileExists(atPath: folder + (folder.hasSuffix("/") ? "" : "/") + name, isDirectory: &isFolder)
                return folderPart + name + (isFolder ? "/" : "")
            }
    }
}
