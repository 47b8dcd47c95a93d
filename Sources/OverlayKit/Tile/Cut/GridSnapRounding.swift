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
    /// The pixels, cell by cell (cell `c`'s are at `cellStarts[c]..<cellStarts[c + 1]`), or in
    /// the order given when they are few enough to look at every one (`cellStarts` empty).
    private let pixelX: [Int32], pixelY: [Int32]
    private let cellStarts: [Int32]
    /// The pixels' bounds; cells are `1 << shift` units square from (minX, minY).
    private let minX: Int64, minY: Int64, maxX: Int64, maxY: Int64
    private let shift: Int64, columns: Int64
    /// At most this many pixels are looked at one by one for every segment; beyond, a grid is
    /// built and walked.
    private static let fewPixels = 8

    /// Hot pixels at every vertex of `xy` (x, y pairs in unrounded tile units).
    init(vertices xy: [Double]) {
        var seen = KeyTable(capacity: xy.count / 2)
        var pixelX = [Int32](), pixelY = [Int32]()
        pixelX.reserveCapacity(xy.count / 2)
        pixelY.reserveCapacity(xy.count / 2)
        var index = 0
        while index < xy.count {
            let x = TileUnits.round(xy[index]), y = TileUnits.round(xy[index + 1])
            if seen.insert(UInt64(UInt32(bitPattern: x)) << 32 | UInt64(UInt32(bitPattern: y))) == nil {
                pixelX.append(x)
                pixelY.append(y)
            }
            index += 2
        }
        self.init(pixelX: pixelX, pixelY: pixelY)
    }

    /// Hot pixels at the integer points `pixelX[i]`, `pixelY[i]` (the same length). A pixel may
    /// come more than once: a segment then meets it more than once, and `snap` draws it once,
    /// so the paths are those of the pixels without repeats.
    init(pixelX: [Int32], pixelY: [Int32]) {
        precondition(pixelX.count == pixelY.count, "one y per x")
        var minX = Int64(Int32.max), minY = Int64(Int32.max), maxX = Int64(Int32.min), maxY = Int64(Int32.min)
        for index in pixelX.indices {
            minX = min(minX, Int64(pixelX[index])); maxX = max(maxX, Int64(pixelX[index]))
            minY = min(minY, Int64(pixelY[index])); maxY = max(maxY, Int64(pixelY[index]))
        }
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        guard pixelX.count > Self.fewPixels else {
            (self.pixelX, self.pixelY, cellStarts, shift, columns) = (pixelX, pixelY, [], 0, 0)
            return
        }
        // Integer cells a power of two across (at least 4), about as many as pixels: a cell is
        // a shift away, with no Double to round for a segment's cells. Sides are below 2^33.
        var shift: Int64 = 2
        while shift < 34 && ((maxX - minX) >> shift + 1) * ((maxY - minY) >> shift + 1) > Int64(pixelX.count) { shift += 1 }
        let columns = (maxX - minX) >> shift + 1, cellCount = Int(columns * ((maxY - minY) >> shift + 1))
        func cell(_ item: Int) -> Int {
            Int(((Int64(pixelY[item]) - minY) >> shift) * columns + (Int64(pixelX[item]) - minX) >> shift)
        }
        // A counting sort by cell, keeping the given order within a cell.
        var starts = [Int32](repeating: 0, count: cellCount + 1)
        for item in pixelX.indices { starts[cell(item) + 1] += 1 }
        for index in 0..<cellCount { starts[index + 1] += starts[index] }
        var fill = starts
        var sortedX = [Int32](repeating: 0, count: pixelX.count), sortedY = sortedX
        for item in pixelX.indices {
            let at = cell(item)
            sortedX[Int(fill[at])] = pixelX[item]
            sortedY[Int(fill[at])] = pixelY[item]
            fill[at] += 1
        }
        (self.pixelX, self.pixelY, cellStarts, self.shift, self.columns) = (sortedX, sortedY, starts, shift, columns)
    }

    /// The path through `xy` (x, y pairs, unrounded tile units) snapped: integer x, y pairs, the
    /// first and last at the first and last vertex's pixels, no point repeated in a row.
    func snapped(_ xy: [Double]) -> [Int32] {
        var result = [Int32](), crossed = [(Int32, Int32)]()
        snap(xy, from: 0, to: xy.count, into: &result, crossed: &crossed)
        return result
    }

    /// Appends to `result` the path through `xy[start..<end]` snapped, as `snapped` returns it;
    /// `crossed` is scratch space, kept by the caller so that a tile's arcs allocate nothing.
    /// - Parameters:
    ///   - xy: x, y pairs in unrounded tile units.
    ///   - start: the index in `xy` of the path's first x.
    ///   - end: the index in `xy` just past the path's last y.
    ///   - result: the integer x, y pairs the path is appended to.
    ///   - crossed: scratch space for the hot pixels a segment passes through.
    func snap(_ xy: [Double], from start: Int, to end: Int, into result: inout [Int32], crossed: inout [(Int32, Int32)]) {
        guard end - start >= 2 else { return }
        var previousX = TileUnits.round(xy[start]), previousY = TileUnits.round(xy[start + 1])
        // The last pair appended, kept here rather than read back from `result`.
        var lastX = previousX, lastY = previousY
        result.append(lastX)
        result.append(lastY)
        @inline(__always)
        func append(_ x: Int32, _ y: Int32) {
            if x == lastX && y == lastY { return }
            result.append(x)
            result.append(y)
            lastX = x
            lastY = y
        }
        var index = start + 2
        while index + 1 < end {
            let ax = xy[index - 2], ay = xy[index - 1], bx = xy[index], by = xy[index + 1]
            let startX = previousX, startY = previousY
            let endX = TileUnits.round(bx), endY = TileUnits.round(by)
            previousX = endX
            previousY = endY
            if !crossed.isEmpty { crossed.removeAll(keepingCapacity: true) }
            if (ax != bx || ay != by) && !Self.meetsOnlyEndPixels(ax, ay, bx, by, startX, startY, endX, endY) {
                collect(ax, ay, bx, by, startX, startY, endX, endY, into: &crossed)
            }
            if !crossed.isEmpty { Self.appendInOrder(&crossed, ax, ay, bx, by, append) }
            append(endX, endY)
            index += 2
        }
    }

    /// Adds to `crossed` every pixel but the end pixels whose closed square the segment from
    /// (ax, ay) to (bx, by) meets (`passes`), looking only at the pixels within one of the end
    /// pixels' bounds in x and in y (an end lies within half a unit of its pixel, so no other
    /// pixel's square reaches the segment), in the cells those bounds cover, and for a long
    /// diagonal segment only the cells near it, column by column.
    @inline(__always)
    private func collect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                         _ startX: Int32, _ startY: Int32, _ endX: Int32, _ endY: Int32,
                         into crossed: inout [(Int32, Int32)]) {
        // NaN and ±∞ round to no pixel in particular: look at every pixel (`passes` decides).
        let nonFinite = !(ax.isFinite && ay.isFinite && bx.isFinite && by.isFinite)
        let lowX = nonFinite ? minX : max(Int64(min(startX, endX)) &- 1, minX)
        let highX = nonFinite ? maxX : min(Int64(max(startX, endX)) &+ 1, maxX)
        let lowY = nonFinite ? minY : max(Int64(min(startY, endY)) &- 1, minY)
        let highY = nonFinite ? maxY : min(Int64(max(startY, endY)) &+ 1, maxY)
        guard lowX <= highX && lowY <= highY else { return }
        // Below, every value is a pixel coordinate (Int32) or a difference of two, a cell's
        // row or column, or a cell index (fewer than the pixels): wrapping arithmetic never wraps.
        pixelX.withUnsafeBufferPointer { pixelX in
            pixelY.withUnsafeBufferPointer { pixelY in
                @inline(__always)
                func look(_ from: Int, _ to: Int) {
                    var item = from
                    while item < to {
                        let px = pixelX[item], py = pixelY[item]
                        // Unsigned: one comparison for each side's two bounds.
                        if UInt64(bitPattern: Int64(px) &- lowX) <= UInt64(bitPattern: highX &- lowX)
                            && UInt64(bitPattern: Int64(py) &- lowY) <= UInt64(bitPattern: highY &- lowY)
                            && !((px == startX && py == startY) || (px == endX && py == endY))
                            && Self.passes(ax, ay, bx, by, through: px, py) {
                            crossed.append((px, py))
                        }
                        item &+= 1
                    }
                }
                guard !cellStarts.isEmpty else {
                    look(0, pixelX.count)
                    return
                }
                cellStarts.withUnsafeBufferPointer { starts in
                    let firstColumn = (lowX &- minX) &>> shift, lastColumn = (highX &- minX) &>> shift
                    let firstRow = (lowY &- minY) &>> shift, lastRow = (highY &- minY) &>> shift
                    func visit(_ column: Int64, _ rowFrom: Int64, _ rowTo: Int64) {
                        var row = rowFrom
                        while row <= rowTo {
                            let cell = Int(row &* columns &+ column)
                            look(Int(starts[cell]), Int(starts[cell &+ 1]))
                            row &+= 1
                        }
                    }
                    if lastColumn - firstColumn < 2 || lastRow - firstRow < 2 || nonFinite {
                        for column in firstColumn...lastColumn { visit(column, firstRow, lastRow) }
                        return
                    }
                    // Per column, the rows of the line through the segment over the column's
                    // pixels' squares (x ± 0.5), two units wider for rounding, within the bounds.
                    let slope = (by - ay) / (bx - ax)
                    let span = Double(highY &- lowY)
                    for column in firstColumn...lastColumn {
                        let left = max(lowX, minX &+ column &<< shift), right = min(highX, minX &+ (column &+ 1) &<< shift &- 1)
                        let y1 = ay + (Double(left) - 0.5 - ax) * slope, y2 = ay + (Double(right) + 0.5 - ax) * slope
                        // A slope beyond Double (ends ~1e308 apart) gives ±∞ or NaN: every row.
                        guard y1.isFinite && y2.isFinite else {
                            visit(column, firstRow, lastRow)
                            continue
                        }
                        // Floors of y ∓ 2 (y ∓ 0.5 and the rounding of y), clamped to 0...span
                        // before converting.
                        let low = min(max(min(y1, y2) - Double(lowY) - 2, 0), span)
                        let high = min(max(max(y1, y2) - Double(lowY) + 2, 0), span)
                        visit(column, (lowY &+ Int64(low) &- minY) &>> shift, (lowY &+ Int64(high) &- minY) &>> shift)
                    }
                }
            }
        }
    }

    /// Whether the segment from (ax, ay) to (bx, by), whose ends round to pixels (startX, startY)
    /// and (endX, endY), can meet no pixel but those two: they are the same or side by side, and
    /// the segment's bounds stay clear of the closed squares of every pixel around them, by the
    /// test `passes` starts with (so the walk would find nothing to add). Short segments, most
    /// of a coverage's at low zooms, skip the walk.
    @inline(__always)
    static func meetsOnlyEndPixels(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                   _ startX: Int32, _ startY: Int32, _ endX: Int32, _ endY: Int32) -> Bool {
        let columns = Int64(endX) - Int64(startX), rows = Int64(endY) - Int64(startY)
        guard columns * columns + rows * rows <= 1 else { return false }
        // Pixel c's square is c - 0.5 ... c + 0.5 (exact in Double): the columns left of the
        // lower end pixel reach no farther right than its c - 0.5, those right of the higher no
        // farther left than its c + 0.5. NaN fails every comparison and takes the walk.
        return min(ax, bx) > Double(min(startX, endX)) - 0.5 && max(ax, bx) < Double(max(startX, endX)) + 0.5
            && min(ay, by) > Double(min(startY, endY)) - 0.5 && max(ay, by) < Double(max(startY, endY)) + 0.5
    }

    /// Appends the pixels a segment from (ax, ay) to (bx, by) passes through, in order along it:
    /// by the major axis, then the minor, each in the segment's direction.
    private static func appendInOrder(_ crossed: inout [(Int32, Int32)], _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                      _ append: (Int32, Int32) -> Void) {
        let dx = bx - ax, dy = by - ay
        let xMajor = abs(dx) >= abs(dy)
        let sx: Int64 = dx < 0 ? -1 : 1, sy: Int64 = dy < 0 ? -1 : 1
        crossed.sort { p, q in
            let (p1, p2) = xMajor ? (sx * Int64(p.0), sy * Int64(p.1)) : (sy * Int64(p.1), sx * Int64(p.0))
            let (q1, q2) = xMajor ? (sx * Int64(q.0), sy * Int64(q.1)) : (sy * Int64(q.1), sx * Int64(q.0))
            return p1 < q1 || (p1 == q1 && p2 < q2)
        }
        var previous: (Int32, Int32)?
        for pixel in crossed where previous.map({ $0 != pixel }) ?? true {
            append(pixel.0, pixel.1)
            previous = pixel
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
        // Within ±2^51 the floor is the truncation, less one where that rounded up (exact in
        // Double; no libm call, which x86-64 without SSE4.1 makes for `rounded(.down)`).
        if value > -0x1p51 && value < 0x1p51 {
            let truncated = Double(Int64(value))
            let floor = truncated > value ? truncated - 1 : truncated
            let rounded = value - floor >= 0.5 ? floor + 1 : floor
            if rounded >= -2_147_483_648 && rounded <= 2_147_483_647 { return Int32(rounded) }
            return Int32(saturating: rounded)
        }
        let floor = value.rounded(.down)
        let rounded = value - floor >= 0.5 ? floor + 1 : floor
        // In range (every tile unit of a real tile) the conversion is exact; NaN and beyond saturate.
        if rounded >= -2_147_483_648 && rounded <= 2_147_483_647 { return Int32(rounded) }
        return Int32(saturating: rounded)
    }
}
