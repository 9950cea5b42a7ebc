import Foundation
import Testing
import WshTestSupport

/// scripts/install, scripts/uninstall and scripts/package-deb, run on the
/// binaries this test run built (the folder of `$WSH_BIN`), so no release
/// build is needed: wsh by name on PATH, its man pages, its completions and
/// its Debian package.
@Suite("Installing wsh", .serialized)
struct InstallTests {
    /// Where `swift build` put wsh, wsh-sandbox and wsh-manual.
    static var binDirectory: String { (WshProcess.binary as NSString).deletingLastPathComponent }

    /// PATH with only PREFIX/bin and the system folders.
    static func path(prefix: String) -> String { "\(prefix)/bin:/usr/local/bin:/usr/bin:/bin" }

    @Test("installed into a prefix, wsh runs by name, scripts run by #!, the man pages render without warnings, bash completes --api; uninstall restores the prefix")
    func installAndUninstall() async throws {
        let prefix = WshProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        // Something already there, which the installer must leave alone.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "keep".write(toFile: prefix + "/bin/other-tool", atomically: true, encoding: .utf8)
        let before = try Self.listing(prefix)

        let install = try await Self.run([WshProcess.packageRoot + "/scripts/install", "--prefix", prefix, "--bin-dir", Self.binDirectory])
        try #require(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("\(prefix)/bin/wsh"))
        #expect(install.stdout.contains("\(prefix)/share/man/man1/wsh.1"))
        #expect(install.stdout.contains("\(prefix)/bin is not on PATH"))
        #expect(install.stdout.contains("export PATH=\"\(prefix)/bin:$PATH\""))
        for file in ["bin/wsh", "bin/wsh-sandbox", "share/man/man1/wsh.1", "share/man/man1/wsh-sandbox.1",
                     "share/bash-completion/completions/wsh", "share/zsh/site-functions/_wsh",
                     "share/fish/vendor_completions.d/wsh.fish", "share/wsh/install-manifest"] {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file) is not installed")
        }

        let environment = ["PATH": Self.path(prefix: prefix), "HOME": WshProcess.temporaryDirectory()]
        let hi = try await Self.run(["/bin/sh", "-c", "wsh -c 'echo hi'"], environment: environment)
        #expect(hi.stdout == "hi\n", "\(hi.stderr)")
        let version = try await Self.run(["/bin/sh", "-c", "wsh --version"], environment: environment)
        #expect(version.stdout.wholeMatch(of: /wsh \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,}|unknown)\)\nLicensed under the Apache License 2.0\n/) != nil,
                "\(version.stdout)")
        #expect(install.stdout.contains(" installed; scripts/uninstall"), "\(install.stdout)")

        let script = try WshProcess.writeScript("#!/usr/bin/env wsh\necho \"script $1\"\n", name: "hello")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let ran = try await Self.run([script, "one"], environment: environment)
        #expect(ran.status == 0)
        #expect(ran.stdout == "script one\n", "\(ran.stderr)")

        for (page, expected) in [("wsh", ["WSH_ACCESS_TOKEN", "fetch", "EXIT STATUS", "--api"]),
                                 ("wsh-sandbox", ["--fail-rate", "/admin/faults", "--admin-token"])] {
            let man = try await Self.run(
                ["man", "--warnings=w", "-l", "\(prefix)/share/man/man1/\(page).1"],
                environment: environment.merging(["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LC_ALL": "C.UTF-8"]) { $1 })
            #expect(man.status == 0)
            #expect(man.stderr.isEmpty, "man \(page) warns: \(man.stderr)")
            // man draws a hyphen as U+2010 in a UTF-8 locale; read them as ASCII.
            let text = man.stdout.replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
            for word in expected { #expect(text.contains(word), "man \(page) lacks \(word)") }
        }

        let completion = "\(prefix)/share/bash-completion/completions/wsh"
        let bash = try await Self.run(["bash", "-c", """
            source '\(completion)'
            complete -p wsh
            function=$(complete -p wsh | sed -E 's/.*-F ([^ ]+).*/\\1/')
            COMP_LINE='wsh --a'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(wsh --a); COMP_CWORD=1
            "$function" wsh --a wsh
            printf 'reply: %s\\n' "${COMPREPLY[@]}"
            """], environment: environment)
        #expect(bash.status == 0, "\(bash.stderr)")
        #expect(bash.stdout.contains("-F _wsh wsh"), "\(bash.stdout)")
        #expect(bash.stdout.contains("reply: --api"), "\(bash.stdout)")

        let uninstall = try await Self.run([WshProcess.packageRoot + "/scripts/uninstall", "--prefix", prefix])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.contains("removed \(prefix)/bin/wsh"))
        #expect(try Self.listing(prefix) == before)
    }

    @Test("the .deb holds the binaries, gzipped man pages, completions and copyright; Depends names libcurl and libedit; unpacked, its wsh runs")
    func debianPackage() async throws {
        let out = WshProcess.temporaryDirectory()
        let root = WshProcess.temporaryDirectory()
        // The debug binaries make a large package: leave no copies behind.
        defer { for folder in [out, root] { try? FileManager.default.removeItem(atPath: folder) } }
        // Uncompressed: xz or gzip over 130 MB of debug binaries takes most of a minute on two cores.
        let package = try await Self.run([WshProcess.packageRoot + "/scripts/package-deb", "--bin-dir", Self.binDirectory,
                                          "--out", out, "--compression", "none"], timeout: 600)
        try #require(package.status == 0, "\(package.stderr)")
        let deb = package.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasPrefix(out + "/wsh_") && deb.hasSuffix(".deb"), "\(deb)")

        let info = try await Self.run(["dpkg-deb", "-I", deb])
        for field in ["Package: wsh", "Version: ", "Architecture: ", "Maintainer: ", "Description: ", "Depends: "] {
            #expect(info.stdout.contains(field), "control lacks \(field)")
        }
        let depends = info.stdout.split(separator: "\n").first { $0.contains("Depends:") } ?? ""
        #expect(depends.contains("libcurl4"), "\(depends)")
        #expect(depends.contains("libedit2"), "\(depends)")

        let contents = try await Self.run(["dpkg-deb", "-c", deb])
        for file in ["./usr/bin/wsh", "./usr/bin/wsh-sandbox", "./usr/share/man/man1/wsh.1.gz",
                     "./usr/share/man/man1/wsh-sandbox.1.gz", "./usr/share/bash-completion/completions/wsh",
                     "./usr/share/zsh/vendor-completions/_wsh", "./usr/share/fish/vendor_completions.d/wsh.fish",
                     "./usr/share/doc/wsh/copyright"] {
            #expect(contents.stdout.contains(file), "the package lacks \(file)")
        }
        #expect(contents.stdout.split(separator: "\n").allSatisfy { $0.contains("root/root") })

        #expect(try await Self.run(["dpkg-deb", "-x", deb, root]).status == 0)
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/wsh/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        // Every Files paragraph is under Apache-2.0, whose text Debian keeps in base-files.
        let licences = copyright.split(separator: "\n").filter { $0.hasPrefix("License:") }
        #expect(!licences.isEmpty && licences.allSatisfy { $0 == "License: Apache-2.0" }, "\(licences)")
        #expect(copyright.contains("/usr/share/common-licenses/Apache-2.0"))
        #expect(FileManager.default.fileExists(atPath: "/usr/share/common-licenses/Apache-2.0"))
        let version = try await Self.run([root + "/usr/bin/wsh", "--version"])
        #expect(version.stdout.hasSuffix("\nLicensed under the Apache License 2.0\n"), "\(version.stdout)")
        let hi = try await Self.run([root + "/usr/bin/wsh", "-c", "echo hi"])
        #expect(hi.stdout == "hi\n", "\(hi.stderr)")
        let man = try await Self.run(["man", "--warnings=w", "-l", root + "/usr/share/man/man1/wsh.1.gz"],
                                     environment: ["MANWIDTH": "80", "MANPAGER": "cat", "LC_ALL": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
    }

    /// A finished process: its status and what it wrote.
    struct Run: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Every path under `root` with its type, sorted.
    static func listing(_ root: String) throws -> [String] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        return paths.map { path in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            return (isDirectory.boolValue ? "d " : "f ") + path
        }
    }

    /// Runs `arguments` (the first names the program, found on PATH if not a
    /// path) with the test's environment plus `environment`.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120) async throws -> Run {
        try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env.merge(environment) { $1 }
            process.environment = env
            let output = Pipe(), error = Pipe()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let group = DispatchGroup()
            nonisolated(unsafe) var outData = Data()
            nonisolated(unsafe) var errData = Data()
            DispatchQueue.global().async(group: group) { outData = output.fileHandleForReading.readDataToEndOfFile() }
            DispatchQueue.global().async(group: group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
            if group.wait(timeout: .now() + timeout) == .timedOut {
                process.terminate()
                group.wait()
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus,
                          stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
        }
    }
}
