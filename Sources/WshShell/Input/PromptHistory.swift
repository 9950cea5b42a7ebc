import CEditLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The prompt's history: the entries Up and Down walk through (libedit's, in
/// memory) and the history file that keeps them across sessions.
///
/// The file is shared by sessions: each appends the lines typed in it, one
/// entry each time one is entered (under a lock), and never writes back the
/// lines it loaded, so two sessions never overwrite or repeat each other's
/// lines. Nothing is left to write at exit: Ctrl-D, `exit` and a signal leave
/// the same file. It is trimmed to its newest `limit` entries once it grows
/// past twice that.
///
/// The file and its folder are never reached through a symbolic link: a link
/// there is named once and the session goes on without a history file.
final class PromptHistory {
    /// libedit's history, for `EditLineSource` to hand to the line editor.
    let handle: OpaquePointer
    /// Where this session appends its lines; nil once writing there failed.
    private(set) var path: String?
    private let redact: (String) -> String
    private let warn: (String) -> Void
    /// The last entry typed in this session: typed again at once, it is stored once.
    private var lastEntry: String?
    private var appendedSinceTrim = 0

    /// Entries kept in memory and, after a trim, in the file.
    static let limit: Int32 = 1000

    /// The history of a new session: the file's entries loaded, the file then
    /// appended to. Throws when libedit cannot be loaded.
    ///
    /// - Parameters:
    ///   - path: where entries persist; nil keeps them in memory only.
    ///   - redact: applied to every entry before it is stored, so a secret typed
    ///     at the prompt never reaches the history file.
    ///   - warn: told, once, when the history file cannot be kept (the session
    ///     then goes on without it), and when its folder was made private.
    init(path: String?, redact: @escaping (String) -> String = { $0 },
         warn: @escaping (String) -> Void) throws(LineEditorUnavailable) {
        if let problem = wsh_edit_load() { throw LineEditorUnavailable(reason: String(cString: problem)) }
        // libedit reads and writes the file's entries in the locale's encoding.
        EditLineSource.configureLocale()
        handle = wsh_history_init()
        self.path = path
        self.redact = redact
        self.warn = warn
        wsh_history_set_size(handle, Self.limit)
        wsh_history_set_unique(handle, 1)
        if let path {
            if let problem = Self.folderProblem(of: path) {
                refuse(problem)
            } else if let problem = makePrivate(folderOf: path) {
                refuse(problem)
            } else if wsh_history_check(path) != 0 {
                failed(errno)
            } else {
                trim()
                // A file libedit cannot read (empty, or not a history file) starts the session with no entries.
                _ = wsh_history_load(handle, path)
            }
        }
    }

    deinit {
        wsh_history_end(handle)
    }

    /// Records an entry typed at the prompt: in memory, and appended to the file.
    func remember(_ entry: String) {
        let trimmed = entry.trimmingTrailingWhitespace()
        guard !trimmed.isEmpty else { return }
        let stored = redact(trimmed)
        guard stored != lastEntry else { return }
        lastEntry = stored
        _ = wsh_history_enter(handle, stored)
        guard let path else { return }
        // This line alone, never the history in memory (which holds the lines loaded at start).
        guard wsh_history_append(path, stored) == 0 else { return failed(errno) }
        appendedSinceTrim += 1
        if appendedSinceTrim >= Self.limit { trim() }
    }

    /// The entries in memory, oldest first: what Up walks back through.
    var entries: [String] { Self.entries(of: handle) }

    /// The entries the file at `path` holds, oldest first, repeats kept: what
    /// libedit reads back from it.
    static func entries(inFile path: String) throws(LineEditorUnavailable) -> [String] {
        if let problem = wsh_edit_load() { throw LineEditorUnavailable(reason: String(cString: problem)) }
        EditLineSource.configureLocale()
        let history = wsh_history_init()!
        defer { wsh_history_end(history) }
        wsh_history_set_size(history, Int32.max)
        _ = wsh_history_load(history, path)
        return entries(of: history)
    }

    private static func entries(of history: OpaquePointer) -> [String] {
        var entries: [String] = []
        var entry = wsh_history_oldest(history)
        while let text = entry {
            entries.append(String(cString: text))
            entry = wsh_history_newer(history)
        }
        return entries
    }

    /// Keeps the file's newest entries once it has grown past twice the limit.
    private func trim() {
        guard let path else { return }
        appendedSinceTrim = 0
        if wsh_history_trim(path, Self.limit, 2 * Self.limit) != 0 { failed(errno) }
    }

    /// Says once why the file failed, and keeps none from now on.
    private func failed(_ code: Int32) {
        guard let path else { return }
        refuse(Self.fileProblem(at: path, code: code))
    }

    /// Says once why history cannot be kept, and keeps none from now on.
    private func refuse(_ problem: String) {
        guard let path else { return }
        self.path = nil
        warn("cannot keep history in \(path): \(problem); this session has no history file")
    }

    /// Why the history file's folder cannot hold it, or nil: it must be a
    /// folder of this user's, not a link to one (whose target anyone who could
    /// plant the link chose).
    static func folderProblem(of path: String) -> String? {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !folder.isEmpty else { return nil }
        var info = stat()
        guard lstat(folder, &info) == 0 else { return "\(folder): \(String(cString: strerror(errno)))" }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "its folder \(folder) is a symbolic link, which wsh does not follow"
        case S_IFDIR: break
        default: return "\(folder) is not a folder"
        }
        if info.st_uid != geteuid() { return "its folder \(folder) belongs to another user" }
        return nil
    }

    /// Makes the folder of `path` (checked by `folderProblem`) 0700 if others
    /// may read or enter it, saying so; why it could not, or nil.
    private func makePrivate(folderOf path: String) -> String? {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var info = stat()
        guard !folder.isEmpty, lstat(folder, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 != 0 else { return nil }
        guard chmod(folder, 0o700) == 0 else {
            return "cannot make its folder \(folder) private (0700): \(String(cString: strerror(errno)))"
        }
        warn("made \(folder) private (0700; it was \(String(mode, radix: 8))): it holds the history")
        return nil
    }

    /// What went wrong with the file at `path`, given the errno of the failed call.
    static func fileProblem(at path: String, code: Int32) -> String {
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFLNK: return "it is a symbolic link, which wsh does not follow"
            case S_IFREG: break
            default: return "it is not a regular file"
            }
        }
        return String(cString: strerror(code))
    }
}
