// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import PackagePlugin

/// Turns a target's `.js` and `.css` files into one generated Swift source,
/// `EmbeddedFiles`, with each file's text as a string literal: the files are in
/// the binary and nothing is read at run time. The files are the command's
/// inputs, so editing one rebuilds the target.
///
/// With them go wsh's own Swift sources (every `.swift` file of the package's
/// targets under `Sources/`), each compressed: the classroom shows the function
/// behind each event (`ClassroomSources`). They are inputs too, so a change to
/// any of them re-embeds (the generated file is rewritten only when it differs).
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url).filter { ["js", "css"].contains($0.pathExtension) }
        let root = context.package.directoryURL.path()
        let sources = context.package.targets.compactMap { $0 as? SourceModuleTarget }
            .filter { $0.directoryURL.path().hasPrefix(root + (root.hasSuffix("/") ? "" : "/") + "Sources/") }
            .flatMap { $0.sourceFiles.map(\.url) }
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.path() < $1.path() }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.map(\.lastPathComponent).joined(separator: ", ")) and \(sources.count) Swift sources in \(target.name)",
            executable: try context.tool(named: "wsh-embed").url,
            arguments: [output.path()] + files.map { $0.path() } + ["--swift", root] + sources.map { $0.path() },
            inputFiles: files + sources, outputFiles: [output])]
    }
}
