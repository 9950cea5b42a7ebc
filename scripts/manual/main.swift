// wsh-manual: prints wsh(1) or wsh-sandbox(1) as man(7) source, from the
// tool's `--experimental-dump-help` JSON on stdin (what argument-parser's own
// generate-manual plugin reads) and, for wsh, the shell's command table.
//
//   wsh --experimental-dump-help | wsh-manual wsh [--date YYYY-MM-DD] > wsh.1
//
// scripts/install and scripts/package-deb run it at install time; the pages
// are not committed.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wsh-manual: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var date: String?
if let index = arguments.firstIndex(of: "--date") {
    guard index + 1 < arguments.count else { fail("--date needs YYYY-MM-DD") }
    date = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
guard arguments.count == 1, let page = arguments.first, ["wsh", "wsh-sandbox"].contains(page) else {
    fail("usage: TOOL --experimental-dump-help | wsh-manual wsh|wsh-sandbox [--date YYYY-MM-DD]")
}

let input = FileHandle.standardInput.readDataToEndOfFile()
let tool: CommandInfo
do {
    tool = try JSONDecoder().decode(ToolInfo.self, from: input).command
} catch {
    fail("stdin is not --experimental-dump-help JSON: \(error)")
}
guard tool.commandName == page else { fail("the JSON describes \(tool.commandName), not \(page)") }

// The page's date: --date, else SOURCE_DATE_EPOCH (reproducible builds), else today.
let formatter = DateFormatter()
formatter.dateFormat = "yyyy-MM-dd"
formatter.timeZone = TimeZone(identifier: "UTC")
formatter.locale = Locale(identifier: "en_US_POSIX")
let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
let day = date ?? formatter.string(from: epoch.map { Date(timeIntervalSince1970: $0) } ?? Date())

print(page == "wsh" ? WshPage.render(tool, date: day) : SandboxPage.render(tool, date: day), terminator: "")
