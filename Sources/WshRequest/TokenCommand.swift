import Foundation

/// Runs `--token-command`: `sh -c COMMAND`, whose first line of output is the token.
///
/// What the command prints is a secret, so no error quotes it; a failure
/// names the exit status only. The command's stdin is /dev/null (it must not
/// eat a script piped to wsh); its stderr is the terminal's, so a password
/// manager can still ask for a passphrase.
enum TokenCommand {
    /// The first line `command` printed (possibly blank); throws when it
    /// cannot run or exits with a status other than 0.
    static func firstLine(of command: String) throws(RequestError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .configuration("--token-command could not run: /bin/sh: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            throw .configuration("--token-command was killed by signal \(process.terminationStatus)")
        }
        guard process.terminationStatus == 0 else {
            throw .configuration("--token-command failed with exit status \(process.terminationStatus)")
        }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }
}
