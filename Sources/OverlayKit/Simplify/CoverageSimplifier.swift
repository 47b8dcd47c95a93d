/// Douglas–Peucker over the arcs of `SharedArcs`, each arc once, keeping the topology: a span is
/// replaced by its chord only when the chord
///
/// 1. meets no input segment except at shared end points (its own span's segments aside),
/// 2. leaves no input point — of any arc, the arc's own outside the span included — inside or on
///    the region between the span and the chord, and
/// 3. is not a chord already kept (two arcs between the same points, or a closed arc's two halves,
///    would collapse a ring);
///
/// otherwise the span is split at its farthest point as if it were beyond the tolerance. Then no
/// simplified arc crosses another or itself, no ring flips over a neighbour or swallows an
/// island, every ring keeps three points at least, and every ring that has an arc gets the same
/// simplified points for it. (1 and 2 against the input suffice: a kept chord crossing another
/// kept chord would enter the other's region, which holds no input point and is entered through
/// no input segment, so it would end inside it.) The TopologyPreservingSimplifier of JTS/GEOS
/// checks chords the same way.
///
/// O(n log n) typical for n input points, plus the candidates each kept chord is checked
/// against (the input within the tolerance of it, through a `UniformGrid`).
package enum CoverageSimplifier {
    /// For every position of `topology.arcPoints`, whether the point is kept at `squaredTolerance`
    /// (squared distance, in the points' units). Arc ends are always kept; 0 keeps everything.
    package static func kept(_ topology: SharedArcs, squaredTolerance: Double) -> [Bool] {
        let arcPoints = topology.arcPoints
        guard squaredTolerance > 0 else { return [Bool](repeating: true, count: arcPoints.count) }
        var state = State(topology: topology, squaredTolerance: squaredTolerance)
        for arc in 0..<topology.arcCount { state.simplify(arc: arc) }
        return state.kept
    }

    private struct State {
        let points: [Double]
        let arcPoints: [Int32]
        let arcStarts: [Int]
        let squaredTolerance: Double
        /// The spatial indexes of the topology checks, built when the first chord is checked:
        /// most arcs of a coverage cut at tile edges are single segments, and then no chord is.
        var checks: Checks?
        var kept: [Bool]
        /// Kept chords, as unordered point id pairs. The single-segment arcs' chords are added
        /// before the first lookup (`acceptSingleSegments`): a coverage cut at tile edges is mostly
        /// single segments, and then no lookup is made at all.
        var accepted: KeyTable
        var singleSegmentsAccepted = false
        /// The spans left to look at, kept between arcs so that no arc allocates.
        var stack = [(Int, Int)]()

        /// What the chord checks look up.
        struct Checks {
            /// Position in `arcPoints` of each point that lies inside one arc (not at an arc's end); -1 otherwise.
            let interiorPosition: [Int32]
            /// Input segments (by the position of their first point) and input points (by id).
            let segments: UniformGrid
            let pointGrid: UniformGrid
        }

        init(topology: SharedArcs, squaredTolerance: Double) {
            points = topology.points
            arcPoints = topology.arcPoints
            arcStarts = topology.arcStarts
            self.squaredTolerance = squaredTolerance
            kept = [Bool](repeating: false, count: arcPoints.count)
            // Sized when the single segments come (`acceptSingleSegments`); few chords before.
            accepted = KeyTable(capacity: 0)
        }

        /// Adds every single-segment arc's chord to `accepted` (a set: any time before the first
        /// lookup gives the same lookups).
        mutating func acceptSingleSegments() {
            singleSegmentsAccepted = true
            if accepted.count == 0 { accepted = KeyTable(capacity: arcPoints.count) }
            for arc in 0..<arcStarts.count - 1 where arcStarts[arc + 1] - arcStarts[arc] == 2 {
                accepted.insert(Self.segmentKey(arcPoints[arcStarts[arc]], arcPoints[arcStarts[arc] + 1]))
            }
        }

        /// The indexes of `checks`, over every point and segment of the topology.
        static func checks(points: [Double], arcPoints: [Int32], arcStarts: [Int], squaredTolerance: Double) -> Checks {
            let pointCount = points.count / 2
            var interiorPosition = [Int32](repeating: -1, count: pointCount)
            var startsSegment = [Bool](repeating: true, count: arcPoints.count)
            for arc in 0..<arcStarts.count - 1 {
                let start = arcStarts[arc], end = arcStarts[arc + 1]
                startsSegment[end - 1] = false
                if end - start > 2 { for position in start + 1..<end - 1 { interiorPosition[Int(arcPoints[position])] = Int32(position) } }
            }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for index in 0..<pointCount {
                minX = min(minX, points[2 * index]); maxX = max(maxX, points[2 * index])
                minY = min(minY, points[2 * index + 1]); maxY = max(maxY, points[2 * index + 1])
            }
            let tolerance = squaredTolerance.squareRoot()
            let pointGrid = UniformGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: tolerance,
                                        itemCount: pointCount) { item, grid in
                grid.cell(x: points[2 * item], y: points[2 * item + 1])
            }
            let segments = UniformGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: tolerance,
                                       itemCount: arcPoints.count) { position, grid, visit in
                guard startsSegment[position] else { return }
                let a = Int(arcPoints[position]), b = Int(arcPoints[position + 1])
                grid.forEachCell(ax: points[2 * a], ay: points[2 * a + 1], bx: points[2 * b], by: points[2 * b + 1],
                                 pad: 0, visit)
            }
            return Checks(interiorPosition: interiorPosition, segments: segments, pointGrid: pointGrid)
        }

        @inline(__always)
        static func segmentKey(_ a: Int32, _ b: Int32) -> UInt64 {
            UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
        }

        @inline(__always)
        func x(_ id: Int32) -> Double { points[2 * Int(id)] }
        @inline(__always)
        func y(_ id: Int32) -> Double { points[2 * Int(id) + 1] }

        mutating func simplify(arc: Int) {
            let start = arcStarts[arc], last = arcStarts[arc + 1] - 1
            kept[start] = true
            kept[last] = true
            // A single segment: its chord was accepted before the first arc.
            if last - start == 1 { return }
            stack.removeAll(keepingCapacity: true)
            stack.append((start, last))
            while let (first, end) = stack.popLast() {
                if end - first < 2 {
                    accepted.insert(Self.segmentKey(arcPoints[first], arcPoints[end]))
                    continue
                }
                let a = arcPoints[first], b = arcPoints[end]
                let ax = x(a), ay = y(a), bx = x(b), by = y(b)
                var farthest = first + 1, maximum = -1.0
                for position in first + 1..<end {
                    let p = arcPoints[position]
                    let distance = DouglasPeucker.squaredSegmentDistance(x(p), y(p), ax, ay, bx, by)
                    if distance > maximum {
                        maximum = distance
                        farthest = position
                    }
                }
                if maximum <= squaredTolerance && a != b && !singleSegmentsAccepted { acceptSingleSegments() }
                if maximum <= squaredTolerance && a != b && !accepted.contains(Self.segmentKey(a, b)) {
                    if checks == nil {
                        checks = Self.checks(points: points, arcPoints: arcPoints, arcStarts: arcStarts,
                                             squaredTolerance: squaredTolerance)
                    }
                    if let checks, chordKeepsTopology(first: first, end: end, farthest: maximum, checks: checks) {
                        accepted.insert(Self.segmentKey(a, b))
                        continue
                    }
                }
                kept[farthest] = true
                stack.append((farthest, end))
                stack.append((first, farthest))
            }
        }

        /// Rules 1 and 2 of the type's documentation for the chord of positions `first…end`,
        /// whose points all lie within `farthest` (squared) of it.
        func chordKeepsTopology(first: Int, end: Int, farthest: Double, checks: Checks) -> Bool {
            let segments = checks.segments, pointGrid = checks.pointGrid, interiorPosition = checks.interiorPosition
            let a = arcPoints[first], b = arcPoints[end]
            let ax = x(a), ay = y(a), bx = x(b), by = y(b)
            var valid = true
            segments.forEachCell(ax: ax, ay: ay, bx: bx, by: by, pad: 0) { cell in
                guard valid else { return }
                for item in segments.items(in: cell) {
                    let position = Int(item)
                    if position >= first && position < end { continue }  // the span's own segments
                    let c = arcPoints[position], d = arcPoints[position + 1]
                    if SegmentRelation.meetsOtherThanAtSharedEnd(a, ax, ay, b, bx, by, c, x(c), y(c), d, x(d), y(d)) {
                        valid = false
                        return
                    }
                }
            }
            guard valid else { return false }
            pointGrid.forEachCell(ax: ax, ay: ay, bx: bx, by: by, pad: farthest.squareRoot()) { cell in
                guard valid else { return }
                for item in pointGrid.items(in: cell) {
                    if item == a || item == b { continue }
                    let position = Int(interiorPosition[Int(item)])
                    if position > first && position < end { continue }  // the span's own points
                    let px = x(item), py = y(item)
                    if DouglasPeucker.squaredSegmentDistance(px, py, ax, ay, bx, by) > farthest { continue }
                    if inRegion(px, py, first: first, end: end) {
                        valid = false
                        return
                    }
                }
            }
            return valid
        }

        /// Whether (px, py) lies inside (even-odd) or on the closed path of positions
        /// `first…end` closed by the chord back to `first`.
        func inRegion(_ px: Double, _ py: Double, first: Int, end: Int) -> Bool {
            var inside = false
            var position = first
            while position <= end {
                let u = arcPoints[position], v = arcPoints[position == end ? first : position + 1]
                let ux = x(u), uy = y(u), vx = x(v), vy = y(v)
                let side = (vx - ux) * (py - uy) - (vy - uy) * (px - ux)
                if side == 0 && px >= min(ux, vx) && px <= max(ux, vx) && py >= min(uy, vy) && py <= max(uy, vy) {
                    return true
                }
                if uy <= py {
                    if vy > py && side > 0 { inside.toggle() }
                } else if vy <= py && side < 0 {
                    inside.toggle()
                }
                position += 1
            }
            return inside
        }
    }
}

/// How two segments given by point ids and coordinates meet (equal ids are equal points,
/// different ids different points).
enum SegmentRelation {
    /// Whether segment a–b and segment c–d have a point in common other than one end point they
    /// share: crossing, touching, overlapping, or equal.
    @inline(__always)
    static func meetsOtherThanAtSharedEnd(_ a: Int32, _ ax: Double, _ ay: Double, _ b: Int32, _ bx: Double, _ by: Double,
                                          _ c: Int32, _ cx: Double, _ cy: Double,
                                          _ d: Int32, _ dx: Double, _ dy: Double) -> Bool {
        if max(cx, dx) < min(ax, bx) || min(cx, dx) > max(ax, bx) || max(cy, dy) < min(ay, by) || min(cy, dy) > max(ay, by) {
            return false
        }
        let sharesA = a == c || a == d, sharesB = b == c || b == d
        if sharesA && sharesB { return true }  // the same segment
        if sharesA || sharesB {
            // One common end: they meet elsewhere only when collinear and pointing the same way.
            let (sx, sy) = sharesA ? (ax, ay) : (bx, by)
            let (ox, oy) = sharesA ? (bx, by) : (ax, ay)
            let shared = sharesA ? a : b
            let (tx, ty) = (c == shared) ? (dx, dy) : (cx, cy)
            let cross = (ox - sx) * (ty - sy) - (oy - sy) * (tx - sx)
            return cross == 0 && (ox - sx) * (tx - sx) + (oy - sy) * (ty - sy) > 0
        }
        let o1 = orientation(ax, ay, bx, by, cx, cy), o2 = orientation(ax, ay, bx, by, dx, dy)
        let o3 = orientation(cx, cy, dx, dy, ax, ay), o4 = orientation(cx, cy, dx, dy, bx, by)
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return true }
        if o1 == 0 && within(cx, cy, ax, ay, bx, by) { return true }
        if o2 == 0 && within(dx, dy, ax, ay, bx, by) { return true }
        if o3 == 0 && within(ax, ay, cx, cy, dx, dy) { return true }
        if o4 == 0 && within(bx, by, cx, cy, dx, dy) { return true }
        return false
    }

    @inline(__always)
    static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    }

    /// Whether p, collinear with a–b, lies on it.
    @inline(__always)
    static func within(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
        px >= min(ax, bx) && px <= max(ax, bx) && py >= min(ay, by) && py <= max(ay, by)
    }
}
