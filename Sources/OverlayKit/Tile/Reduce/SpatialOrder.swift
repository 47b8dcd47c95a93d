import OverlayModel

/// Features in the order of a Z-order (quadkey) curve over the map, the order tippecanoe sorts
/// features in: neighbours on the curve are mostly neighbours on the map, so choosing every
/// n-th feature along it thins the data evenly, and the gaps between neighbours measure density.
struct SpatialOrder {
    /// One feature's place on the curve.
    struct Entry {
        /// Interleaved bits of x (odd) and y (even), 32 bits each, the world scaled to 2^32.
        var key: UInt64
        /// The feature's input position.
        var source: Int
    }

    /// Sorted by key, then by input position (the order never depends on threads).
    let entries: [Entry]

    /// Orders `anchors` (input position, map point).
    init(_ anchors: [(source: Int, x: Double, y: Double)]) {
        self.init(keyed: anchors.map { Entry(key: Self.key(x: $0.x, y: $0.y), source: $0.source) })
    }

    /// Orders entries whose keys are already made.
    init(keyed entries: [Entry]) {
        var entries = entries
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.source < $1.source }
        self.entries = entries
    }

    /// The Morton key of a map point; points off the map (unwrapped longitudes, clamped
    /// latitudes) are clamped to its edge.
    static func key(x: Double, y: Double) -> UInt64 {
        let scale = 4_294_967_296 / MapProjection.worldSize
        // x in the odd bits, as tippecanoe's quadkey (`encode_quadkey`): gaps along a row are
        // then tippecanoe's, which its zoom guess and thinning are tuned to.
        return key(column: coordinate(x * scale), row: coordinate(y * scale))
    }

    /// The Morton key of a column and row (of the 2^32 grid, or of a zoom's tiles).
    static func key(column: UInt32, row: UInt32) -> UInt64 {
        (interleave(column) << 1) | interleave(row)
    }

    private static func coordinate(_ value: Double) -> UInt32 {
        guard value.isFinite, value > 0 else { return 0 }
        return value >= 4_294_967_295 ? .max : UInt32(value)
    }

    /// Spreads 32 bits to the even bit positions of 64.
    private static func interleave(_ value: UInt32) -> UInt64 {
        var bits = UInt64(value)
        bits = (bits | (bits << 16)) & 0x0000_FFFF_0000_FFFF
        bits = (bits | (bits << 8)) & 0x00FF_00FF_00FF_00FF
        bits = (bits | (bits << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        bits = (bits | (bits << 2)) & 0x3333_3333_3333_3333
        bits = (bits | (bits << 1)) & 0x5555_5555_5555_5555
        return bits
    }
}
