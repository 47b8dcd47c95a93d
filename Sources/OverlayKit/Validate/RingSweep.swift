import OverlayModel

/// One plane sweep over the rings of a polygon or multipolygon in map points (Shamos–Hoey):
/// finds where rings cross, overlap or touch themselves, and, when nothing crosses, which
/// ring directly contains which. O(n log n) for n segments (plus the contacts reported).
///
/// Segments run left to right; events are their endpoints in (x, y) order. Each new segment is
/// tested only against its neighbours in the status tree, and the two segments that become
/// neighbours when one leaves are tested against each other: if any two segments meet, some
/// such pair meets first. Every contact is confirmed by an exact segment test, so a reported
/// contact is always real. After a crossing the order can no longer be trusted, so
/// containment is only computed for sweeps that found no crossing.
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

    fileprivate struct Segment {
        var left: MapPoint
        var right: MapPoint
        var ring: Int32
        var vertex: Int32
        /// True when the ring runs from `left` to `right` (used for the side the interior is on).
        var runsRight: Bool
    }

    /// The result: contacts (at most `contactLimit`) and, when none crossed, the parent of
    /// every ring (the innermost ring containing it), as positions in `rings`.
    struct Result {
        var contacts: [Contact] = []
        var parents: [Int?]?
    }

    static let contactLimit = 50

    static func sweep(_ rings: [Ring]) -> Result {
        var segments: [Segment] = []
        var ringArea: [Double] = []
        var firstSegment: [Int] = []
        for (ringPosition, ring) in rings.enumerated() {
            firstSegment.append(segments.count)
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
        firstSegment.append(segments.count)

        // Events: (segment, isStart); sorted by point, removals before insertions, then ring.
        var events: [Int32] = []  // 2*segment + (1 for start)
        events.reserveCapacity(segments.count * 2)
        for index in segments.indices {
            events.append(Int32(index * 2))
            events.append(Int32(index * 2 + 1))
        }
        func point(_ event: Int32) -> MapPoint {
            let segment = segments[Int(event >> 1)]
            return event & 1 == 1 ? segment.left : segment.right
        }
        events.sort { a, b in
            let p = point(a), q = point(b)
            if p.x != q.x { return p.x < q.x }
            if p.y != q.y { return p.y < q.y }
            if a & 1 != b & 1 { return a & 1 == 0 }
            return a < b
        }

        var result = Result()
        var tree = SweepStatusTree(capacity: segments.count)
        var crossed = false
        var reportedPairs = Set<Int64>()
        var firstEventSeen = [Bool](repeating: false, count: rings.count)
        var parents = [Int?](repeating: nil, count: rings.count)
        var parentKnown = [Bool](repeating: false, count: rings.count)
        var startingRings: [Int] = []

        func isAdjacent(_ a: Segment, _ b: Segment) -> Bool {
            guard a.ring == b.ring else { return false }
            let count = Int32(rings[Int(a.ring)].points.count)
            let d = abs(a.vertex - b.vertex)
            return d == 1 || d == count - 1
        }

        func test(_ i: Int, _ j: Int) {
            guard result.contacts.count < contactLimit else { return }
            let a = segments[i], b = segments[j]
            guard let (kind, at) = meet(a, b, adjacent: isAdjacent(a, b)) else { return }
            let sameRing = a.ring == b.ring
            // Different rings may touch at a point (OGC allows it); anything more is reported.
            if !sameRing && kind == .touch { return }
            let key = Int64(min(i, j)) << 32 | Int64(max(i, j))
            guard reportedPairs.insert(key).inserted else { return }
            crossed = true
            result.contacts.append(Contact(kind: kind, first: (Int(a.ring), Int(a.vertex)),
                                           second: (Int(b.ring), Int(b.vertex)), point: at))
        }

        // Segments starting at each ring's first (lexicographically smallest) vertex.
        var startSegments = [[Int]](repeating: [], count: rings.count)

        func parent(of ring: Int) -> Int? {
            if parentKnown[ring] { return parents[ring] }
            parentKnown[ring] = true
            // The lower of the ring's two segments at its first vertex, then the nearest
            // segment of another ring below it (vertical ones have no side to ask).
            guard var lowest = startSegments[ring].first else { return nil }
            for id in startSegments[ring].dropFirst() {
                let a = segments[lowest], b = segments[id]
                if orient(a.left, a.right, b.right) < 0 { lowest = id }
            }
            var below = tree.below(lowest)
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

        var index = 0
        while index < events.count {
            let groupPoint = point(events[index])
            var end = index
            while end < events.count && point(events[end]) == groupPoint { end += 1 }
            startingRings.removeAll(keepingCapacity: true)
            for event in events[index..<end] {
                let id = Int(event >> 1)
                if event & 1 == 0 {
                    let below = tree.below(id), above = tree.above(id)
                    tree.remove(id)
                    if let below, let above { test(below, above) }
                } else {
                    let segment = segments[id]
                    let ring = Int(segment.ring)
                    if !firstEventSeen[ring] {
                        firstEventSeen[ring] = true
                        startingRings.append(ring)
                    }
                    if startingRings.last == ring || startingRings.contains(ring) { startSegments[ring].append(id) }
                    tree.insert(id) { existing in
                        let other = segments[existing]
                        let side = orient(other.left, other.right, segment.left)
                        if side != 0 { return side > 0 }
                        // The new segment starts on `other`: order by direction, and check them.
                        test(id, existing)
                        let turn = orient(other.left, other.right, segment.right)
                        if turn != 0 { return turn > 0 }
                        return id > existing
                    }
                    if let below = tree.below(id) { test(below, id) }
                    if let above = tree.above(id) { test(id, above) }
                }
            }
            if !crossed {
                for ring in startingRings { _ = parent(of: ring) }
            }
            index = end
        }
        if !crossed { result.parents = parents }
        return result
    }

    /// Twice the signed area of (a, b, c): positive when c lies above the line a→b for a→b
    /// running right (to larger y).
    @inline(__always)
    static func orient(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Whether two segments meet, and how; adjacent segments of a ring may share their common
    /// vertex, so only an overlap beyond it counts for them.
    fileprivate static func meet(_ a: Segment, _ b: Segment, adjacent: Bool) -> (Contact.Kind, MapPoint)? {
        let o1 = orient(a.left, a.right, b.left), o2 = orient(a.left, a.right, b.right)
        let o3 = orient(b.left, b.right, a.left), o4 = orient(b.left, b.right, a.right)
        if o1 == 0 && o2 == 0 {
            // Collinear: overlapping when their projections share more than a point.
            let useX = a.left.x != a.right.x || b.left.x != b.right.x
            let (a0, a1, b0, b1) = useX ? (a.left.x, a.right.x, b.left.x, b.right.x) : (a.left.y, a.right.y, b.left.y, b.right.y)
            let low = max(a0, b0), high = min(a1, b1)
            if low < high { return (.overlap, a0 >= b0 ? a.left : b.left) }
            if low == high && !adjacent { return (.touch, a0 >= b0 ? a.left : b.left) }
            return nil
        }
        if adjacent { return nil }
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
