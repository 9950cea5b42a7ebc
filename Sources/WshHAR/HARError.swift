/// A HAR file that cannot be written, read or used, in one line.
public struct HARError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
