/// Script-scope variables, stored in slots the compiler hands out by name so
/// compiled code reads them by index, never by name.
final class GlobalVariables {
    private(set) var slotsByName: [String: Int] = [:]
    private(set) var names: [String] = []
    /// One value per slot, nil while unset. The machine reads and writes it through
    /// its base pointer; it grows (and may move) only when a new name gets a slot.
    @exclusivity(unchecked) var values = Buffer<Value?>()

    deinit { values.release() }

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
        set {
            // The slot first: making one may move `values`.
            let slot = slot(for: name)
            values[slot] = newValue
        }
    }
}
