/// The calculator's LED. On a terminal it is drawn as a display; in a pipe
/// it is the bare number, so `$(led)` and scripts read the value.
struct LEDView {
    let style: Style

    func render(_ text: String) -> String {
        guard style.enabled else { return text + "\n" }
        let width = max(16, DisplayWidth.of(text) + 2)
        let face = DisplayWidth.padLeft(text, to: width)
        return style.dim("┌" + String(repeating: "─", count: width + 2) + "┐") + "\n"
            + style.dim("│ ") + style.bold(style.green(face)) + style.dim(" │") + "\n"
            + style.dim("└" + String(repeating: "─", count: width + 2) + "┘") + "\n"
    }
}
