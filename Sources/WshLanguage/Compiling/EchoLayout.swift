/// How the `-x` line of one command the compiler turned into instructions is made
/// when it runs (`Opcode.echoCommand`): from its source, and from values its
/// instructions have already computed.
///
/// Only code compiled while ``Interpreter/commandWillRun`` is set has echo points, so
/// code compiled without them runs exactly the instructions it ran before.
struct EchoLayout {
    enum Piece {
        /// Source text shown as a value (quoted as needed): a variable's name, a
        /// literal word.
        case value(String)
        /// Source text shown as written: an operator, `=`, `in`.
        case syntax(String)
        /// The value `depth` places below the top of the value stack.
        case stack(Int)
        /// An expression operand kept in echo slot `slot` (`Opcode.keepOperand`);
        /// `source`, as written, when it was not evaluated.
        case kept(slot: Int, source: String)
        /// The items of the innermost `for` loop, one word each.
        case loopItems
    }

    /// The command's name as shown.
    var name: String
    var words: [Piece]
}
