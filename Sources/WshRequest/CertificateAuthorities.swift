#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The certificate authorities a client trusts to vouch for https servers,
/// and how a user can trust another one.
///
/// A server no trusted CA vouches for is refused: there is no value of this
/// type that turns verification off.
public struct CertificateAuthorities: Sendable, Hashable, CustomStringConvertible {
    /// A PEM file of CA certificates trusted in place of libcurl's default
    /// bundle (the system's); nil for the default. As with curl's `--cacert`,
    /// a CA directory libcurl was built with still counts.
    public var bundle: String?
    /// Who named `bundle`, for messages: `--cacert`, `$CURL_CA_BUNDLE`.
    public var origin: String?
    /// How to trust a private CA, said after an untrusted-certificate error
    /// (the caller knows its own knob, e.g. a command-line option).
    public var advice: String?

    /// libcurl's default bundle.
    public static let system = CertificateAuthorities()

    public init(bundle: String? = nil, origin: String? = nil, advice: String? = nil) {
        self.bundle = bundle
        self.origin = origin
        self.advice = advice
    }

    /// The variables curl's tools read, in their order, when no bundle was
    /// named on the command line.
    public static let environmentVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"]

    /// The bundle the first of `environmentVariables` that is set and not
    /// empty names, else the system's (`environment` looks a variable up).
    public static func fromEnvironment(_ environment: (String) -> String? = Self.variable) -> CertificateAuthorities {
        for name in environmentVariables {
            if let path = environment(name), !path.isEmpty { return CertificateAuthorities(bundle: path, origin: "$" + name) }
        }
        return .system
    }

    /// The process's environment variable `name`.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Which CAs these are, for messages: `the system's CAs`, `the CAs in FILE (--cacert)`.
    public var description: String {
        guard let bundle else { return "the system's CAs" }
        return "the CAs in \(bundle)" + (origin.map { " (\($0))" } ?? "")
    }
}
