/// The distinct strings of a string column in first-use order, and each value's index among
/// them. An open-addressing table hashed with FNV-1a: every string column of every MLT tile is
/// looked up here, where `Dictionary`'s seeded hashing of byte arrays cost more than the rest
/// of the column's encoding.
enum MLTStringDictionary {
    /// The distinct strings of `values` in first-use order, and the index of each value's string.
    /// O(total bytes) expected.
    static func build(_ values: [[UInt8]]) -> (distinct: [[UInt8]], indices: [UInt64]) {
        var distinct = [[UInt8]](), indices = [UInt64]()
        indices.reserveCapacity(values.count)
        // At most half full: a power of two at least twice the value count.
        var capacity = 16
        while capacity < 2 * values.count { capacity *= 2 }
        let mask = capacity - 1
        var slots = [Int](repeating: -1, count: capacity), hashes = [UInt64](repeating: 0, count: capacity)
        for value in values {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in value { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
            while true {
                let entry = slots[slot]
                if entry < 0 {
                    slots[slot] = distinct.count
                    hashes[slot] = hash
                    indices.append(UInt64(distinct.count))
                    distinct.append(value)
                    break
                }
                if hashes[slot] == hash && distinct[entry] == value {
                    indices.append(UInt64(entry))
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return (distinct, indices)
    }

    /// The distinct numbers of `numbers` in first-use order (into `distinct`), and the index of
    /// each value's number among them (into `indices`): the dictionary of texts whose equal values
    /// have equal numbers. A few values (most columns of most tiles) are matched by a scan, more by
    /// an open-addressing table in `slots`. The three arrays are emptied first and reused.
    static func build(numbers: [UInt32], distinct: inout [UInt32], indices: inout [UInt64], slots: inout [Int32]) {
        distinct.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        indices.reserveCapacity(numbers.count)
        if numbers.count <= 16 {
            for number in numbers {
                if let known = distinct.firstIndex(of: number) { indices.append(UInt64(known)); continue }
                indices.append(UInt64(distinct.count))
                distinct.append(number)
            }
            return
        }
        var capacity = 32
        while capacity < 2 * numbers.count { capacity *= 2 }
        let mask = capacity - 1
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(-1, count: capacity))     // an index into `distinct`
        for number in numbers {
            var slot = Int(truncatingIfNeeded: (UInt64(number) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while true {
                let entry = Int(slots[slot])
                if entry < 0 {
                    slots[slot] = Int32(distinct.count)
                    indices.append(UInt64(distinct.count))
                    distinct.append(number)
                    break
                }
                if distinct[entry] == number {
                    indices.append(UInt64(entry))
                    break
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
