import WshViewModel

/// `limits`: the token's rate-limit status, one labelled line each.
struct LimitsView {
    let style: Style

    func render(_ limits: LimitsViewModel) -> String {
        let width = limits.lines.map { DisplayWidth.of($0.label) }.max() ?? 0
        return limits.lines.map { line in
            style.dim(DisplayWidth.padRight(line.label, to: width)) + "  " + line.value + "\n"
        }.joined()
    }
}
