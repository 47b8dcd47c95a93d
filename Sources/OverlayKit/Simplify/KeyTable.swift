/// An open-addressing table from 64-bit keys to non-negative `Int32` values (a set when the
/// values do not matter): the shared-border code makes one or two probes per vertex of every
/// tile, and `Dictionary`/`Set`'s seeded SipHash cost several times the probe itself.
/// Nothing iterates it, so its order never reaches an output.
struct KeyTable {
    private var keys: [UInt64]
    /// -1 marks an empty slot.
    private var values: [Int32]
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// A table that holds `capacity` keys without growing.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// The value stored for `key`, or nil.
    @inline(__always)
    func value(_ key: UInt64) -> Int32? {
        let held = values[slot(of: key)]
        return held < 0 ? nil : held
    }

    /// Whether `key` is held.
    @inline(__always)
    func contains(_ key: UInt64) -> Bool { value(key) != nil }

    /// Stores `value` (≥ 0) for `key` unless the key is held; returns the value held before, or
    /// nil when `value` was stored.
    @inline(__always)
    @discardableResult
    mutating func insert(_ key: UInt64, value: Int32 = 0) -> Int32? {
        if count * 2 >= values.count { grow() }
        let slot = slot(of: key)
        let held = values[slot]
        guard held < 0 else { return held }
        values[slot] = value
        keys[slot] = key
        count += 1
        return nil
    }

    /// The slot holding `key`, or the empty slot where it goes: one probe sequence over the raw
    /// slots, with no uniqueness or bounds check per step (the mask keeps every slot in range,
    /// and the table is never more than half full, so an empty slot ends the walk).
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = self.mask
        return values.withUnsafeBufferPointer { values in
            keys.withUnsafeBufferPointer { keys in
                var slot = Self.hash(key) & mask
                while values[slot] >= 0 && keys[slot] != key { slot = (slot + 1) & mask }
                return slot
            }
        }
    }

    @inline(__always)
    private static func hash(_ key: UInt64) -> Int {
        var h = (key ^ (key >> 29)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        h = h &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        return Int(truncatingIfNeeded: h)
    }

    private mutating func grow() {
        var larger = KeyTable(capacity: values.count)
        for slot in values.indices where values[slot] >= 0 { larger.insert(keys[slot], value: values[slot]) }
        self = larger
    }
}
