/// A set of KML ids kept as 64-bit FNV-1a hashes: 8 bytes an id whatever its length, so a
/// document with a million styles costs megabytes, not the ids' text. Two different ids
/// colliding (odds about n²/2⁶⁵) would only make a missing reference look resolved.
struct KMLIDSet {
    private var hashes: Set<UInt64> = []

    /// FNV-1a over the id's UTF-8 bytes (stable across runs, unlike `Hasher`).
    static func hash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    mutating func insert(_ id: String) { hashes.insert(Self.hash(id)) }

    func contains(_ id: String) -> Bool { hashes.contains(Self.hash(id)) }

    var count: Int { hashes.count }
}
