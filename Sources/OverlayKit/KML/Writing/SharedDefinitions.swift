/// Values shared by many features (styles, StyleMaps, schemas), each written once and given a
/// 1-based id in order of first use, so output is deterministic.
struct SharedDefinitions<Value: Hashable> {
    private var ids: [Value: Int] = [:]
    /// The values in order of first use; the value at index i has id i + 1.
    private(set) var values: [Value] = []

    /// The id of a value, and whether it was new.
    mutating func id(for value: Value) -> (id: Int, isNew: Bool) {
        if let known = ids[value] { return (known, false) }
        values.append(value)
        ids[value] = values.count
        return (values.count, true)
    }
}
