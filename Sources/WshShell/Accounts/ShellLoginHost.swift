import FoundationEssentials
import WshRequest
import WshViewModel

/// The I/O of `login`'s flow, for `LoginViewModel`: the loopback listener
/// (watching the terminal for a pasted line), the accounts file (0600, under
/// its lock), and the masking of secrets. It decides nothing.
final class ShellLoginHost: LoginHost {
    private let connection: Connection
    private let store: AccountStore
    /// The terminal a pasted code comes from, when stdin is one.
    private let pasteFrom: Int32?

    init(connection: Connection, store: AccountStore, pasteFrom: Int32?) {
        self.connection = connection
        self.store = store
        self.pasteFrom = pasteFrom
    }

    func listen(port: Int, path: String) throws(RequestError) -> any RedirectListening {
        TerminalRedirectListener(try LoopbackListener(port: port, path: path), watching: pasteFrom)
    }

    func keep(app: OAuthApp) throws(LoginFailure) {
        let kept = StoredApp(api: connection.accountKey, clientID: app.key, clientSecret: app.secret.revealed,
                             redirectURIs: app.redirectURIs)
        try storing { () throws(AccountStoreError) in
            try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in file.keep(kept) }
        }
    }

    func keep(pending: PendingLogin) throws(LoginFailure) {
        try storing { () throws(AccountStoreError) in try store.savePending(pending) }
    }

    func keep(account: SignedInAccount) throws(LoginFailure) {
        let stored = StoredAccount(api: connection.accountKey, uid: account.uid, screenName: account.screenName,
                                   accessToken: account.token.revealed, expiresAt: account.expiresAt,
                                   dialect: connection.dialectID)
        try storing { () throws(AccountStoreError) in
            try connection.updateAccounts { (file: inout AccountsFile) throws(AccountStoreError) in file.signIn(stored) }
        }
    }

    func forgetPending() { store.removePending() }

    func mask(_ secret: String) { connection.remember(secret: secret) }

    private func storing(_ body: () throws(AccountStoreError) -> Void) throws(LoginFailure) {
        do { try body() } catch { throw .message(error.description) }
    }
}

/// The loopback listener, also ending its wait when the terminal has a pasted line.
final class TerminalRedirectListener: RedirectListening {
    private let listener: LoopbackListener
    private let watching: Int32?

    init(_ listener: LoopbackListener, watching: Int32?) {
        self.listener = listener
        self.watching = watching
    }

    var redirectURI: String { listener.redirectURI }

    func waitForRedirect(timeout: Duration, expectedState: String, shouldStop: () -> Bool,
                         refused: (OAuthRedirect.Failure) -> Void) -> LoopbackListener.Outcome {
        listener.waitForRedirect(timeout: timeout, expectedState: expectedState, watching: watching,
                                 shouldStop: shouldStop, refused: refused)
    }

    func close() { listener.close() }
}
