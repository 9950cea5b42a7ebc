// A tiny program that embeds WshLanguage: it registers one command of its own,
// runs a script given with -c or as a file, and reports errors with exit codes.
//
//   embed-example -c 'greet world --shout'
//   embed-example script.wsh ARG…
import Foundation
import WshLanguage

let interpreter = Interpreter(
    output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    diagnostics: { text in FileHandle.standardError.write(Data(text.utf8)) })

interpreter.register(
    CommandSpec(
        name: "greet", aliases: ["hi"], abstract: "Greet someone.",
        discussion: "Sets $greeting to the text it printed.",
        arguments: [ArgumentSpec("NAME", help: "who to greet")],
        options: [.flag("shout", short: "s", help: "greet in capitals")],
        completion: { _ in ["world", "wsh", "weibo"] },
        handler: { context in
            var text = "Hello, \(context.arguments["NAME"] ?? "")!"
            if context.arguments.flag("shout") { text = text.uppercased() }
            context.setVariable("greeting", to: .string(text))
            context.writeLine(text)
        }))

var arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "-c", arguments.count >= 2 {
        interpreter.scriptArguments = Array(arguments.dropFirst(2))
        try interpreter.execute(arguments[1], file: "-c")
    } else if let path = arguments.first {
        try interpreter.executeFile(path, arguments: Array(arguments.dropFirst()))
    } else {
        FileHandle.standardError.write(Data("usage: embed-example (-c SCRIPT | FILE) [ARG…]\n".utf8))
        exit(2)
    }
} catch {
    let report = ErrorReport(error, interactive: false)
    if let message = report.message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
    exit(report.status)
}
exit(interpreter.lastStatus == 0 ? 0 : Int32(interpreter.lastStatus))
