import Foundation
import WshViewModel

/// One stored account: which API it is for, who, the token and when it expires.
public struct StoredAccount: Codable, Sendable, Equatable {
    /// The API base it belongs to, or `sandbox` for the embedded sandbox
    /// (whose port changes from run to run).
    public var api: String
    public var uid: String
    public var screenName: String
    public var accessToken: String
    public var expiresAt: Date?
    /// The dialect it logged in through (`weibo`, `mastodon`); nil in files from before Mastodon (Weibo).
    public var dialect: String?

    public init(api: String, uid: String, screenName: String, accessToken: String, expiresAt: Date?,
                dialect: String? = nil) {
        self.api = api
        self.uid = uid
        self.screenName = screenName
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.dialect = dialect
    }

    enum CodingKeys: String, CodingKey {
        case api, uid, dialect, screenName = "screen_name", accessToken = "access_token", expiresAt = "expires_at"
    }

    /// Whether NAME (`alice`, `@alice` or a uid) names this account.
    func isNamed(_ name: String) -> Bool {
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        return bare == uid || bare == screenName
    }
}

/// An app wsh registered on a server (Mastodon's `POST api/v1/apps`), kept
/// so the next login on that server reuses it. The secret is a secret: the
/// file is 0600 and the session masks it like a token.
public struct StoredApp: Codable, Sendable, Equatable {
    /// The server it is registered on (`sandbox` or a base URL), as accounts name it.
    public var api: String
    public var clientID: String
    public var clientSecret: String
    /// The redirect URIs it was registered with.
    public var redirectURIs: [String]

    public init(api: String, clientID: String, clientSecret: String, redirectURIs: [String]) {
        self.api = api
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURIs = redirectURIs
    }

    enum CodingKeys: String, CodingKey {
        case api, clientID = "client_id", clientSecret = "client_secret", redirectURIs = "redirect_uris"
    }
}

/// The contents of `accounts.json`.
public struct AccountsFile: Codable, Sendable, Equatable {
    public var version = 1
    public var accounts: [StoredAccount] = []
    /// The active account's uid, by API (`sandbox` or a base URL).
    public var active: [String: String] = [:]
    /// Apps wsh registered, one per server (Mastodon).
    public var apps: [StoredApp] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case version, accounts, active, apps
    }

    // Files from before `apps` have none.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        accounts = try container.decode([StoredAccount].self, forKey: .accounts)
        active = try container.decode([String: String].self, forKey: .active)
        apps = try container.decodeIfPresent([StoredApp].self, forKey: .apps) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(accounts, forKey: .accounts)
        try container.encode(active, forKey: .active)
        if !apps.isEmpty { try container.encode(apps, forKey: .apps) }
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

    /// Adds `account` (replacing the same uid on the same API) and makes it active.
    public mutating func signIn(_ account: StoredAccount) {
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
}

/// Why the store could not be read or written.
public struct AccountStoreError: Error, CustomStringConvertible {
    public var description: String
}

/// `accounts.json` and `login-pending.json` in wsh's config folder
/// (`$XDG_CONFIG_HOME/wsh`, default `~/.config/wsh`).
///
/// The folder is created 0700; each file is created 0600 from the start (a
/// new file in the same folder, written, fsynced, then renamed over the old
/// one), so a token is never readable by others, not even for a moment, and
/// a crash leaves the old file or the new one, never half of one.
public final class AccountStore {
    /// The folder holding the files.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public var accountsPath: String { directory + "/accounts.json" }
    public var pendingPath: String { directory + "/login-pending.json" }

    /// The accounts; empty when there is no file yet.
    public func load() throws(AccountStoreError) -> AccountsFile {
        guard let data = FileManager.default.contents(atPath: accountsPath) else { return AccountsFile() }
        do {
            return try Self.decoder.decode(AccountsFile.self, from: data)
        } catch {
            throw AccountStoreError(description: "cannot read \(accountsPath): it is not an accounts file (\(Self.reason(error)))")
        }
    }

    /// Replaces the accounts file with `file`.
    public func save(_ file: AccountsFile) throws(AccountStoreError) {
        try write(Self.encoded(file), to: accountsPath)
    }

    /// The login `login --url-only` began, if any.
    public func loadPending() throws(AccountStoreError) -> PendingLogin? {
        guard let data = FileManager.default.contents(atPath: pendingPath) else { return nil }
        do {
            return try Self.decoder.decode(PendingLogin.self, from: data)
        } catch {
            throw AccountStoreError(description: "cannot read \(pendingPath) (\(Self.reason(error))); start again with login")
        }
    }

    /// Keeps `pending` for `login --code`.
    public func savePending(_ pending: PendingLogin) throws(AccountStoreError) {
        try write(Self.encoded(pending), to: pendingPath)
    }

    /// Forgets the pending login.
    public func removePending() {
        unlink(pendingPath)
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

    /// Writes `data` to `path` atomically, the new file 0600 from creation.
    private func write(_ data: Data, to path: String) throws(AccountStoreError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            // A missing parent (~/.config itself): create the chain, the last folder 0700.
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw AccountStoreError(description: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AccountStoreError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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
