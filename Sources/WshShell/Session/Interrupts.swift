import CEditLine

/// Ctrl-C, as the shell sees it.
///
/// The SIGINT handler only counts signals; the loop, the language's
/// interrupt hook and the async bridge poll the count and act on it on
/// their own threads, where acting is safe.
///
/// The count lives in CEditLine's C file; this is the Swift side's one way to it.
public enum Interrupts {
    /// Installs the counting handler (no SA_RESTART: a blocked read returns).
    public static func install() {
        _ = wsh_install_sigint_handler()
    }

    /// True when Ctrl-C was pressed and not yet handled.
    public static var pending: Bool { wsh_peek_sigint() > 0 }

    /// Marks pending interrupts handled; returns whether there were any.
    @discardableResult
    public static func take() -> Bool { wsh_take_sigint() > 0 }
}
