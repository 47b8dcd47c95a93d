/// The position of a point along a Hilbert curve of order 32 laid over the whole world in
/// longitude/latitude (a 2³² × 2³² grid, cells about 1 cm wide): points close on the curve are
/// close on the map, so rows sorted by it make spatially compact row groups. The world, not the
/// data's extent, is the frame, so a key needs nothing but its point and the same point always
/// gets the same key.
enum HilbertIndex {
    /// The key of the point at `longitude`, `latitude` (clamped to the world).
    static func key(longitude: Double, latitude: Double) -> UInt64 {
        let cells = 4_294_967_296.0, last = cells - 1
        let x = UInt64(max(0, min(last, ((longitude + 180) / 360 * cells).rounded(.down))))
        let y = UInt64(max(0, min(last, ((latitude + 90) / 180 * cells).rounded(.down))))
        return key(x: x, y: y)
    }

    /// The curve position of cell (`x`, `y`), each below 2³² (the classic iterative xy → d).
    static func key(x: UInt64, y: UInt64) -> UInt64 {
        let n: UInt64 = 1 << 32
        var x = x, y = y
        var d: UInt64 = 0
        var s: UInt64 = 1 << 31
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            d = d &+ s &* s &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
