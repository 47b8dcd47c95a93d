import OverlayModel

/// Which children of a tile a feature reaches untouched, decided from its bounds alone: the
/// shortcut `TileSplit.split` takes per feature (a feature inside a child's buffered square
/// is passed on as it is, one outside is skipped), without building any array. Only a feature
/// that straddles a clip line needs the real split.
struct ChildPlacement {
    /// The clip lines of the left and right halves (x) and top and bottom halves (y) with the
    /// buffer, in map points: `TileSplit.split` clips with these.
    let left: (Double, Double), right: (Double, Double)
    let top: (Double, Double), bottom: (Double, Double)
    /// For each child in `TileSplit.children(of:)`'s order, whether its square (without the
    /// buffer) overlaps `TileOptions.clipBox` with some area: a child that does not is given
    /// nothing, so no tile outside the box is written (its buffer alone would reach the
    /// features clipped at the box's edge). All true without a box. Bit `child` of a mask:
    /// this is made for every feature a disk run splits, so it allocates nothing.
    private let inBoxMask: UInt8

    /// Whether child `child` (in `TileSplit.children(of:)`'s order) overlaps the clip box.
    func inBox(_ child: Int) -> Bool { inBoxMask & (1 << UInt8(child)) != 0 }

    init(tile: TileID, options: TileOptions) {
        let world = MapProjection.worldSize
        let z2 = Double(1 << tile.z), x = Double(tile.x), y = Double(tile.y)
        let rects = options.clipWorldRects
        if rects.isEmpty {
            inBoxMask = 0b1111
        } else {
            let side = world / z2 / 2
            var mask: UInt8 = 0
            for (index, child) in TileSplit.children(of: tile).enumerated() {
                let minX = Double(child.x) * side, minY = Double(child.y) * side
                if rects.contains(where: { minX < $0.maxX && minX + side > $0.minX && minY < $0.maxY && minY + side > $0.minY }) {
                    mask |= 1 << UInt8(index)
                }
            }
            inBoxMask = mask
        }
        let k1 = 0.5 * Double(options.buffer) / Double(options.extent)
        let k2 = 0.5 - k1, k3 = 0.5 + k1, k4 = 1 + k1
        // Lines in tile units, divided by 2^z, then scaled to map points: exact, like geojson-vt.
        func line(_ value: Double) -> Double { value / z2 * world }
        left = (line(x - k1), line(x + k3))
        right = (line(x + k2), line(x + k4))
        top = (line(y - k1), line(y + k3))
        bottom = (line(y + k2), line(y + k4))
    }

    /// For each child in `TileSplit.children(of:)`'s order, whether the feature goes to it
    /// unchanged; nil when some child needs it clipped.
    func untouchedChildren(_ bounds: FeatureBounds) -> [Bool]? {
        // 1 inside, 0 outside, nil straddling: AxisClip's per-feature tests.
        func side(_ low: Double, _ high: Double, _ range: (Double, Double)) -> Bool? {
            if low >= range.0 && high < range.1 { return true }
            if high < range.0 || low >= range.1 { return false }
            return nil
        }
        let columns = [side(bounds.minX, bounds.maxX, left), side(bounds.minX, bounds.maxX, right)]
        let rows = [side(bounds.minY, bounds.maxY, top), side(bounds.minY, bounds.maxY, bottom)]
        var result = [false, false, false, false]
        for child in 0..<4 {
            let column = columns[child / 2], row = rows[child % 2]
            if !inBox(child) || column == false || row == false { continue }  // never reaches this child
            guard column == true, row == true else { return nil }
            result[child] = true
        }
        return result
    }
}
