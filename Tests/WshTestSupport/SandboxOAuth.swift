import Foundation

/// Whether this checkout's sandbox serves OAuth2 (the sandbox7 branch), read
/// from its documentation: tests of a login round trip against the real
/// sandbox are skipped (not passed) until it does.
public enum SandboxOAuth {
    public static let available: Bool = {
        let docs = WshProcess.packageRoot + "/docs/SANDBOX.md"
        return (try? String(contentsOfFile: docs, encoding: .utf8))?.contains("POST oauth2/access_token") ?? false
    }()

    /// A sandbox account that may approve (account 2 of the generated ones).
    public static let approvingUID = "1700000001"

    /// Plays the browser on an authorize URL: POSTs the approve form as
    /// `user`; returns the `Location` the 302 sends the browser to.
    public static func approve(_ authorizeURL: String, as user: String = approvingUID) throws -> String {
        try postApproval(authorizeURL, as: user, curlOptions: ["-o", "/dev/null", "-w", "%{redirect_url}"])
    }

    /// Plays the browser on an out-of-band authorize URL (Mastodon's
    /// `urn:ietf:wg:oauth:2.0:oob`): POSTs the approve form as `user`, and
    /// returns the code the page shows in `<code id="code">`, or "" when it shows none.
    public static func approveOutOfBand(_ authorizeURL: String, as user: String = approvingUID) throws -> String {
        let page = try postApproval(authorizeURL, as: user, curlOptions: [])
        guard let start = page.range(of: "<code id=\"code\">") else { return "" }
        return String(page[start.upperBound...].prefix { $0 != "<" })
    }

    /// Plays the browser arriving at `url` (a redirect to wsh's loopback
    /// listener): GETs it; returns the HTTP status and the page.
    public static func visit(_ url: String) throws -> (status: Int, page: String) {
        let text = try curl(["-s", "-w", "\n%{http_code}", url])
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (status, String(text.dropLast(String(status).count)))
    }

    /// `url` without the query parameters named in `names`: an attacker's copy
    /// of an authorize URL lacks this login's `state` and PKCE challenge.
    public static func removing(_ names: Set<String>, from url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.queryItems = components.queryItems?.filter { !names.contains($0.name) }
        return components.string ?? url
    }

    private static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func postApproval(_ authorizeURL: String, as user: String, curlOptions: [String]) throws -> String {
        let components = URLComponents(string: authorizeURL)
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
        let endpoint = authorizeURL.split(separator: "?").first.map(String.init) ?? authorizeURL
        // The form carries what the authorize page's hidden fields would: the PKCE challenge too.
        let carried = ["code_challenge", "code_challenge_method"].flatMap { name in
            query[name].map { ["--data-urlencode", "\(name)=\($0)"] } ?? []
        }
        return try curl(["-s"] + curlOptions + [
            "--data-urlencode", "client_id=\(query["client_id"] ?? "")",
            "--data-urlencode", "redirect_uri=\(query["redirect_uri"] ?? "")",
            "--data-urlencode", "state=\(query["state"] ?? "")",
            "--data-urlencode", "user=\(user)", "-d", "approve=1"] + carried + [endpoint])
    }
}
