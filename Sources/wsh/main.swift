// wsh: parse the command line, wire the shell to the sandbox, run, exit.
import ArgumentParser
import Foundation
import WshRequest
import WshSandbox
import WshShell

let arguments: Arguments
do {
    arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    // Help is a success on stdout; any other parse failure is a usage error (2).
    let message = Arguments.fullMessage(for: error)
    if Arguments.exitCode(for: error) == .success {
        print(message)
        exit(0)
    }
    FileHandle.standardError.write(Data("wsh: \(message)\n".utf8))
    exit(2)
}
if arguments.version {
    print("wsh \(Shell.version)")
    exit(0)
}

// The sandbox lives as long as the process; it starts on the first request.
nonisolated(unsafe) var sandbox: SandboxServer?
let configuration = Shell.Configuration(
    target: arguments.api.map { .url($0.hasSuffix("/") ? $0 : $0 + "/") } ?? .sandbox,
    tokenSource: arguments.tokenFile.map { .file($0) } ?? .environment("WSH_ACCESS_TOKEN"),
    launchSandbox: {
        let server = try SandboxServer.start(SandboxConfiguration())
        sandbox = server
        return (server.baseURL, server.token)
    },
    json: arguments.json,
    timeout: .milliseconds(Int(arguments.timeout * 1000)))

let shell = Shell(configuration: configuration, console: .standard(colorAllowed: !arguments.noColor))
let invocation: Invocation
if let command = arguments.command {
    invocation = .command(command, arguments: arguments.script)
} else if let path = arguments.script.first {
    invocation = .script(path: path, arguments: Array(arguments.script.dropFirst()))
} else {
    invocation = .standardInput
}
let status = shell.start(invocation)
sandbox?.stop()
exit(status)
