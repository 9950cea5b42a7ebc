/// Why a sandbox could not start.
public enum SandboxStartError: Error, Sendable, CustomStringConvertible {
    /// The configuration cannot be served (e.g. a negative count), with why.
    case invalidConfiguration(String)
    /// Binding or running the server failed (e.g. the port is taken).
    case serverFailed(host: String, port: Int, underlying: String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let why):
            return "invalid configuration: \(why)"
        case .serverFailed(let host, let port, let underlying):
            return "cannot listen on \(host):\(port): \(underlying)"
        }
    }
}
