/// Compiled code for a chunk, a sourced file or a function body, with the tables its
/// instructions index into.
final class CodeUnit {
    /// Where a call goes: a fixed name, or nil when the name is the first word's value.
    struct CallSite {
        var name: String?
    }

    /// The command an instruction belongs to, for error messages.
    struct CommandOrigin {
        var name: String
        var position: SourcePosition
    }

    /// A label for messages: the function name or the file.
    let name: String
    /// Whether variables are local to a call of this unit.
    let isFunction: Bool

    var instructions: [Instruction] = []
    /// For each instruction, an index into `origins`.
    var instructionOrigins: [Int32] = []
    var origins: [CommandOrigin] = []
    var constants: [Value] = []
    var sites: [CallSite] = []
    var functions: [CodeUnit] = []
    var errors: [LanguageError] = []
    /// Local variable slots of a function unit, by name.
    var localSlots: [String: Int] = [:]
    /// Names a function declared `global`: they read and set script scope.
    var globalNames: Set<String> = []

    init(name: String, isFunction: Bool) {
        self.name = name
        self.isFunction = isFunction
    }

    /// The command that instruction `index` belongs to.
    func origin(at index: Int) -> CommandOrigin? {
        guard index >= 0, index < instructionOrigins.count else { return nil }
        let origin = Int(instructionOrigins[index])
        return origin >= 0 ? origins[origin] : nil
    }
}
