// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import PackagePlugin

/// Turns a target's `.js` and `.css` files into one generated Swift source,
/// `EmbeddedFiles`, with each file's text as a string literal: the files are in
/// the binary and nothing is read at run time. The files are the command's
/// inputs, so editing one rebuilds the target.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url).filter { ["js", "css"].contains($0.pathExtension) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.map(\.lastPathComponent).joined(separator: ", ")) in \(target.name)",
            executable: try context.tool(named: "wsh-embed").url,
            arguments: [output.path()] + files.map { $0.path() },
            inputFiles: files, outputFiles: [output])]
    }
}
