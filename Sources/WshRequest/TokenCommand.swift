import FoundationEssentials
import WshText

/// Runs `--token-command`: `sh -c COMMAND`, whose first line of output is the token.
///
/// What the command prints is a secret, so no error quotes it; a failure
/// names the exit status only. The command's stdin is /dev/null (it must not
/// eat a script piped to wsh). What it writes on stderr is passed on after
/// it ends, sanitized and with the token masked (a command that echoes the
/// token there must not show it); a password manager asks for a passphrase
/// on the terminal itself (`/dev/tty`, as pinentry does), never on stderr.
enum TokenCommand {
    /// The first line `command` printed (possibly blank); throws when it
    /// cannot run or exits with a status other than 0.
    static func firstLine(of command: String) throws(RequestError) -> String {
        let ending: ChildProcess.Ending
        do {
            ending = try ChildProcess.run("/bin/sh", ["-c", command], captureOutput: true, captureErrors: true)
        } catch {
            throw .configuration("--token-command could not run: \(error)")
        }
        let text = String(decoding: ending.output, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        passOn(ending.errors, masking: [line, line.trimmingWhitespace])
        if let signal = ending.signal {
            throw .configuration("--token-command was killed by signal \(signal)")
        }
        guard ending.exitStatus == 0 else {
            throw .configuration("--token-command failed with exit status \(ending.status)")
        }
        return line
    }

    /// Writes what the command said on stderr to wsh's stderr, sanitized
    /// and with `secrets` (the token it printed) masked.
    private static func passOn(_ diagnostics: [UInt8], masking secrets: [String]) {
        guard !diagnostics.isEmpty else { return }
        var text = TerminalText.sanitize(String(decoding: diagnostics, as: UTF8.self), .multiline)
        text = Redaction.redact(text, secrets: secrets.filter { !$0.isEmpty })
        if !text.hasSuffix("\n") { text += "\n" }
        StandardStreams.writeError(text)
    }
}
