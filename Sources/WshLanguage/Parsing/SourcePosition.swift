/// A place in a script: the file (or a label such as `-c`), the 1-based line and the
/// 1-based column counted in Unicode scalars.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The file name or label the text came from.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a position.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}
