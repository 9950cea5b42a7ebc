/// Where this build of wsh came from, for `--version`.
///
/// `scripts/stamp-commit` (run by scripts/start, test, install and
/// package-deb) writes `BuildCommit.generated.swift` beside this file, which
/// git ignores; its `BuildStamp.commit` shadows the default below. Without
/// it, as in a fresh clone built with a plain `swift build`, the commit reads
/// "unknown". Nothing runs at start-up: the commit is a compiled-in string.
public enum BuildInfo {
    /// The abbreviated commit hash the binary was built from, or "unknown".
    public static var commit: String { BuildStamp.commit }

    /// `--version`'s first line: `wsh 0.1.0 (commit 68438ea)`.
    public static func versionLine(_ version: String) -> String {
        "wsh \(version) (commit \(commit))"
    }

    /// The licence the binary is distributed under, as LICENSE at the top
    /// of the repository grants it.
    public static let licenceLine = "Licensed under the Apache License 2.0"

    /// What `--version` prints: the version line, then the licence line.
    /// Scripts that want the version read the first line only.
    public static func versionText(_ version: String) -> String {
        versionLine(version) + "\n" + licenceLine
    }
}

/// What a generated file may declare about the build.
protocol BuildStampFields {
    static var commit: String { get }
}

extension BuildStampFields {
    static var commit: String { "unknown" }
}

/// The build's stamp: the defaults above, unless a generated file gives its own.
enum BuildStamp: BuildStampFields {}
