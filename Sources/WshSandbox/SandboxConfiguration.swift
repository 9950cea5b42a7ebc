/// How to start a sandbox: where it listens, what data it generates, which
/// token it accepts and which faults it injects.
public struct SandboxConfiguration: Sendable {
    /// The address to bind; keep it on loopback (the admin API has no auth).
    public var host: String
    /// The port; 0 picks a free one (read it back from `SandboxServer.port`).
    public var port: Int
    /// The seed every generated user, status and comment comes from.
    public var seed: UInt64
    /// How many users to generate (at least 1).
    public var users: Int
    /// How many statuses to generate for the public timeline.
    public var statuses: Int
    /// The access token the API accepts.
    public var token: String
    /// Faults injected from the start.
    public var faults: SandboxFaults
    /// Writes one line per request to stderr (the standalone server does).
    public var logRequests: Bool

    /// The token a sandbox accepts unless told otherwise.
    public static let defaultToken = "sandbox-token"

    public init(
        host: String = "127.0.0.1", port: Int = 0, seed: UInt64 = 1, users: Int = 50,
        statuses: Int = 1000, token: String = SandboxConfiguration.defaultToken,
        faults: SandboxFaults = SandboxFaults(), logRequests: Bool = false
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.users = users
        self.statuses = statuses
        self.token = token
        self.faults = faults
        self.logRequests = logRequests
    }
}
