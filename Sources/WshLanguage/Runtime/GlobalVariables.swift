/// Script-scope variables, stored in slots the compiler hands out by name so
/// compiled code reads them by index, never by name.
final class GlobalVariables {
    private(set) var slotsByName: [String: Int] = [:]
    private(set) var names: [String] = []
    var values: [Value?] = []

    /// The slot for `name`, created on first use.
    func slot(for name: String) -> Int {
        if let slot = slotsByName[name] { return slot }
        let slot = names.count
        slotsByName[name] = slot
        names.append(name)
        values.append(nil)
        return slot
    }

    subscript(name: String) -> Value? {
        get { slotsByName[name].flatMap { values[$0] } }
        set { values[slot(for: name)] = newValue }
    }
}
