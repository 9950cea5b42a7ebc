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

    @Test("installed stripped into a prefix, wsh runs by name, scripts run by #!, the man pages render without warnings, bash completes --api; --with-debug-symbols adds the symbols gdb finds; uninstall restores the prefix")
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

        // Stripped: no symbol table, no DWARF; and no debug symbols unless asked for.
        for binary in ["bin/wsh", "bin/wsh-sandbox"] {
            let sections = try await Self.sections(of: "\(prefix)/\(binary)")
            #expect(!sections.contains(".symtab") && !sections.contains(".debug_info"), "\(binary) is not stripped: \(sections)")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix + "/lib/debug"))

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

        // Installing again with the symbols replaces the first installation.
        let again = try await Self.run([WshProcess.packageRoot + "/scripts/install", "--prefix", prefix, "--bin-dir", Self.binDirectory,
                                        "--with-debug-symbols"])
        try #require(again.status == 0, "\(again.stderr)")
        for name in ["wsh", "wsh-sandbox"] {
            let binary = "\(prefix)/bin/\(name)"
            let id = try #require(try await Self.buildID(of: binary), "\(name) has no build ID")
            let debugFile = "\(prefix)/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug"
            #expect(again.stdout.contains(debugFile), "\(again.stdout)")
            #expect(try await Self.buildID(of: debugFile) == id)
            try await Self.expectDebugLink(from: binary, to: debugFile)
        }
        // gdb finds wsh's symbols through the installed file, and only through it.
        func gdb(debugFiles: String) async throws -> Run {
            try await Self.run(["gdb", "-batch", "-nx", "-iex", "set debug-file-directory \(debugFiles)",
                                "-ex", "info address main", "\(prefix)/bin/wsh"])
        }
        let found = try await gdb(debugFiles: prefix + "/lib/debug")
        #expect(found.stdout.contains("Symbol \"main\" is at"), "\(found.stdout)")
        let missing = try await gdb(debugFiles: prefix + "/nowhere")
        #expect(!missing.stdout.contains("Symbol \"main\" is at"), "\(missing.stdout)")
        let stripped = try await Self.run(["/bin/sh", "-c", "wsh -c 'echo hi'"], environment: environment)
        #expect(stripped.stdout == "hi\n", "\(stripped.stderr)")

        let uninstall = try await Self.run([WshProcess.packageRoot + "/scripts/uninstall", "--prefix", prefix])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.contains("removed \(prefix)/bin/wsh"))
        #expect(uninstall.stdout.contains("removed \(prefix)/lib/debug/.build-id/"))
        #expect(try Self.listing(prefix) == before)
    }

    @Test("the .deb holds the stripped binaries, gzipped man pages, completions and an Apache-2.0 copyright; Depends names libcurl and libedit; unpacked, its wsh runs; wsh-dbgsym holds the matching symbols")
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
        for binary in ["wsh", "wsh-sandbox"] {
            let sections = try await Self.sections(of: root + "/usr/bin/" + binary)
            #expect(!sections.contains(".symtab") && !sections.contains(".debug_info"), "\(binary) is not stripped: \(sections)")
        }
        #expect(!contents.stdout.contains("./usr/lib/debug"))

        // The symbols are in their own package beside it, where gdb looks by default.
        let debugDeb = out + "/" + (deb as NSString).lastPathComponent.replacingOccurrences(of: "wsh_", with: "wsh-dbgsym_")
        #expect(package.stderr.contains("debug symbols: \(debugDeb)"), "\(package.stderr)")
        let debugInfo = try await Self.run(["dpkg-deb", "-I", debugDeb])
        #expect(debugInfo.stdout.contains("Package: wsh-dbgsym"), "\(debugInfo.stdout)")
        #expect(debugInfo.stdout.contains("Depends: wsh (= "), "\(debugInfo.stdout)")
        #expect(try await Self.run(["dpkg-deb", "-x", debugDeb, root]).status == 0)
        for binary in ["wsh", "wsh-sandbox"] {
            let id = try #require(try await Self.buildID(of: root + "/usr/bin/" + binary))
            #expect(debugInfo.stdout.contains(id), "Build-Ids lacks \(binary)'s")
            try await Self.expectDebugLink(from: root + "/usr/bin/" + binary,
                                           to: "\(root)/usr/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug")
        }
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

    /// The names of the ELF sections of `file` (`readelf -S`).
    static func sections(of file: String) async throws -> [String] {
        let run = try await Self.run(["readelf", "-S", "-W", file])
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout.matches(of: /\]\s+(\.\S+)/).map { String($0.output.1) }
    }

    /// The GNU build ID of `file` in hex, or nil.
    static func buildID(of file: String) async throws -> String? {
        let run = try await Self.run(["readelf", "-n", file])
        return run.stdout.firstMatch(of: /Build ID: ([0-9a-f]+)/).map { String($0.output.1) }
    }

    /// Checks that `binary`'s .gnu_debuglink names a file called like
    /// `debugFile`'s original (NAME.debug) whose CRC-32 is `debugFile`'s, as
    /// gdb checks before it trusts a debug file found by name.
    static func expectDebugLink(from binary: String, to debugFile: String) async throws {
        let dump = WshProcess.temporaryDirectory() + "/debuglink"
        defer { try? FileManager.default.removeItem(atPath: (dump as NSString).deletingLastPathComponent) }
        let run = try await Self.run(["objcopy", "--dump-section", ".gnu_debuglink=\(dump)", binary, "/dev/null"])
        try #require(run.status == 0, "\(binary) has no .gnu_debuglink: \(run.stderr)")
        let link = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        let name = String(decoding: link.prefix { $0 != 0 }, as: UTF8.self)
        #expect(name == (binary as NSString).lastPathComponent + ".debug")
        let crc = link.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(crc == Self.crc32(try Data(contentsOf: URL(fileURLWithPath: debugFile))), "\(debugFile) is not \(binary)'s debug file")
    }

    /// CRC-32 (IEEE, as zlib and .gnu_debuglink compute it).
    static func crc32(_ data: Data) -> UInt32 {
        let table: [UInt32] = (0..<256).map { byte in
            (0..<8).reduce(UInt32(byte)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~data.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
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
