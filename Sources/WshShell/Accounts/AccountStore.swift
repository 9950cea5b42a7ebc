import FoundationEssentials
import Glibc
import WshText
import WshViewModel

/// One stored account: which API it is for, who, the token and when it expires.
public struct StoredAccount: Codable, Sendable, Equatable, KeepsUnknownFields {
    /// The API base it belongs to, or `sandbox` for the embedded sandbox
    /// (whose port changes from run to run).
    public var api: String
    public var uid: String
    public var screenName: String
    public var accessToken: String
    public var expiresAt: Date?
    /// The dialect it logged in through (`weibo`, `mastodon`); nil in files from before Mastodon (Weibo).
    public var dialect: String?
    /// Fields this wsh does not know, kept as they were.
    public var unknownFields: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case api, uid, dialect, screenName = "screen_name", accessToken = "access_token", expiresAt = "expires_at"
    }

    /// Whether NAME (`alice`, `@alice` or a uid) names this account.
    func isNamed(_ name: String) -> Bool {
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        return bare == uid || bare == screenName
    }
}

/// An app wsh registered on a server (Mastodon's `POST api/v1/apps`), kept
/// so the next login on that server reuses it. It belongs to that server
/// alone: it is looked up by the server's base and never sent elsewhere.
/// The secret is a secret: the file is 0600 and the session masks it like a token.
public struct StoredApp: Codable, Sendable, Equatable, KeepsUnknownFields {
    /// The server it is registered on (`sandbox` or a base URL), as accounts name it.
    public var api: String
    public var clientID: String
    public var clientSecret: String
    /// The redirect URIs it was registered with.
    public var redirectURIs: [String]
    /// Fields this wsh does not know, kept as they were.
    public var unknownFields: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case api, clientID = "client_id", clientSecret = "client_secret", redirectURIs = "redirect_uris"
    }
}

/// The contents of `accounts.json`.
public struct AccountsFile: Codable, Sendable, Equatable {
    /// The version of the file's layout this wsh writes and understands.
    public static let currentVersion = 1

    public var version = AccountsFile.currentVersion
    public var accounts: [StoredAccount] = []
    /// The active account's uid, by API (`sandbox` or a base URL).
    public var active: [String: String] = [:]
    /// Apps wsh registered, one per server (Mastodon).
    public var apps: [StoredApp] = []
    /// Top-level fields this wsh does not know, kept as they were.
    public var unknownFields: [String: JSONValue] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, accounts, active, apps
    }

    // Files from before `apps` have none.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        accounts = try container.decode([KeepingUnknownFields<StoredAccount>].self, forKey: .accounts).map(\.record)
        active = try container.decode([String: String].self, forKey: .active)
        apps = try container.decodeIfPresent([KeepingUnknownFields<StoredApp>].self, forKey: .apps)?.map(\.record) ?? []
        unknownFields = try decoder.container(keyedBy: AnyCodingKey.self)
            .unknownFields(besides: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(accounts.map(KeepingUnknownFields.init), forKey: .accounts)
        try container.encode(active, forKey: .active)
        if !apps.isEmpty { try container.encode(apps.map(KeepingUnknownFields.init), forKey: .apps) }
        var unknown = encoder.container(keyedBy: AnyCodingKey.self)
        try unknown.encodeUnknown(unknownFields)
    }

    /// The app registered on `api`, if any.
    public func app(for api: String) -> StoredApp? {
        apps.first { $0.api == api }
    }

    /// Keeps `app` as the one of its server (replacing an older one).
    public mutating func keep(_ app: StoredApp) {
        apps.removeAll { $0.api == app.api }
        apps.append(app)
    }

    /// The active account for `api`, if any.
    public func activeAccount(for api: String) -> StoredAccount? {
        guard let uid = active[api] else { return nil }
        return accounts.first { $0.api == api && $0.uid == uid }
    }

    /// Adds `account` (replacing the same uid on the same API, keeping the
    /// fields this wsh does not know) and makes it active.
    public mutating func signIn(_ account: StoredAccount) {
        var account = account
        if let old = accounts.first(where: { $0.api == account.api && $0.uid == account.uid }) {
            account.unknownFields = old.unknownFields.merging(account.unknownFields) { $1 }
        }
        accounts.removeAll { $0.api == account.api && $0.uid == account.uid }
        accounts.append(account)
        active[account.api] = account.uid
    }

    /// Removes `account`; when it was active, another account of its API (if any) becomes active.
    public mutating func remove(_ account: StoredAccount) {
        accounts.removeAll { $0.api == account.api && $0.uid == account.uid }
        if active[account.api] == account.uid {
            active[account.api] = accounts.last { $0.api == account.api }?.uid
        }
    }

    /// The accounts NAME names, those of `preferredAPI` first.
    public func accounts(named name: String, preferring preferredAPI: String) -> [StoredAccount] {
        let named = accounts.filter { $0.isNamed(name) }
        let preferred = named.filter { $0.api == preferredAPI }
        return preferred.isEmpty ? named : preferred
    }

    /// Every secret the file holds: tokens and app secrets, for masking.
    public var secrets: [String] {
        accounts.map(\.accessToken) + apps.map(\.clientSecret)
    }
}

/// Why the store could not be read or written.
public struct AccountStoreError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// `accounts.json` and `login-pending.json` in wsh's config folder
/// (`$XDG_CONFIG_HOME/wsh`, default `~/.config/wsh`).
///
/// Several sessions in several terminals share the files, so every change
/// is read–change–write under an exclusive lock (`flock` on
/// `accounts.json.lock` beside it): a change reads the file as it is now,
/// never a copy read earlier, and no session's change is lost. The write is
/// atomic: a new file, created 0600 from the start, written, fsynced, then
/// renamed over the old one, so a token is never readable by others, not
/// even for a moment, and a crash leaves the old file or the new one, never
/// half of one. Temporary files a killed process left behind are removed
/// under the lock. The folder is 0700 (tightened, once, if it was looser).
/// Fields this wsh does not know are kept; a file of a newer version is
/// read but never rewritten.
public final class AccountStore {
    /// The folder holding the files.
    public let directory: String
    /// Told, once, when the folder was tightened to 0700 (for one line to the user).
    public var notice: (String) -> Void = { _ in }
    private var tightened = false

    public init(directory: String) {
        self.directory = directory
    }

    public var accountsPath: String { directory + "/accounts.json" }
    public var pendingPath: String { directory + "/login-pending.json" }
    /// The lock file every change takes.
    public var lockPath: String { directory + "/accounts.json.lock" }

    /// The accounts; empty when there is no file yet. Reading needs no lock:
    /// the file is only ever replaced whole.
    public func load() throws(AccountStoreError) -> AccountsFile {
        guard let data = try Self.contents(of: accountsPath) else { return AccountsFile() }
        do {
            return try Self.decoder.decode(AccountsFile.self, from: data)
        } catch {
            let version = (try? Self.decoder.decode(VersionOnly.self, from: data))?.version
            if let version, version > AccountsFile.currentVersion {
                throw AccountStoreError(description: "cannot read \(accountsPath): it is version \(version), "
                    + "written by a newer wsh (this one understands \(AccountsFile.currentVersion)); upgrade wsh")
            }
            throw AccountStoreError(description: "cannot read \(accountsPath): it is not an accounts file (\(Self.reason(error)))")
        }
    }

    /// Changes the accounts file: under the lock, reads it as it is now,
    /// applies `change`, and writes the result. Returns the file as written.
    /// Refuses, changing nothing, a file of a newer version than this wsh writes.
    @discardableResult
    public func update(_ change: (inout AccountsFile) throws(AccountStoreError) -> Void) throws(AccountStoreError) -> AccountsFile {
        try locked { () throws(AccountStoreError) in
            var file = try load()
            guard file.version <= AccountsFile.currentVersion else {
                throw AccountStoreError(description: "not changing \(accountsPath): it is version \(file.version), "
                    + "written by a newer wsh (this one understands \(AccountsFile.currentVersion)); upgrade wsh")
            }
            try change(&file)
            try write(Self.encoded(file), to: accountsPath)
            return file
        }
    }

    /// Replaces the accounts file with `file` (under the lock).
    public func save(_ file: AccountsFile) throws(AccountStoreError) {
        try update { (stored: inout AccountsFile) throws(AccountStoreError) in stored = file }
    }

    /// The login `login --url-only` began, if any.
    public func loadPending() throws(AccountStoreError) -> PendingLogin? {
        guard let data = try Self.contents(of: pendingPath) else { return nil }
        do {
            return try Self.decoder.decode(PendingLogin.self, from: data)
        } catch {
            throw AccountStoreError(description: "cannot read \(pendingPath) (\(Self.reason(error))); start again with login")
        }
    }

    /// Keeps `pending` for `login --code`.
    public func savePending(_ pending: PendingLogin) throws(AccountStoreError) {
        try locked { () throws(AccountStoreError) in try write(Self.encoded(pending), to: pendingPath) }
    }

    /// Forgets the pending login.
    public func removePending() {
        unlink(pendingPath)
    }

    private struct VersionOnly: Decodable {
        let version: Int
    }

    /// The bytes of `path`, nil when there is no such file; an error when it
    /// cannot be read (a folder where the file should be, no permission).
    private static func contents(of path: String) throws(AccountStoreError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw AccountStoreError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw AccountStoreError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func encoded<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding these plain structs cannot fail.
        return ((try? encoder.encode(value)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: "not valid JSON"
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }

    // MARK: the lock and the folder

    /// Runs `body` holding the exclusive lock, with the folder made and 0700
    /// and the temporary files of earlier, killed writers removed.
    private func locked<T>(_ body: () throws(AccountStoreError) -> T) throws(AccountStoreError) -> T {
        try prepareDirectory()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw AccountStoreError(description: "cannot lock \(accountsPath) (\(lockPath): \(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw AccountStoreError(description: "cannot lock \(accountsPath): \(String(cString: strerror(errno)))")
            }
        }
        removeStaleTemporaries()
        return try body()
    }

    /// Creates the folder 0700 (and its parents), or tightens an existing
    /// one of ours that others may read to 0700, saying so once.
    private func prepareDirectory() throws(AccountStoreError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            // A missing parent (~/.config itself): create the chain, the last folder 0700.
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw AccountStoreError(description: "cannot create \(directory): \(SystemError.reason(error))")
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw AccountStoreError(description: "cannot use \(directory): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw AccountStoreError(description: "cannot use \(directory): it is not a folder")
        }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0, info.st_uid == getuid() {
            guard chmod(directory, 0o700) == 0 else {
                throw AccountStoreError(description: "cannot make \(directory) private (0700): \(String(cString: strerror(errno)))")
            }
            if !tightened {
                tightened = true
                notice("made \(directory) private (0700; it was \(String(mode, radix: 8))): it holds tokens")
            }
        }
    }

    /// The temporary files (`accounts.json.tmp-…`, `login-pending.json.tmp-…`)
    /// of writers killed mid-write. Writers hold the lock, so while we hold
    /// it every one that exists is stale; only our own are removed.
    private func removeStaleTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix("accounts.json.tmp-") || name.hasPrefix("login-pending.json.tmp-") {
            let path = directory + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, info.st_uid == getuid(), info.st_mode & S_IFMT == S_IFREG { unlink(path) }
        }
    }

    /// Writes `data` to `path` atomically, the new file 0600 from creation. The caller holds the lock.
    private func write(_ data: Data, to path: String) throws(AccountStoreError) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw AccountStoreError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw AccountStoreError(description: "cannot write \(path): \(String(cString: strerror(failure)))")
        }
        // The rename itself is durable once the folder is synced.
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

extension ShellPaths {
    /// `$XDG_CONFIG_HOME/wsh`, default `~/.config/wsh`; nil when there is no home.
    public static func configDirectory(environment: [String: String]? = nil) -> String? {
        let variable = lookup(environment)
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/wsh" }
        if let home = variable("HOME"), !home.isEmpty { return home + "/.config/wsh" }
        return nil
    }
}
