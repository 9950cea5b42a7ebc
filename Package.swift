// swift-tools-version:6.1
// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
import PackageDescription

// The layering of DESIGN.md section 1 is enforced here: a target lists only
// the targets below it. Read the dependencies as the architecture diagram.
let package = Package(
    name: "wsh",
    products: [
        .executable(name: "wsh", targets: ["wsh"]),
        .executable(name: "wsh-sandbox", targets: ["wsh-sandbox"]),
        .library(name: "WshLanguage", targets: ["WshLanguage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // No default traits: "FullFoundation" would link all of Foundation (and ICU's
        // 30 MB of tables) into both binaries; wsh needs FoundationEssentials only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // The sandbox's WebSocket streaming endpoint (the server side only: wsh's
        // client speaks RFC 6455 itself over a libcurl connection).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
    ],
    targets: [
        // C: libcurl is loaded on the first request and libedit when the prompt
        // starts (dlopen), so `wsh -c` and scripts load neither; CDynamicLoad
        // is how both shims load their library.
        .target(name: "CDynamicLoad", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CCurl", dependencies: ["CDynamicLoad"], linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CEditLine", dependencies: ["CDynamicLoad"]),
        // libsqlite3, loaded when the archive is first opened (`archive`, `sql`).
        .target(name: "CSQLite", dependencies: ["CDynamicLoad"], linkerSettings: [.linkedLibrary("dl")]),
        // The argument vector for the standard library's `CommandLine`, so that the
        // Swift runtime's own way of finding it (reading /proc/self/maps before
        // main) is not linked into wsh.
        .target(name: "CCommandLine"),

        // Below everything: untrusted text (the one sanitizer, the one redaction, the
        // escapers), and what wsh took from full Foundation (JSON values, percent-coding,
        // civil time and the local zone, locks, the standard streams).
        .target(name: "WshText"),

        // Request and Model: the bottom of the stack.
        .target(name: "WshModel", dependencies: ["WshText"]),
        .target(name: "WshRequest", dependencies: ["CCurl", "WshText", "WshHAR"]),
        // HAR recordings read for replay, by wsh (`--replay`) and the sandbox (`wsh-sandbox --replay`).
        .target(name: "WshHAR", dependencies: ["WshText"]),

        // The local archive (one SQLite file): a store the DataControllers consult as one more source.
        .target(name: "WshArchive", dependencies: ["CSQLite", "WshModel", "WshText"]),

        // The MVVM middle.
        .target(name: "WshDataController", dependencies: ["WshRequest", "WshModel", "WshText", "WshArchive"]),
        .target(name: "WshViewModel", dependencies: ["WshDataController", "WshRequest", "WshModel", "WshText"]),

        // The language knows nothing about Weibo.
        .target(name: "WshLanguage"),

        // The sandbox API server.
        .target(
            name: "WshSandbox",
            dependencies: [
                "WshModel",
                "WshText",
                "WshHAR",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),

        // The classroom page's server (`web on`): the page and its assets inside the
        // binary, a window of the session's events, Server-Sent Events with ids.
        // Its script and style (Sources/WshWeb/Page) become string literals at build time.
        .target(
            name: "WshWeb",
            dependencies: [
                "WshText",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedFiles"]),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["wsh-embed"]),
        .executableTarget(name: "wsh-embed", path: "Plugins/wsh-embed"),

        // View / ViewController: the loop, the commands, the Views. No WshModel:
        // commands and Views read ViewModel outputs, never Model values.
        .target(
            name: "WshShell",
            dependencies: [
                "CEditLine", "WshText", "WshRequest", "WshDataController",
                "WshViewModel", "WshLanguage", "WshWeb",
            ]),

        // The command line: argument-parser's declaration, and a quick path for start-up.
        .target(
            name: "WshCommandLine",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // Executables stay thin.
        .executableTarget(
            name: "wsh", dependencies: ["CCommandLine", "WshCommandLine", "WshShell", "WshSandbox", "WshHAR", "WshText"],
            exclude: ["exports.map", "static-cxx", "symbol-order.txt"],
            linkerSettings: [.unsafeFlags(startupLinkerFlags + layoutLinkerFlags, .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(
            name: "wsh-sandbox",
            dependencies: [
                "WshSandbox", "WshText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags(startupLinkerFlags, .when(platforms: [.linux], configuration: .release))]),
        // Measures the Request + Model layers alone, for scripts/bench-fetch.
        .executableTarget(name: "wsh-bench-fetch", dependencies: ["WshRequest", "WshModel"], path: "scripts/bench-fetch-swift"),
        // Times `archive search` in-process, for scripts/bench-archive.
        .executableTarget(name: "wsh-bench-archive", dependencies: ["WshArchive"], path: "scripts/bench-archive-swift"),
        .executableTarget(
            name: "embed-example", dependencies: ["WshLanguage"], path: "examples/embed"),
        // Renders the man pages from the declarations, for scripts/install and scripts/package-deb.
        .executableTarget(
            name: "wsh-manual", dependencies: ["WshShell", "WshLanguage"], path: "scripts/manual"),

        // Test support: fake HTTP client, recording observer, transcript assertions.
        .target(
            name: "WshTestSupport",
            dependencies: ["WshRequest", "WshModel", "WshSandbox", "WshText"],
            path: "Tests/WshTestSupport"),

        .testTarget(name: "WshTextTests", dependencies: ["WshText"]),
        .testTarget(name: "WshModelTests", dependencies: ["WshModel"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "WshRequestTests",
            dependencies: ["WshRequest", "WshHAR", "WshText", "WshModel", "WshSandbox", "WshTestSupport"]),
        .testTarget(
            name: "WshSandboxTests",
            dependencies: ["WshSandbox", "WshHAR", "WshModel", "WshRequest", "WshTestSupport"]),
        .testTarget(
            name: "WshDataControllerTests",
            dependencies: ["WshDataController", "WshRequest", "WshModel", "WshSandbox", "WshTestSupport"]),
        .testTarget(
            name: "WshViewModelTests",
            dependencies: ["WshViewModel", "WshDataController", "WshRequest", "WshModel", "WshSandbox", "WshTestSupport"]),
        .testTarget(name: "WshLanguageTests", dependencies: ["WshLanguage"]),
        .testTarget(
            name: "WshShellTests",
            dependencies: ["WshShell", "WshViewModel", "WshModel", "WshText", "WshLanguage", "WshSandbox", "WshTestSupport",
                           "WshRequest", "WshHAR", "WshArchive", "WshDataController"]),
        .testTarget(name: "WshCommandLineTests", dependencies: ["WshCommandLine"]),
        .testTarget(name: "WshWebTests", dependencies: ["WshWeb", "WshRequest", "WshTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["WshSandbox", "WshHAR", "WshTestSupport"]),
    ]
)

/// Release link flags that make `wsh` start faster on Linux (measured by
/// scripts/bench-startup) and both executables smaller (scripts/size-report).
/// A position-dependent executable skips the ~100 000 relocations, and the
/// copy-on-write page faults, that the loader would apply to a binary with the
/// Swift runtime and NIO linked in: Go links its command-line tools the same
/// way. The version script exports only `main`, so the dynamic loader and
/// `dladdr` search 500 symbols, not 23 000, and no dynamic symbol table of
/// 3.5 MB is shipped.
///
/// The Swift runtime's C++ half needs libstdc++ and libgcc's unwinder, which the
/// driver links as shared libraries: loading, relocating (5 000 relocations,
/// each a symbol lookup) and initialising them was a third of `wsh -c 'echo
/// hi'`. They are linked in statically: `-static-libgcc` for the unwinder, and
/// for libstdc++ the folder `Sources/wsh/static-cxx` goes first on the search
/// path, where `libstdc++.so` is a linker script naming `libstdc++.a`. libcurl
/// and libedit (C libraries, loaded later with dlopen) do not use either.
var startupLinkerFlags: [String] {
    ["-Xclang-linker", "-no-pie", "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/wsh/exports.map",
     "-Xclang-linker", "-static-libgcc", "-L", "\(Context.packageDirectory)/Sources/wsh/static-cxx"]
}

/// Release link flags that lay `wsh` out in the order a run uses it: the
/// functions and data that `echo hi`, a `fetch 20; list` and a loop touch
/// (Sources/wsh/symbol-order.txt, written by scripts/order-symbols) come first
/// and together, so they share pages instead of each touching its own page of
/// a 20 MB text and a 4 MB data segment. That took 100 of the 930 page faults
/// of a warm `fetch 20; list` and a quarter of `echo hi`'s. LLVM's lld (in the
/// Swift toolchain) reads the order; gold, the default, would not.
var layoutLinkerFlags: [String] {
    ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/wsh/symbol-order.txt",
     "-Xlinker", "--no-warn-symbol-ordering"]
}

/// Release code generation that makes start-up cheaper (scripts/bench-startup).
/// By default the compiler reaches the metadata of a concrete generic type
/// (`[String: CommandSpec]`, `Result<Secret?, RequestError>`, …) through its
/// mangled name: the runtime demangles it and proves each requirement such as
/// `String: Hashable` by scanning every protocol conformance in the binary,
/// 8 000 of them, touching pages all over it. With direct accessors the
/// witness tables are passed in, and `wsh -c 'echo hi'` does no such scan.
for target in package.targets where ![.test, .plugin].contains(target.type) && !["CDynamicLoad", "CCurl", "CEditLine", "CSQLite", "CCommandLine"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                     .when(platforms: [.linux], configuration: .release)),
    ]
}
