import WshShell

/// wsh-sandbox(1): everything but the admin endpoint and the examples comes
/// from argument-parser's declaration.
enum SandboxPage {
    static func render(_ tool: CommandInfo, date: String) -> String {
        var page = Roff()
        page.title("wsh-sandbox", section: 1, date: date, source: "wsh \(Shell.version)", manual: "User Commands")
        page.nameSection(tool)
        page.synopsisSection(tool)
        page.section("Description")
        page.paragraphs(tool.abstract ?? "")
        if let discussion = tool.discussion { page.paragraphs(discussion) }
        page.paragraphs("""
            The first line on standard output names the base URL and the token (with `--port 0`, \
            the port picked); each request is logged on standard error with the token masked. \
            SIGINT or SIGTERM stops the server. `wsh` starts the same server inside its own \
            process when run without `--api`.
            """)
        page.optionsSection(tool)
        page.section("Admin endpoint")
        page.paragraphs("""
            Faults can be read and changed while the server runs. The admin endpoint answers \
            clients on the same machine (loopback peers) without a token. With `--host` anything \
            but loopback, a warning is printed on standard error, and other machines get 403 \
            unless they send the admin token (`--admin-token`, else one generated and printed \
            there) as `Authorization: Bearer TOKEN`.

                curl -s -X POST -d '{"latency_ms": 2000, "fail_rate": 0.2}' \\
                    http://127.0.0.1:8080/admin/faults
                curl -s http://127.0.0.1:8080/admin/faults
                curl -s -X POST http://127.0.0.1:8080/admin/reset
            """)
        page.section("Exit status")
        page.paragraphs("""
            0 after a clean stop, 1 when the server cannot start (the port is taken), and 64 \
            for a usage error.
            """)
        page.section("Examples")
        page.paragraphs("""
                wsh-sandbox --port 8080 --seed 1 --statuses 5000
                curl -s -H 'Authorization: OAuth2 sandbox-token' \\
                    'http://127.0.0.1:8080/2/statuses/public_timeline.json?count=2'
                wsh --api http://127.0.0.1:8080/2/ -c 'fetch 5; list'

            `wsh --api` needs the token: set `WSH_ACCESS_TOKEN=sandbox-token`.
            """)
        page.section("See also")
        page.text(Roff.bold("wsh") + "(1), " + Roff.bold("curl") + "(1)")
        return page.source
    }
}
