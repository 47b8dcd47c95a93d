/// Snap rounding to the integer tile grid (Hobby; Guibas and Marimont): every vertex rounds to
/// its pixel (the unit square around an integer point that `TileUnits.round` sends it to, its
/// "hot pixel"), and every segment is routed through the centre of each hot pixel it passes
/// through, in order. Lines that do not cross before rounding do not cross after it (they may
/// meet, or run together), so polygons that share borders and do not overlap keep sharing them
/// and do not overlap in integer tile units; rounding each vertex alone can move a vertex to the
/// other side of a nearby segment.
///
/// O(n) to index n hot pixels; a segment costs the grid cells along it plus the hot pixels in them.
struct GridSnapRounding {
    private let pixelX: [Int32], pixelY: [Int32]
    /// An index of the pixels, or nil when they are few enough to look at every one.
    private let grid: UniformGrid?
    private static let fewPixels = 48

    /// Hot pixels at every vertex of `xy` (x, y pairs in unrounded tile units).
    init(vertices xy: [Double]) {
        var seen = KeyTable(capacity: xy.count / 2)
        var pixelX = [Int32](), pixelY = [Int32]()
        pixelX.reserveCapacity(xy.count / 2)
        pixelY.reserveCapacity(xy.count / 2)
        var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
        var index = 0
        while index < xy.count {
            let x = TileUnits.round(xy[index]), y = TileUnits.round(xy[index + 1])
            if seen.insert(UInt64(UInt32(bitPattern: x)) << 32 | UInt64(UInt32(bitPattern: y))) == nil {
                pixelX.append(x)
                pixelY.append(y)
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
            index += 2
        }
        self.pixelX = pixelX
        self.pixelY = pixelY
        guard pixelX.count > Self.fewPixels else {
            grid = nil
            return
        }
        grid = UniformGrid(minX: Double(minX), minY: Double(minY), maxX: Double(maxX), maxY: Double(maxY),
                           minimumCellSize: 4, itemCount: pixelX.count) { item, grid in
            grid.cell(x: Double(pixelX[item]), y: Double(pixelY[item]))
        }
    }

    /// The path through `xy` (x, y pairs, unrounded tile units) snapped: integer x, y pairs, the
    /// first and last at the first and last vertex's pixels, no point repeated in a row.
    func snapped(_ xy: [Double]) -> [Int32] {
        var result = [Int32](), ends = [Int]()
        snap(xy, paths: [0, xy.count], into: &result, ends: &ends)
        return result
    }

    /// Appends to `result` every path of `xy` snapped, as `snapped` returns it, and to `ends` the
    /// count of `result` after each: one call for all of a tile's arcs, so that the tables are
    /// opened and the scratch space made once, not per arc.
    /// - Parameters:
    ///   - xy: x, y pairs in unrounded tile units.
    ///   - starts: path `p` is `xy[starts[p]..<starts[p + 1]]` (indices of x values).
    ///   - result: the integer x, y pairs the paths are appended to.
    ///   - ends: the count of `result` after each path is appended to it.
    func snap(_ xy: [Double], paths starts: [Int], into result: inout [Int32], ends: inout [Int]) {
        guard starts.count > 1 else { return }
        // The paths are read unchecked below.
        precondition(starts[0] >= 0 && starts[starts.count - 1] <= xy.count, "paths beyond the vertices")
        var crossed = [(Int32, Int32)]()
        xy.withUnsafeBufferPointer { xy in
            pixelX.withUnsafeBufferPointer { pixelX in
                pixelY.withUnsafeBufferPointer { pixelY in
                    for path in 0..<starts.count - 1 {
                        defer { ends.append(result.count) }
                        let start = starts[path], end = starts[path + 1]
                        guard end - start >= 2 else { continue }
                        var lastX = TileUnits.round(xy[start]), lastY = TileUnits.round(xy[start + 1])
                        result.append(lastX)
                        result.append(lastY)
                        var index = start + 2
                        while index + 1 < end {
                            let ax = xy[index - 2], ay = xy[index - 1], bx = xy[index], by = xy[index + 1]
                            let startX = TileUnits.round(ax), startY = TileUnits.round(ay)
                            let endX = TileUnits.round(bx), endY = TileUnits.round(by)
                            if ax != bx || ay != by {
                                crossed.removeAll(keepingCapacity: true)
                                collect(ax, ay, bx, by, skipping: (startX, startY), (endX, endY), pixelX, pixelY, into: &crossed)
                                if !crossed.isEmpty {
                                    Self.sortAlong(&crossed, ax, ay, bx, by)
                                    for (x, y) in crossed where x != lastX || y != lastY {
                                        result.append(x)
                                        result.append(y)
                                        lastX = x
                                        lastY = y
                                    }
                                }
                            }
                            if endX != lastX || endY != lastY {
                                result.append(endX)
                                result.append(endY)
                                lastX = endX
                                lastY = endY
                            }
                            index += 2
                        }
                    }
                }
            }
        }
    }

    /// Appends to `crossed` the hot pixels but `first` and `last` whose closed squares the segment
    /// from (ax, ay) to (bx, by) meets, in the order the index lists them.
    @inline(__always)
    private func collect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, skipping first: (Int32, Int32),
                         _ last: (Int32, Int32), _ pixelX: UnsafeBufferPointer<Int32>, _ pixelY: UnsafeBufferPointer<Int32>,
                         into crossed: inout [(Int32, Int32)]) {
        @inline(__always)
        func look(_ item: Int) {
            let px = pixelX[item], py = pixelY[item]
            if (px == first.0 && py == first.1) || (px == last.0 && py == last.1) { return }
            if Self.passes(ax, ay, bx, by, through: px, py) { crossed.append((px, py)) }
        }
        if let grid {
            grid.forEachItem(ax: ax, ay: ay, bx: bx, by: by, pad: 0.5, look)
        } else {
            for item in 0..<pixelX.count { look(item) }
        }
    }

    /// Sorts the pixels a segment from (ax, ay) to (bx, by) passes through in order along it: by
    /// the major axis, then the minor, each in the segment's direction.
    private static func sortAlong(_ crossed: inout [(Int32, Int32)], _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        guard crossed.count > 1 else { return }
        let dx = bx - ax, dy = by - ay
        let xMajor = abs(dx) >= abs(dy)
        let sx: Int64 = dx < 0 ? -1 : 1, sy: Int64 = dy < 0 ? -1 : 1
        crossed.sort { p, q in
            let (p1, p2) = xMajor ? (sx * Int64(p.0), sy * Int64(p.1)) : (sy * Int64(p.1), sx * Int64(p.0))
            let (q1, q2) = xMajor ? (sx * Int64(q.0), sy * Int64(q.1)) : (sy * Int64(q.1), sx * Int64(q.0))
            return p1 < q1 || (p1 == q1 && p2 < q2)
        }
    }

    /// Whether the segment a–b meets the closed unit square centred on (px, py).
    @inline(__always)
    static func passes(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, through px: Int32, _ py: Int32) -> Bool {
        let low = Double(px) - 0.5, high = Double(px) + 0.5, bottom = Double(py) - 0.5, top = Double(py) + 0.5
        if max(ax, bx) < low || min(ax, bx) > high || max(ay, by) < bottom || min(ay, by) > top { return false }
        let dx = bx - ax, dy = by - ay
        let s1 = dx * (bottom - ay) - dy * (low - ax), s2 = dx * (bottom - ay) - dy * (high - ax)
        let s3 = dx * (top - ay) - dy * (low - ax), s4 = dx * (top - ay) - dy * (high - ax)
        return !((s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0) || (s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0))
    }
}

/// A tile's integer grid: map points to tile units exactly as `TileBuilder` computes them.
struct TileUnits {
    /// 2^(z − 28): map points to tiles, exactly.
    let scale: Double
    let tileX: Double, tileY: Double, extent: Double

    init(tile: TileID, extent: Int) {
        scale = Double(sign: .plus, exponent: tile.z - 28, significand: 1)
        tileX = Double(tile.x)
        tileY = Double(tile.y)
        self.extent = Double(extent)
    }

    /// x in unrounded tile units.
    @inline(__always)
    func x(_ x: Double) -> Double { extent * (x * scale - tileX) }
    /// y in unrounded tile units.
    @inline(__always)
    func y(_ y: Double) -> Double { extent * (y * scale - tileY) }

    /// JavaScript's Math.round (halves toward +∞), which geojson-vt's integers come from.
    @inline(__always)
    static func round(_ value: Double) -> Int32 {
        let floor = value.rounded(.down)
        let rounded = value - floor >= 0.5 ? floor + 1 : floor
        // In range (every tile unit of a real tile) the conversion is exact; NaN and beyond saturate.
        if rounded >= -2_147_483_648 && rounded <= 2_147_483_647 { return Int32(rounded) }
        return Int32(saturating: rounded)
    }
}
