import OverlayModel

/// One long line coalesced to quarter-pixel cells and simplified for the render zoom in its own
/// map points, giving exactly the vertices `SubpixelCoalescing` then `ShapeSimplifier`
/// (Douglas–Peucker) give, without their copies: those keep map points and source coordinates
/// (48 bytes a vertex) at each step and a `[x, y, importance]` buffer besides, so a
/// 2-million-vertex GPS track held about 130 bytes a vertex while it was drawn (issue 51 item 7).
/// Here the line's map points are the working buffer, projected over its own coordinates' memory
/// when the caller owns them alone (compacted in place to the kept ones), and Douglas–Peucker
/// adds one flag byte a vertex; the pages of what the working buffer no longer holds (the
/// coordinates' memory past the points, then past the kept points) go back to the system.
///
/// Douglas–Peucker is `DouglasPeucker.computeImportance` with `monotone` and `keptAbove` at the
/// threshold, which keeps exactly the pivots whose squared distance exceeds it: the same
/// pivots, ties broken the same way (by buffer offsets, three Doubles a vertex, as geojson-vt).
/// Time as the simplifier's; memory one byte a vertex besides the points.
struct LongLineSimplification {
    /// The quarter-pixel tolerance (and coalescing cell) in map points.
    let tolerance: Double

    /// Lines with at least this many vertices take this path (shorter ones go through the
    /// shape simplifier; both give the same vertices).
    static let minimumVertices = 1 << 16

    /// Whether a line of `count` vertices is drawn through this path: long enough, with a usable tolerance.
    func applies(toLineOf count: Int) -> Bool {
        count >= LongLineSimplification.minimumVertices && tolerance > 0 && tolerance.isFinite
    }

    /// Calls `draw` with the vertices the simplifier keeps of a long line (more than four
    /// vertices), in order, and lets go of the line: false, without drawing, when the line is
    /// shorter than the tolerance (the simplifier drops it).
    ///
    /// A buffer made from coordinates that no copy shares gives them up: each map point is
    /// written over the coordinates' own memory (16 bytes into the 24 of a `Coordinate`,
    /// front to back, so no coordinate is overwritten before it is read), and the coalescing,
    /// Douglas–Peucker and the compaction run there: nothing a vertex beyond the coordinates but
    /// Douglas–Peucker's flag byte. Any other buffer is coalesced as its map points stream by
    /// (the kept ones copied) and then let go.
    /// Whether the model's layout lets map points be written over their coordinates (otherwise
    /// a long line's coalesced points are copied: more memory, the same picture).
    static var projectsInPlace: Bool { PointsOverCoordinates() != nil }

    func simplify(taking vertices: inout VertexBuffer, draw: (UnsafeBufferPointer<MapPoint>) -> Void) -> Bool {
        if let layout = PointsOverCoordinates(), var coordinates = vertices.takeCoordinates() {
            return coordinates.withUnsafeMutableBufferPointer { buffer in
                layout.project(buffer) { points in simplify(coalescing: points, draw: draw) }
            }
        }
        var coalescer = Coalescer(tolerance: tolerance)
        var points = [MapPoint]()
        // Pages never written are never resident: reserving the whole line costs the kept points.
        points.reserveCapacity(vertices.count)
        let last = vertices.count - 1
        var index = 0
        vertices.forEachMapPoint { point in
            if index == last || coalescer.keeps(point) { points.append(point) }
            index += 1
        }
        vertices = VertexBuffer(coordinates: [])
        return points.withUnsafeMutableBufferPointer { simplify(coalesced: $0, draw: draw) }
    }

    /// `simplify(taking:draw:)` on map points not yet coalesced, in place.
    private func simplify(coalescing points: UnsafeMutableBufferPointer<MapPoint>, draw: (UnsafeBufferPointer<MapPoint>) -> Void) -> Bool {
        let count = points.count
        var coalescer = Coalescer(tolerance: tolerance)
        var written = 0
        for index in 0..<(count - 1) where coalescer.keeps(points[index]) {
            points[written] = points[index]
            written += 1
        }
        points[written] = points[count - 1]
        written += 1
        return simplify(coalesced: UnsafeMutableBufferPointer(rebasing: points[0..<written]), draw: draw)
    }

    /// `simplify(taking:draw:)` on coalesced map points, in place.
    private func simplify(coalesced points: UnsafeMutableBufferPointer<MapPoint>, draw: (UnsafeBufferPointer<MapPoint>) -> Void) -> Bool {
        let count = points.count
        var length = 0.0
        for index in 1..<count {
            let a = points[index - 1], b = points[index]
            length += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        guard length >= tolerance else { return false }
        let kept = LongLineSimplification.douglasPeucker(UnsafeBufferPointer(points), threshold: tolerance * tolerance)
        var written = 0
        for index in 0..<count where kept[index] {
            points[written] = points[index]
            written += 1
        }
        // What follows the kept points is garbage: its pages go back before the path is built.
        POSIX.discardPages(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: points[written...])))
        draw(UnsafeBufferPointer(rebasing: points[0..<written]))
        return true
    }

    /// `SubpixelCoalescing` of an open line, one vertex at a time: a vertex is kept when its
    /// cell differs from the last kept one's (the caller keeps the last vertex whatever).
    private struct Coalescer {
        let tolerance: Double
        var lastX = Double.nan, lastY = Double.nan

        init(tolerance: Double) { self.tolerance = tolerance }

        mutating func keeps(_ point: MapPoint) -> Bool {
            let cellX = (point.x / tolerance).rounded(.down), cellY = (point.y / tolerance).rounded(.down)
            if cellX == lastX && cellY == lastY { return false }
            lastX = cellX
            lastY = cellY
            return true
        }
    }

    /// Map points written over the memory of the coordinates they come from: the i-th point's
    /// two Doubles at Doubles 2i and 2i + 1, after the i-th coordinate's latitude and longitude
    /// are read; a later coordinate starts at Double (i + 1)·k or later (k Doubles a coordinate,
    /// k ≥ 2), past the point, so front to back reads each coordinate before anything is written
    /// over it.
    private struct PointsOverCoordinates {
        let doublesPerCoordinate: Int
        let latitude: Int
        let longitude: Int

        /// Nil where the layout does not allow it (a `Coordinate` narrower than a map point, or
        /// not made of whole Doubles).
        init?() {
            let stride = MemoryLayout<Coordinate>.stride, size = MemoryLayout<Double>.stride
            guard stride % size == 0, stride >= MemoryLayout<MapPoint>.stride,
                  MemoryLayout<MapPoint>.stride == 2 * size, MemoryLayout<MapPoint>.offset(of: \.x) == 0,
                  MemoryLayout<MapPoint>.offset(of: \.y) == size,
                  let latitude = MemoryLayout<Coordinate>.offset(of: \.latitude),
                  let longitude = MemoryLayout<Coordinate>.offset(of: \.longitude),
                  latitude % size == 0, longitude % size == 0 else { return nil }
            doublesPerCoordinate = stride / size
            self.latitude = latitude / size
            self.longitude = longitude / size
        }

        /// Projects every coordinate of `buffer` over its memory and calls `body` with the points.
        /// The coordinates are garbage afterwards: the caller lets them go.
        func project<Result>(_ buffer: UnsafeMutableBufferPointer<Coordinate>,
                             _ body: (UnsafeMutableBufferPointer<MapPoint>) -> Result) -> Result {
            let count = buffer.count
            return buffer.withMemoryRebound(to: Double.self) { doubles in
                for index in 0..<count {
                    let base = index * doublesPerCoordinate
                    let point = MapPoint(Coordinate(latitude: doubles[base + latitude], longitude: doubles[base + longitude]))
                    doubles[2 * index] = point.x
                    doubles[2 * index + 1] = point.y
                }
                // The coordinates' memory past the points is garbage now: its pages go back.
                POSIX.discardPages(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: doubles[(2 * count)...])))
                return UnsafeMutableBufferPointer(rebasing: doubles[0..<(2 * count)]).withMemoryRebound(to: MapPoint.self, body)
            }
        }
    }

    /// Which of `points` Douglas–Peucker keeps at `threshold` (a squared distance): the ends
    /// and every pivot farther than it, exactly as `DouglasPeucker.computeImportance` ranks them
    /// (its pivots, its tie-break by buffer offsets of three Doubles a vertex). O(n) memory: one
    /// flag a point and a stack of at most one span per kept point.
    static func douglasPeucker(_ points: [MapPoint], threshold: Double) -> [Bool] {
        points.withUnsafeBufferPointer { douglasPeucker($0, threshold: threshold) }
    }

    /// `douglasPeucker(_:threshold:)` of points in a buffer.
    static func douglasPeucker(_ points: UnsafeBufferPointer<MapPoint>, threshold: Double) -> [Bool] {
        let count = points.count
        var kept = [Bool](repeating: false, count: count)
        guard count > 0 else { return kept }
        kept[0] = true
        kept[count - 1] = true
        guard count > 2 else { return kept }
        do {
            var stack = [(first: 0, last: count - 1)]
            while let (first, last) = stack.popLast() {
                var maxSquaredDistance = 0.0
                // Offsets in the simplifier's [x, y, importance] buffer decide ties.
                let mid = 3 * first + ((3 * last - 3 * first) >> 1)
                var minPositionToMid = 3 * last - 3 * first
                var index = -1
                let a = points[first], b = points[last]
                for vertex in (first + 1)..<last {
                    let d = DouglasPeucker.squaredSegmentDistance(points[vertex].x, points[vertex].y, a.x, a.y, b.x, b.y)
                    if d > maxSquaredDistance {
                        index = vertex
                        maxSquaredDistance = d
                    } else if d == maxSquaredDistance {
                        let positionToMid = abs(3 * vertex - mid)
                        if positionToMid < minPositionToMid {
                            index = vertex
                            minPositionToMid = positionToMid
                        }
                    }
                }
                // Every span on the stack lies under a kept pivot (or is the whole line), so
                // its pivot's importance is its distance: kept when over the threshold, and
                // nothing below a pivot at or under it can pass.
                guard maxSquaredDistance > 0, maxSquaredDistance > threshold else { continue }
                kept[index] = true
                if index - first > 1 { stack.append((first, index)) }
                if last - index > 1 { stack.append((index, last)) }
            }
        }
        return kept
    }
}
