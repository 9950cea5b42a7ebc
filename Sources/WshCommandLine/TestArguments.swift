import FoundationEssentials

extension Options {
    /// The options a `--test` run hands on to each test file's own `wsh`:
    /// where the API is, its dialect, the token source, the CAs it trusts, the
    /// recording it replays (by absolute path: a child may run elsewhere) and the timeout.
    public var testChildArguments: [String] {
        var arguments: [String] = []
        if let api { arguments += ["--api", api] }
        if let dialect { arguments += ["--dialect", dialect] }
        if let tokenFile { arguments += ["--token-file", tokenFile] }
        if let tokenCommand { arguments += ["--token-command", tokenCommand] }
        if let cacert { arguments += ["--cacert", cacert] }
        if let replay {
            arguments += ["--replay", replay.hasPrefix("/") ? replay : FileManager.default.currentDirectoryPath + "/" + replay]
        }
        if timeout != Options.defaultTimeout { arguments += ["--timeout", String(timeout)] }
        if noColor { arguments.append("--no-color") }
        if keepGoing { arguments.append("--keep-going") }
        if echo { arguments.append("-x") }
        return arguments
    }
}
