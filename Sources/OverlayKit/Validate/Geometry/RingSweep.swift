#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// One plane sweep over the rings of a polygon or multipolygon (Shamos–Hoey): finds where
/// rings cross, overlap or touch themselves, and, when nothing crosses, which ring directly
/// contains which. O(n log n) for n segments.
///
/// Segments run left to right; events are their endpoints in (x, y) order, removals first. A
/// new segment is tested only against its neighbours in the status tree, and the two segments
/// that become neighbours when one leaves are tested against each other: if any two segments
/// meet, some such pair meets first. Every contact is confirmed by an exact segment test, so a
/// reported contact is always real; after a crossing the order can no longer be trusted, so
/// later crossings may go unreported and containment is only computed when nothing crossed.
///
/// Containment comes from the same sweep: when a ring's leftmost vertex is reached, the
/// nearest segment of another ring below it either has that ring's interior above it (the
/// ring is inside) or not (the ring shares that ring's parent).
struct RingSweep {
    /// A ring to sweep: closed implicitly (the last vertex connects to the first), no two
    /// consecutive vertices equal, at least three vertices.
    struct Ring {
        var points: [MapPoint]
        /// For each vertex, its index in the source ring (before repeated points were dropped).
        var sourceIndices: [Int]
        var polygon: Int
        var ringIndex: Int
    }

    /// Two segments that meet where they must not.
    struct Contact {
        enum Kind { case cross, touch, overlap }
        var kind: Kind
        /// (ring position in `rings`, vertex index in the swept ring) of each segment's start.
        var first: (ring: Int, vertex: Int)
        var second: (ring: Int, vertex: Int)
        var point: MapPoint
    }

    struct Segment {
        var left: MapPoint
        var right: MapPoint
        var ring: Int32
        var vertex: Int32
        /// True when the ring runs from `left` to `right` (tells the side its interior is on).
        var runsRight: Bool
    }

    /// A vertex event, kept with its point so sorting touches one flat array.
    private struct Event {
        var x: Double
        var y: Double
        /// The segment that starts at this vertex (in ring order).
        var code: Int32
    }

    /// Contacts (at most `contactLimit`) and, when none crossed, the parent of every ring (the
    /// innermost ring containing it), as positions in `rings`.
    struct Result {
        var contacts: [Contact] = []
        var parents: [Int?]?
    }

    static let contactLimit = 50

    private let ringSizes: [Int32]
    private var segments: [Segment] = []
    private var ringArea: [Double] = []
    private var tree: SweepStatusTree
    private var result = Result()
    private var crossed = false
    private var reportedPairs = Set<Int64>()
    private var parents: [Int?]
    private var parentKnown: [Bool]
    /// The lowest segment leaving each ring's first (leftmost) vertex.
    private var startSegment: [Int]

    static func sweep(_ rings: [Ring]) -> Result {
        var sweep = RingSweep(rings)
        sweep.run()
        return sweep.result
    }

    private init(_ rings: [Ring]) {
        ringSizes = rings.map { Int32($0.points.count) }
        parents = [Int?](repeating: nil, count: rings.count)
        parentKnown = [Bool](repeating: false, count: rings.count)
        startSegment = [Int](repeating: -1, count: rings.count)
        var segments: [Segment] = []
        segments.reserveCapacity(rings.reduce(0) { $0 + $1.points.count })
        for (ringPosition, ring) in rings.enumerated() {
            let points = ring.points
            var area = 0.0
            for index in points.indices {
                let a = points[index], b = points[index + 1 == points.count ? 0 : index + 1]
                area += a.x * b.y - b.x * a.y
                let runsRight = a.x < b.x || (a.x == b.x && a.y < b.y)
                segments.append(Segment(left: runsRight ? a : b, right: runsRight ? b : a, ring: Int32(ringPosition),
                                        vertex: Int32(index), runsRight: runsRight))
            }
            ringArea.append(area)
        }
        self.segments = segments
        tree = SweepStatusTree(capacity: segments.count)
    }

    private mutating func run() {
        // One event per vertex (half as many to sort as segment endpoints): at a vertex, each
        // of its two segments either ends (removed) or starts (inserted).
        var events: [Event] = []
        events.reserveCapacity(segments.count)
        for (index, segment) in segments.enumerated() {
            let start = segment.runsRight ? segment.left : segment.right
            events.append(Event(x: start.x, y: start.y, code: Int32(index)))
        }
        events.sort { a, b in
            if a.x != b.x { return a.x < b.x }
            if a.y != b.y { return a.y < b.y }
            return a.code < b.code
        }
        var startingRings: [Int] = []
        var seen = [Bool](repeating: false, count: ringSizes.count)
        var inserts: [Int] = []
        var index = 0
        while index < events.count {
            let x = events[index].x, y = events[index].y
            var end = index
            while end < events.count && events[end].x == x && events[end].y == y { end += 1 }
            // The common case: one vertex alone at this point, where the ring passes through
            // (one segment arrives, one leaves). The leaving segment takes the arriving one's
            // place in the order; only its two neighbours need testing.
            if end == index + 1 {
                let next = Int(events[index].code)
                let previous = previousSegment(next)
                let arrives = segments[previous].right, leaves = segments[next].left
                if arrives.x == x && arrives.y == y && leaves.x == x && leaves.y == y {
                    tree.replace(previous, with: next)
                    if let below = tree.below(next) { test(below, next) }
                    if let above = tree.above(next) { test(next, above) }
                    index = end
                    continue
                }
            }
            // Removals first, so a ring's consecutive segments never meet in the tree.
            inserts.removeAll(keepingCapacity: true)
            for event in events[index..<end] {
                let next = Int(event.code)
                let previous = previousSegment(next)
                endOrQueue(previous, x, y, &inserts)
                endOrQueue(next, x, y, &inserts)
            }
            startingRings.removeAll(keepingCapacity: true)
            for id in inserts {
                let ring = Int(segments[id].ring)
                if !seen[ring] {
                    seen[ring] = true
                    startingRings.append(ring)
                }
                insert(id)
                if startingRings.last == ring || startingRings.contains(ring) {
                    // Keep the lower of the ring's two segments leaving its first vertex.
                    let current = startSegment[ring]
                    if current < 0 || RingSweep.orient(segments[current].left, segments[current].right, segments[id].right) < 0 {
                        startSegment[ring] = id
                    }
                }
                if let below = tree.below(id) { test(below, id) }
                if let above = tree.above(id) { test(id, above) }
            }
            if !crossed {
                for ring in startingRings { _ = parent(of: ring) }
            }
            index = end
        }
        if !crossed { result.parents = parents }
    }

    /// Removes a segment whose right end is (x, y), testing the neighbours it separated, or
    /// queues it for insertion (its left end is here).
    @inline(__always)
    private mutating func endOrQueue(_ id: Int, _ x: Double, _ y: Double, _ inserts: inout [Int]) {
        let right = segments[id].right
        if right.x == x && right.y == y {
            let below = tree.below(id), above = tree.above(id)
            tree.remove(id)
            if let below, let above { test(below, above) }
        } else {
            inserts.append(id)
        }
    }

    /// The segment ending at the vertex where segment `id` starts (rings are cyclic).
    @inline(__always)
    private func previousSegment(_ id: Int) -> Int {
        let vertex = Int(segments[id].vertex)
        return vertex > 0 ? id - 1 : id + Int(ringSizes[Int(segments[id].ring)]) - 1
    }

    /// Inserts a segment at its left endpoint: above a segment when its start is above that
    /// segment's line; when it starts on the line, by which side it heads to.
    private mutating func insert(_ id: Int) {
        let segment = segments[id]
        segments.withUnsafeBufferPointer { all in
            tree.insert(id) { existing in
                let other = all[existing]
                let side = RingSweep.orient(other.left, other.right, segment.left)
                if side != 0 { return side > 0 }
                let turn = RingSweep.orient(other.left, other.right, segment.right)
                if turn != 0 { return turn > 0 }
                return id > existing
            }
        }
    }

    private func isAdjacent(_ a: Segment, _ b: Segment) -> Bool {
        guard a.ring == b.ring else { return false }
        let d = abs(a.vertex - b.vertex)
        return d == 1 || d == ringSizes[Int(a.ring)] - 1
    }

    private mutating func test(_ i: Int, _ j: Int) {
        guard result.contacts.count < RingSweep.contactLimit else { return }
        let a = segments[i], b = segments[j]
        guard let (found, at) = RingSweep.meet(a, b, adjacent: isAdjacent(a, b)) else { return }
        var kind = found
        // Different rings may touch at a point (OGC allows it), but not pass through each other
        // there; anything more is reported.
        if a.ring != b.ring && kind == .touch {
            guard passesThrough(at, i, j) else { return }
            kind = .cross
        }
        guard reportedPairs.insert(Int64(min(i, j)) << 32 | Int64(max(i, j))).inserted else { return }
        crossed = true
        result.contacts.append(Contact(kind: kind, first: (Int(a.ring), Int(a.vertex)),
                                       second: (Int(b.ring), Int(b.vertex)), point: at))
    }

    /// The points on either side of `p` along the ring of segment `id`: the segment's ends when
    /// `p` is inside it, else the far ends of the two segments meeting at that vertex.
    private func neighbours(of p: MapPoint, along id: Int) -> (MapPoint, MapPoint) {
        let segment = segments[id]
        let start = segment.runsRight ? segment.left : segment.right
        let end = segment.runsRight ? segment.right : segment.left
        if p == start {
            let previous = segments[previousSegment(id)]
            return (previous.runsRight ? previous.left : previous.right, end)
        }
        if p == end {
            let nextID = Int(segment.vertex) + 1 == Int(ringSizes[Int(segment.ring)]) ? id - Int(segment.vertex) : id + 1
            let next = segments[nextID]
            return (start, next.runsRight ? next.right : next.left)
        }
        return (start, end)
    }

    /// Whether the rings of segments `i` and `j`, which meet at the single point `p`, cross
    /// there (one ring's two sides at `p` lie in different angular sectors of the other's)
    /// rather than touch. Collinear sides are left to the overlap test.
    private func passesThrough(_ p: MapPoint, _ i: Int, _ j: Int) -> Bool {
        let (a1, a2) = neighbours(of: p, along: i)
        let (b1, b2) = neighbours(of: p, along: j)
        func angle(_ q: MapPoint) -> Double {
            let value = atan2(q.y - p.y, q.x - p.x)
            return value < 0 ? value + 2 * Double.pi : value
        }
        let start = angle(a1), stop = angle(a2)
        let sweep = stop >= start ? stop - start : stop - start + 2 * Double.pi
        func inside(_ q: MapPoint) -> Bool? {
            let turned = angle(q) - start
            let offset = turned < 0 ? turned + 2 * Double.pi : turned
            if offset == 0 || offset == sweep { return nil }
            return offset < sweep
        }
        guard let first = inside(b1), let second = inside(b2) else { return false }
        return first != second
    }

    /// The innermost ring containing `ring`, from the nearest segment of another ring below
    /// the ring's first vertex (vertical segments have no side to ask and are passed over).
    private mutating func parent(of ring: Int) -> Int? {
        if parentKnown[ring] { return parents[ring] }
        parentKnown[ring] = true
        guard startSegment[ring] >= 0 else { return nil }
        var below = tree.below(startSegment[ring])
        while let candidate = below,
              Int(segments[candidate].ring) == ring || segments[candidate].left.x == segments[candidate].right.x {
            below = tree.below(candidate)
        }
        guard let found = below else { return nil }
        let other = Int(segments[found].ring)
        let interiorAbove = segments[found].runsRight == (ringArea[other] > 0)
        parents[ring] = interiorAbove ? other : parent(of: other)
        return parents[ring]
    }

    /// Twice the signed area of (a, b, c): positive when c lies on the side of larger y of the
    /// line a→b, for a→b running toward larger x.
    @inline(__always)
    static func orient(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Whether two segments meet, and how; adjacent segments of a ring may share their common
    /// vertex, so only an overlap beyond it counts for them.
    static func meet(_ a: Segment, _ b: Segment, adjacent: Bool) -> (Contact.Kind, MapPoint)? {
        let o1 = orient(a.left, a.right, b.left), o2 = orient(a.left, a.right, b.right)
        if o1 == 0 && o2 == 0 {
            // Collinear: overlapping when their extents share more than a point.
            let useX = a.left.x != a.right.x || b.left.x != b.right.x
            let (a0, a1, b0, b1) = useX ? (a.left.x, a.right.x, b.left.x, b.right.x) : (a.left.y, a.right.y, b.left.y, b.right.y)
            let low = max(a0, b0), high = min(a1, b1)
            if low < high { return (.overlap, a0 >= b0 ? a.left : b.left) }
            if low == high && !adjacent { return (.touch, a0 >= b0 ? a.left : b.left) }
            return nil
        }
        if adjacent { return nil }
        let o3 = orient(b.left, b.right, a.left), o4 = orient(b.left, b.right, a.right)
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) {
            let t = o3 / (o3 - o4)
            return (.cross, MapPoint(x: a.left.x + t * (a.right.x - a.left.x), y: a.left.y + t * (a.right.y - a.left.y)))
        }
        if o1 == 0 && within(b.left, a) { return (.touch, b.left) }
        if o2 == 0 && within(b.right, a) { return (.touch, b.right) }
        if o3 == 0 && within(a.left, b) { return (.touch, a.left) }
        if o4 == 0 && within(a.right, b) { return (.touch, a.right) }
        return nil
    }

    /// Whether a point already known to be on the segment's line lies within the segment.
    private static func within(_ p: MapPoint, _ s: Segment) -> Bool {
        min(s.left.x, s.right.x) <= p.x && p.x <= max(s.left.x, s.right.x)
            && min(s.left.y, s.right.y) <= p.y && p.y <= max(s.left.y, s.right.y)
    }
}
