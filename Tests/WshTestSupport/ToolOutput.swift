import Foundation

/// What another program says of a file (`sqlite3`, `sha256sum`): a test
/// checks what wsh wrote with a tool that is not wsh.
public enum ToolOutput {
    /// The standard output of `executable` run with `arguments`, trimmed;
    /// empty when it cannot be run. Its standard error is dropped.
    public static func of(_ executable: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
