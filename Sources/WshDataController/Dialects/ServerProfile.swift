import FoundationEssentials
import WshText

/// What detection found about a server that speaks Mastodon's API: the
/// software and its version, the Mastodon version and API version it
/// answers as, whether that API is a compatibility layer beside an API of
/// its own, and from these the capabilities commands consult. Nothing above
/// the DataControllers reads the software's name to decide anything: it is
/// shown (`status`), and the capabilities decide.
public struct ServerProfile: Sendable, Hashable, CustomStringConvertible {
    /// The software, as nodeinfo (or the instance's `version`) names it.
    public var software: ServerSoftware
    /// How the software writes its own name (`Sharkey`, `Iceshrimp.NET`).
    public var displayName: String
    /// The Mastodon version the server answers as (`3.0.0` of `3.0.0 (compatible; Sharkey …)`).
    public var mastodonVersion: String?
    /// Mastodon 4.3's `api_versions.mastodon` (`2`), when the instance says it.
    public var mastodonAPIVersion: Int?
    /// True when Mastodon's API is not the server's own but a layer beside it (Sharkey, Pixelfed, Friendica).
    public var compatibilityLayer: Bool
    /// What this server's Mastodon API offers.
    public var capabilities: Capabilities
    /// What the full Mastodon API offers that this server lacks, as commands name it (`scheduled statuses`).
    public var lacking: [String]

    /// `Sharkey 2024.1.0 through its Mastodon-compatible API (compatibility layer)`,
    /// `Akkoma 3.10.4 (Mastodon API, as Mastodon 2.7.2)`, `Mastodon 4.3.0 (Mastodon API v2)`.
    public var description: String {
        let named = [displayName, software.version].compactMap { $0 }.joined(separator: " ")
        if compatibilityLayer { return named + " through its Mastodon-compatible API (compatibility layer)" }
        if software.name == "mastodon" { return named + (mastodonAPIVersion.map { " (Mastodon API v\($0))" } ?? "") }
        return named + " (Mastodon API" + (mastodonVersion.map { ", as Mastodon \($0)" } ?? "") + ")"
    }
}

/// The servers wsh knows by name, and what each one's Mastodon API lacks:
/// the one table detection consults. A server nodeinfo names and this table
/// does not is taken at its word when its `api/v1/instance` answers.
enum KnownServers {
    /// How a server stands to Mastodon's client API.
    enum Speech {
        /// Mastodon's API is the server's own client API.
        case mastodon
        /// The server has an API of its own, and Mastodon's beside it when `api/v1/instance` answers.
        case compatibilityLayer
        /// The server has no Mastodon API at all: refused in one line.
        case none
    }

    struct Row {
        let names: [String]
        let displayName: String
        let speech: Speech
        /// The Mastodon features its API lacks (the capability, and how a command names it).
        let lacks: [(feature: WritableKeyPath<Capabilities, Bool> & Sendable, name: String)]
    }

    static let rows: [Row] = [
        Row(names: ["mastodon"], displayName: "Mastodon", speech: .mastodon, lacks: []),
        Row(names: ["hometown"], displayName: "Hometown", speech: .mastodon, lacks: []),
        Row(names: ["glitchsoc", "glitch-soc"], displayName: "glitch-soc", speech: .mastodon, lacks: []),
        Row(names: ["fedibird"], displayName: "Fedibird", speech: .mastodon, lacks: []),
        Row(names: ["pleroma"], displayName: "Pleroma", speech: .mastodon, lacks: []),
        Row(names: ["akkoma"], displayName: "Akkoma", speech: .mastodon, lacks: []),
        Row(names: ["gotosocial"], displayName: "GoToSocial", speech: .mastodon, lacks: []),
        Row(names: ["mitra"], displayName: "Mitra", speech: .mastodon, lacks: []),
        Row(names: ["honk"], displayName: "honk", speech: .mastodon, lacks: []),
        // The Misskey family's Mastodon API (each fork carries Misskey's
        // layer, as megalodon's Misskey client, h3poteto/megalodon
        // src/misskey.ts, maps it): scheduled statuses and status edits are
        // answered "misskey does not support" there.
        Row(names: ["misskey", "sharkey", "firefish", "calckey", "iceshrimp", "iceshrimp.net", "catodon", "meisskey",
                    "foundkey", "cherrypick"],
            displayName: "", speech: .compatibilityLayer,
            lacks: [(\.schedulesStatuses, "scheduled statuses"), (\.editsStatuses, "status edits")]),
        // Pixelfed's API routes (pixelfed/pixelfed routes/api.php) have no
        // scheduled_statuses and its `lists` answers an empty array; its
        // instance's `urls.streaming_api` is null (the instance rule below).
        Row(names: ["pixelfed"], displayName: "Pixelfed", speech: .compatibilityLayer,
            lacks: [(\.schedulesStatuses, "scheduled statuses"), (\.lists, "lists")]),
        // Friendica's doc/API-Mastodon.md lists the streaming API among the
        // endpoints it does not implement; its instance has no `urls` at all.
        Row(names: ["friendica"], displayName: "Friendica", speech: .compatibilityLayer,
            lacks: [(\.streaming, "a streaming API")]),
        Row(names: ["lemmy", "mbin", "kbin", "peertube", "mobilizon", "funkwhale", "writefreely", "plume", "bookwyrm",
                    "lotide", "owncast", "gancio"],
            displayName: "", speech: .none, lacks: []),
    ]

    /// The Misskey forks' display names, which the shared row cannot hold.
    private static let displayNames = [
        "misskey": "Misskey", "sharkey": "Sharkey", "firefish": "Firefish", "calckey": "Calckey",
        "iceshrimp": "Iceshrimp", "iceshrimp.net": "Iceshrimp.NET", "catodon": "Catodon", "meisskey": "Meisskey",
        "foundkey": "FoundKey", "cherrypick": "CherryPick", "lemmy": "Lemmy", "mbin": "Mbin", "kbin": "kbin",
        "peertube": "PeerTube", "mobilizon": "Mobilizon", "funkwhale": "Funkwhale", "writefreely": "WriteFreely",
        "plume": "Plume", "bookwyrm": "BookWyrm", "lotide": "lotide", "owncast": "Owncast", "gancio": "Gancio",
    ]

    /// The row naming `name` (lower-cased), nil for software not in the table.
    static func row(_ name: String) -> Row? {
        rows.first { $0.names.contains(name) }
    }

    /// How `software` writes its name: the table's, else as nodeinfo sent it.
    static func displayName(_ software: ServerSoftware, asSent: String? = nil) -> String {
        if let row = row(software.name), !row.displayName.isEmpty { return row.displayName }
        return displayNames[software.name] ?? asSent ?? software.name
    }

    /// The profile of `software` (named by nodeinfo or the instance), from the table and what `instance` says.
    static func profile(_ software: ServerSoftware, nameAsSent: String?, instance: JSONValue?) -> ServerProfile {
        let row = row(software.name)
        var capabilities = MastodonDialect.fullCapabilities
        var lacking: [String] = []
        for lack in row?.lacks ?? [] {
            capabilities[keyPath: lack.feature] = false
            lacking.append(lack.name)
        }
        // The instance's own word: `urls` present without a streaming URL
        // (Pixelfed sends `"streaming_api": null`) means no streaming API.
        if let urls = instance?["urls"], urls.object != nil, urls["streaming_api"]?.string == nil, capabilities.streaming {
            capabilities.streaming = false
            lacking.append("a streaming API")
        }
        let version = instance?["version"]?.string.map(InstanceVersion.init)
        let apiVersion = instance?["api_versions"]?["mastodon"]?.int
        return ServerProfile(
            software: software, displayName: String(TerminalText.sanitize(displayName(software, asSent: nameAsSent)).prefix(40)),
            mastodonVersion: version?.mastodon ?? (software.name == "mastodon" ? software.version : nil),
            mastodonAPIVersion: apiVersion, compatibilityLayer: row?.speech == .compatibilityLayer,
            capabilities: capabilities, lacking: lacking)
    }
}

/// An instance's `version`, whose strings vary: Mastodon's own (`4.3.0`,
/// `4.5.0-nightly.2025-10-30`), a compatible server's (`2.7.2 (compatible;
/// Akkoma 3.10.4-0-gebfb617)`, `4.2.1 (compatible;
/// Iceshrimp.NET/2024.1-beta2.security3+e1d25a9231)`, `3.0.0 (compatible;
/// Sharkey 2024.1.0.beta1; like Akkoma)`), or a bare one that names no
/// software (`0.16.0+git-f1cbf6f`, `2022.05-dev`, `0.2.0 31935ee`).
struct InstanceVersion: Hashable {
    /// The Mastodon version it answers as: the part before `(compatible; …)`, nil for a bare version.
    var mastodon: String?
    /// The software named after `compatible;` (lower-cased), nil when none is.
    var software: ServerSoftware?
    /// The first word of a bare version.
    var bare: String?
    /// The software's name as the server wrote it (`Iceshrimp.NET`).
    var nameAsSent: String?

    init(_ text: String) {
        // What reaches `status` is letters, digits and version punctuation only.
        let clean = String(text.prefix(160).filter { $0.isLetter || $0.isNumber || " .-+_();/".contains($0) })
        guard let compatible = clean.firstRange(of: "(compatible;") else {
            bare = clean.split(separator: " ").first.map { String($0.prefix(40)) }
            return
        }
        mastodon = clean[..<compatible.lowerBound].split(separator: " ").first.map { String($0.prefix(40)) }
        // `Sharkey 2024.1.0.beta1; like Akkoma)`: the first clause; `Iceshrimp.NET/2024.1-beta2…`: a slash parts name and version.
        let clause = clean[compatible.upperBound...].prefix { $0 != ")" && $0 != ";" }
        let words = clause.split(whereSeparator: { $0 == " " || $0 == "/" })
        guard let name = words.first else { return }
        nameAsSent = String(name.prefix(40))
        software = ServerSoftware(name: String(name.lowercased().prefix(40)), version: words.dropFirst().first.map { String($0.prefix(40)) })
    }
}
