import CEditLine

/// Ctrl-C and Ctrl-\, as the shell sees them.
///
/// The SIGINT handler only counts signals; the loop, the language's
/// interrupt hook and the async bridge poll the count and act on it on
/// their own threads, where acting is safe. SIGQUIT is ignored by an
/// interactive session, as at a shell's prompt, and otherwise ends the
/// process at once and quietly with status 131 (128 + SIGQUIT), instead of
/// the runtime's crash report.
///
/// The count lives in CEditLine's C file; this is the Swift side's one way to it.
public enum Interrupts {
    /// Installs the counting SIGINT handler (no SA_RESTART: a blocked read
    /// returns) and the SIGQUIT disposition for the kind of session.
    public static func install(interactive: Bool = false) {
        _ = wsh_install_sigint_handler()
        _ = wsh_install_sigquit_handler(interactive ? 1 : 0)
    }

    /// True when Ctrl-C was pressed and not yet handled.
    public static var pending: Bool { wsh_peek_sigint() > 0 }

    /// Marks pending interrupts handled; returns whether there were any.
    @discardableResult
    public static func take() -> Bool { takeCount() > 0 }

    /// How many SIGINTs arrived since the last take; clears the count in one
    /// atomic step, so a signal arriving meanwhile is counted by this take or the next.
    static func takeCount() -> Int { Int(wsh_take_sigint()) }
}
