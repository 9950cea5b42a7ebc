import Foundation
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .configuration("--token-command could not run: /bin/sh: \(error.localizedDescription)")
        }
        // Both pipes are drained at once: a command that fills one while wsh waits on the other would hang.
        let diagnostics = DrainedPipe(errors)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        passOn(diagnostics.wait(), masking: [line, line.trimmingCharacters(in: .whitespacesAndNewlines)])
        guard process.terminationReason == .exit else {
            throw .configuration("--token-command was killed by signal \(process.terminationStatus)")
        }
        guard process.terminationStatus == 0 else {
            throw .configuration("--token-command failed with exit status \(process.terminationStatus)")
        }
        return line
    }

    /// Writes what the command said on stderr to wsh's stderr, sanitized
    /// and with `secrets` (the token it printed) masked.
    private static func passOn(_ diagnostics: Data, masking secrets: [String]) {
        guard !diagnostics.isEmpty else { return }
        var text = TerminalText.sanitize(String(decoding: diagnostics, as: UTF8.self), .multiline)
        text = Redaction.redact(text, secrets: secrets.filter { !$0.isEmpty })
        if !text.hasSuffix("\n") { text += "\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class DrainedPipe: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once its writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
