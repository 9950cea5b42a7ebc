import Foundation
import Testing
import WshTestSupport

/// Which CAs the built `wsh` trusts: `--cacert`, `$CURL_CA_BUNDLE`,
/// `$SSL_CERT_FILE`, else the system's, against an https server a CA made
/// for the test signed.
@Suite("Private CAs through the built wsh", .serialized)
struct PrivateCATests {
    static let token = ["WSH_ACCESS_TOKEN": "tok-CA-test"]

    /// `wsh --api SERVER/2/ ARGUMENTS -c 'api GET ping.json'` with `environment`.
    private func ping(_ server: TLSTestServer, _ arguments: [String] = [],
                      environment: [String: String] = [:]) async throws -> WshRun {
        try await WshProcess.run(["--api", server.baseURL + "2/"] + arguments + ["-c", "api GET ping.json"],
                                 environment: Self.token.merging(environment) { $1 })
    }

    private func server() throws -> TLSTestServer {
        let server = try TLSTestServer()
        try server.answer("2/ping.json", body: #"{"pong":"from the private server"}"#)
        return server
    }

    @Test("given no CA, then the request is refused with one line naming the host and --cacert")
    func refusedWithoutCA() async throws {
        let server = try server()
        defer { server.stop() }
        let run = try await ping(server)
        #expect(run.status == 1)
        #expect(run.stderr == "-c:1: api: https://127.0.0.1:\(server.port)/: the server's certificate is not trusted by the system's CAs "
            + "(curl 60: SSL certificate problem: unable to get local issuer certificate); pass --cacert FILE to trust a private CA\n",
            "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("given the CA by --cacert, $CURL_CA_BUNDLE or $SSL_CERT_FILE, then the server answers")
    func trusted() async throws {
        let server = try server()
        defer { server.stop() }
        for (arguments, environment) in [
            (["--cacert", server.caFile], [:]),
            ([], ["CURL_CA_BUNDLE": server.caFile]),
            ([], ["SSL_CERT_FILE": server.caFile]),
        ] as [([String], [String: String])] {
            let run = try await ping(server, arguments, environment: environment)
            #expect(run.status == 0, "\(arguments) \(environment): \(run.stderr)")
            #expect(run.stdout.contains("from the private server"), "\(arguments) \(environment)")
        }
    }

    @Test("precedence as curl's: --cacert over $CURL_CA_BUNDLE over $SSL_CERT_FILE; the error names the bundle that was used")
    func precedence() async throws {
        let server = try server()
        defer { server.stop() }
        let other = server.otherCAFile
        let cacertWins = try await ping(server, ["--cacert", server.caFile], environment: ["CURL_CA_BUNDLE": other, "SSL_CERT_FILE": other])
        #expect(cacertWins.status == 0, "\(cacertWins.stderr)")

        let bundleWins = try await ping(server, environment: ["CURL_CA_BUNDLE": other, "SSL_CERT_FILE": server.caFile])
        #expect(bundleWins.status == 1)
        #expect(bundleWins.stderr.contains("not trusted by the CAs in \(other) ($CURL_CA_BUNDLE)"), "\(bundleWins.stderr)")

        let wrongCacert = try await ping(server, ["--cacert", other], environment: ["SSL_CERT_FILE": server.caFile])
        #expect(wrongCacert.status == 1)
        #expect(wrongCacert.stderr.contains("not trusted by the CAs in \(other) (--cacert)"), "\(wrongCacert.stderr)")
    }

    @Test("given a bundle variable naming no file, then the request fails in one line naming the variable")
    func missingEnvironmentBundle() async throws {
        let server = try server()
        defer { server.stop() }
        let missing = WshProcess.temporaryDirectory() + "/gone.pem"
        let run = try await ping(server, environment: ["CURL_CA_BUNDLE": missing])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("-c:1: api: https://127.0.0.1:\(server.port)/: cannot use the CAs in \(missing) ($CURL_CA_BUNDLE)"),
                "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("given --cacert, then the auxiliary client trusts it too: the dialect probe finds the Mastodon server")
    func auxiliaryClientTrustsTheCA() async throws {
        let server = try server()
        defer { server.stop() }
        try server.answer("api/v1/instance", body: #"{"uri":"127.0.0.1","version":"4.2.0","title":"private"}"#)
        let trusted = try await WshProcess.run(["--api", server.baseURL, "--cacert", server.caFile, "-c", "ping; status --json"])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        // Found through api/v1/instance (the server has no nodeinfo), whose version names it.
        #expect(trusted.stdout.contains(#""dialect" : "mastodon 4.2.0""#), "\(trusted.stdout)")
    }

    @Test("given --cacert naming no readable PEM file, then wsh stops with a usage error (2) before any request")
    func unusableCacert() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let folder = WshProcess.temporaryDirectory()
        let missing = folder + "/missing.pem"
        let run = try await WshProcess.run(["--api", silent.baseURL, "--cacert", missing, "-c", "fetch"], environment: Self.token)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("wsh: Error: --cacert: cannot read '\(missing)': No such file or directory\n"), "\(run.stderr)")
        let notPEM = try WshProcess.writeScript("not a certificate\n", name: "ca.txt")
        let garbled = try await WshProcess.run(["--api", silent.baseURL, "--cacert", notPEM, "-c", "fetch"], environment: Self.token)
        #expect(garbled.status == 2)
        #expect(garbled.stderr.hasPrefix("wsh: Error: --cacert: '\(notPEM)' holds no PEM certificate"), "\(garbled.stderr)")
        #expect(silent.acceptedCount == 0)
    }

    @Test("given a 1 MiB response header, then wsh says the header was too large, not that memory ran out")
    func oversizeHeader() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let run = try await WshProcess.run(["--api", server.baseURL, "-c", "api GET raw/hugeheader"], environment: Self.token)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("-c:1: api: response header too large: "), "\(run.stderr)")
        #expect(!run.stderr.localizedCaseInsensitiveContains("out of memory"))
    }
}
