/// splitmix64's finalizer (Steele, Lea and Flood): a well-mixed 64-bit value from any seed,
/// and a number in [0, 1) from it. A plan picks its samples with it by what they are (a tile's
/// id, a record's offset), so the same ones are picked on any number of threads.
enum SplitMix64 {
    /// The seed's bits, mixed.
    static func mix(_ seed: UInt64) -> UInt64 {
        var value = (seed ^ (seed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in [0, 1) from the seed: the mixed value's top 53 bits.
    static func unit(_ seed: UInt64) -> Double {
        Double(mix(seed) >> 11) / Double(UInt64(1) << 53)
    }
}
