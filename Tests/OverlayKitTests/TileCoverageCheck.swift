import OverlayKit

/// Exact overlap and gap areas of a tile's polygons in integer tile units, for the shared-border
/// tests: the plane is cut into vertical slabs at every vertex's x, edges are ordered within a
/// slab by their y at both sides (integer arithmetic on rationals), and each interval between
/// consecutive edges is classified by its winding number (how many polygons cover it: exteriors
/// +1, holes −1, as MVT winds them). An interval of positive area covered twice or more (or
/// fewer than zero times) is overlap; one inside `region` covered by nothing is a gap; one
/// covered outside `region` is excess. Two edges that cross inside a slab are counted as a
/// crossing (the ordering is then meaningless there, and the slab is skipped).
///
/// The zero tests are exact; the areas (doubles) say how big a non-zero result is.
struct TileCoverageCheck: CustomStringConvertible {
    /// Σ area − area(union), tile units².
    var overlap = 0.0
    /// area(region ∩ tile) − area(union ∩ region), tile units².
    var gap = 0.0
    /// area(union) outside the region, tile units².
    var excess = 0.0
    /// Whether each of the three is exactly zero.
    var overlapIsZero = true
    var gapIsZero = true
    var excessIsZero = true
    /// Pairs of edges that cross inside a slab (each counted once per slab).
    var crossings = 0
    /// Twice Σ of the polygons' signed areas (exteriors positive), exact.
    var twiceSumOfAreas: Int64 = 0
    /// Where the first overlap, gap or excess is: the slab's x range and the interval's y at its middle.
    var firstProblem: (x0: Int64, x1: Int64, y: Double)?

    var description: String {
        "overlap \(overlap) (exactly zero: \(overlapIsZero)), gap \(gap) (\(gapIsZero)), excess \(excess) (\(excessIsZero)), crossings \(crossings)"
            + (firstProblem.map { " first at x \($0.x0)…\($0.x1), y \($0.y)" } ?? "")
    }

    private struct Edge {
        var lx: Int64, ly: Int64, rx: Int64, ry: Int64
        /// +1 when walked toward +x (then the polygon lies above it in y, for an exterior).
        var winding: Int
        var isRegion: Bool

        /// y at x as numerator / (rx − lx).
        @inline(__always)
        func numerator(at x: Int64) -> Int64 { ly * (rx - lx) + (ry - ly) * (x - lx) }
        var denominator: Int64 { rx - lx }

        @inline(__always)
        func y(at x: Int64) -> Double { Double(numerator(at: x)) / Double(denominator) }
    }

    /// Checks the polygons of `features`; `regions` (disjoint rectangles: min x, min y, max x,
    /// max y in tile units) are the area they should cover exactly, if known.
    init(_ features: [TileFeature], regions: [(Int64, Int64, Int64, Int64)]? = nil) {
        var edges = [Edge]()
        for feature in features where feature.type == .polygon {
            for ring in feature.rings {
                var twice: Int64 = 0
                for index in 0..<ring.count {
                    let a = ring[index], b = ring[(index + 1) % ring.count]
                    twice += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y)
                    if a.x == b.x { continue }
                    let forward = a.x < b.x
                    let (l, r) = forward ? (a, b) : (b, a)
                    edges.append(Edge(lx: Int64(l.x), ly: Int64(l.y), rx: Int64(r.x), ry: Int64(r.y),
                                      winding: forward ? 1 : -1, isRegion: false))
                }
                twiceSumOfAreas += twice
            }
        }
        for (x0, y0, x1, y1) in regions ?? [] where x0 < x1 && y0 < y1 {
            edges.append(Edge(lx: x0, ly: y0, rx: x1, ry: y0, winding: 1, isRegion: true))
            edges.append(Edge(lx: x0, ly: y1, rx: x1, ry: y1, winding: -1, isRegion: true))
        }
        // Positive shoelace = exterior in MVT's y-down tiles; with y up that is counterclockwise,
        // whose edges toward +x lie below the inside: crossing one upward enters the polygon.
        var xs = Set<Int64>()
        for edge in edges { xs.insert(edge.lx); xs.insert(edge.rx) }
        let events = xs.sorted()
        edges.sort { $0.lx < $1.lx }
        var active = [Edge]()
        var next = 0
        for slab in 0..<max(events.count - 1, 0) {
            let x0 = events[slab], x1 = events[slab + 1]
            active.removeAll { $0.rx <= x0 }
            while next < edges.count && edges[next].lx <= x0 {
                if edges[next].rx > x0 { active.append(edges[next]) }
                next += 1
            }
            guard !active.isEmpty else { continue }
            // Order by y at x0, then at x1 (cross-multiplied: denominators are positive).
            func less(_ a: Edge, _ b: Edge) -> Bool {
                let left = a.numerator(at: x0) * b.denominator, right = b.numerator(at: x0) * a.denominator
                if left != right { return left < right }
                return a.numerator(at: x1) * b.denominator < b.numerator(at: x1) * a.denominator
            }
            let sorted = active.sorted(by: less)
            var crossed = false
            for index in 1..<max(sorted.count, 1) {
                let a = sorted[index - 1], b = sorted[index]
                if a.numerator(at: x1) * b.denominator > b.numerator(at: x1) * a.denominator {
                    crossings += 1
                    crossed = true
                }
            }
            if crossed { continue }
            let width = Double(x1 - x0)
            var covering = 0, inRegion = 0
            for index in 0..<sorted.count {
                let edge = sorted[index]
                if edge.isRegion { inRegion += edge.winding } else { covering += edge.winding }
                guard index + 1 < sorted.count else { break }
                let upper = sorted[index + 1]
                // Zero height at both sides: zero area.
                let open = edge.numerator(at: x0) * upper.denominator != upper.numerator(at: x0) * edge.denominator
                    || edge.numerator(at: x1) * upper.denominator != upper.numerator(at: x1) * edge.denominator
                guard open else { continue }
                let area = width * ((upper.y(at: x0) - edge.y(at: x0)) + (upper.y(at: x1) - edge.y(at: x1))) / 2
                let middle = ((edge.y(at: x0) + edge.y(at: x1)) / 2 + (upper.y(at: x0) + upper.y(at: x1)) / 2) / 2
                if covering >= 2 || covering < 0 {
                    if firstProblem == nil { firstProblem = (x0, x1, middle) }
                    overlapIsZero = false
                    overlap += Double(covering >= 2 ? covering - 1 : covering) * area
                }
                if regions != nil {
                    if inRegion > 0 && covering == 0 {
                        if firstProblem == nil { firstProblem = (x0, x1, middle) }
                        gapIsZero = false
                        gap += area
                    } else if inRegion <= 0 && covering > 0 {
                        if firstProblem == nil { firstProblem = (x0, x1, middle) }
                        excessIsZero = false
                        excess += area
                    }
                }
            }
        }
    }
}
