/// tippecanoe's tiny-polygon reduction, for one tile and one kind of shape: the sizes of shapes
/// too small to draw (ring areas, line lengths) are added up, and each time the sum reaches the
/// threshold the shape that crossed it is written as a stand-in of exactly that size (a square,
/// a short line), so the total drawn stays close to the total the shapes had. A tile where tiny
/// shapes were seen but none crossed gets one stand-in at the last of them, so no tile that
/// holds data is left empty.
struct TinyShapeAccumulator {
    /// The size one stand-in stands for: tolerance² (areas) or the tolerance (lengths), in map points.
    let threshold: Double
    /// Sizes added since the last stand-in.
    private(set) var pending = 0.0
    /// Stand-ins written in this tile.
    private(set) var written = 0
    /// Where the latest tiny shape was (its first vertex), whose it was and its layer.
    private(set) var last: (x: Double, y: Double, source: Int, layer: UInt16)?

    init(threshold: Double) { self.threshold = threshold }

    /// Adds one tiny shape; true when a stand-in is to be written in its place.
    mutating func add(size: Double, x: Double, y: Double, source: Int, layer: UInt16) -> Bool {
        last = (x, y, source, layer)
        pending += size.isFinite ? max(0, size) : 0
        guard pending >= threshold else { return false }
        pending -= threshold
        written += 1
        return true
    }

    /// The place for one stand-in when tiny shapes were seen in the tile but none was written.
    var leftover: (x: Double, y: Double, source: Int, layer: UInt16)? { written == 0 ? last : nil }
}
