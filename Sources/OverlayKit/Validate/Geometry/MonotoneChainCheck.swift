import OverlayModel

/// The fast path in front of `RingSweep`: proves that the rings of a polygon or multipolygon
/// meet nowhere (no crossing, overlap or touch, not even the single-point touches the sweep
/// allows between rings) and then finds which ring directly contains which. Real data is almost
/// always like that; whenever it is not, or the work would grow past O(n log n), it answers nil
/// and the caller runs the sweep, which names the contacts exactly.
///
/// Each ring is split into x-monotone chains (as GEOS's monotone-chain noder does). Two
/// segments of one chain can only meet where the chain runs vertically; two chains can only
/// meet where their bounding boxes overlap, and then a merge along x finds the segment pairs
/// worth an exact test (`RingSweep.meet`, the sweep's own test). The pairs of boxes that overlap
/// are found by a scan along x within horizontal bands (about √chains of them): on
/// `ne_10m_land` a scan over all chains visits 1.76 million pairs overlapping in x, of which
/// 0.1 million also overlap in y; in bands it visits 0.27 million. Containment: a ring meeting
/// no other ring is inside exactly the rings containing its first vertex (by ray crossing, with
/// the sweep's orientation predicate; a vertex on a ring's line gives up), and the innermost of
/// those is the one of smallest area. Flat arrays throughout: the rings' points in one buffer,
/// a segment is two consecutive points, no per-segment record.
struct MonotoneChainCheck {
    /// A run of consecutive segments of one ring whose x never turns back.
    private struct Chain {
        var minX: Double
        var maxX: Double
        var minY: Double
        var maxY: Double
        /// The index in `points` of the chain's first vertex in ring order; segment k of the
        /// chain runs from `points[first + k]` to `points[first + k + 1]`.
        var first: Int32
        /// How many segments the chain has.
        var count: Int32
        /// The ring's position in `rings`.
        var ring: Int32
        /// The lowest band the chain's box reaches (set for the scan between chains; there are
        /// at most 1,024). 16 bits keep the record at 48 bytes: the chains and their banded copy
        /// are the check's largest buffers.
        var band: Int16
        /// True when the ring runs toward smaller x here: x order is reverse ring order.
        var reversed: Bool
        /// True when one of its segments is vertical (only then can two of them meet).
        var hasVertical: Bool
    }

    /// How many rings there are.
    private let ringCount: Int
    /// Every ring's points, ring after ring, each ring followed by its first point again
    /// (borrowed for the length of `parents`).
    private let points: UnsafeBufferPointer<MapPoint>
    /// Where each ring starts in `points`.
    private var ringFirst: [Int32] = []
    private var ringSizes: [Int32] = []
    private var chains: [Chain] = []
    /// Where each ring's chains start in `chains` (one more entry: the end).
    private var ringChains: [Int32] = []
    /// Segment tests and candidate checks still allowed before giving the work to the sweep.
    private var budget: Int

    /// The parent (innermost containing ring) of every ring, as positions in `rings`, when no
    /// two segments meet anywhere; nil when some do, or when deciding it would cost too much.
    static func parents(of rings: [RingSweep.Ring]) -> [Int?]? {
        var points: [MapPoint] = []
        points.reserveCapacity(rings.reduce(0) { $0 + $1.points.count + 1 })
        var ringFirst: [Int] = [], ringSizes: [Int] = []
        for ring in rings {
            ringFirst.append(points.count)
            ringSizes.append(ring.points.count)
            points.append(contentsOf: ring.points)
            points.append(ring.points[0])
        }
        return parents(points: points, ringFirst: ringFirst, ringSizes: ringSizes)
    }

    /// `parents(of:)` over rings already laid out in one buffer, as `GeometryValidity` writes
    /// them (no copy of their points): ring `r` is `points[ringFirst[r] ..< ringFirst[r] +
    /// ringSizes[r]]` (at least three points, no two consecutive equal), followed by its first
    /// point again.
    ///
    /// - Parameters:
    ///   - points: The rings' points, each ring closed by a copy of its first point.
    ///   - ringFirst: Where each ring starts in `points`.
    ///   - ringSizes: How many distinct points each ring has (its closing copy not counted).
    static func parents(points: [MapPoint], ringFirst: [Int], ringSizes: [Int]) -> [Int?]? {
        points.withUnsafeBufferPointer { parents(points: $0, ringFirst: ringFirst, ringSizes: ringSizes) }
    }

    /// `parents(points:ringFirst:ringSizes:)` over a buffer the caller holds for the call (a
    /// GeoJSON reader's numbers read in place); nil as well when a ring reaches past its end.
    static func parents(points: UnsafeBufferPointer<MapPoint>, ringFirst: [Int], ringSizes: [Int]) -> [Int?]? {
        // Indices are 32-bit; anything larger is the sweep's to refuse.
        guard points.count < Int(Int32.max), ringFirst.count == ringSizes.count else { return nil }
        for (first, size) in zip(ringFirst, ringSizes) where first < 0 || size < 1 || size >= points.count - first {
            return nil
        }
        var check = MonotoneChainCheck(points: points, ringFirst: ringFirst, ringSizes: ringSizes)
        guard check.noContacts() else { return nil }
        return check.containment()
    }

    private init(points: UnsafeBufferPointer<MapPoint>, ringFirst: [Int], ringSizes: [Int]) {
        self.points = points
        ringCount = ringFirst.count
        let total = ringSizes.reduce(0, +)
        // Linear work in practice; n log n is where the sweep would be as cheap.
        var logarithm = 1
        while 1 << logarithm < total { logarithm += 1 }
        budget = 4 * total * logarithm + 1024
        // Below Int32.max: every start and size lies inside `points` (checked by the caller).
        self.ringFirst = ringFirst.map { Int32(truncatingIfNeeded: $0) }
        self.ringSizes = ringSizes.map { Int32(truncatingIfNeeded: $0) }
        ringChains.reserveCapacity(ringCount + 1)
        // Real rings turn back in x every few vertices (land: about one chain per 3.5 points);
        // reserving for one in two saves the copies of growth.
        chains.reserveCapacity(total / 2 + ringCount)
        do {
            for position in 0..<ringCount {
                ringChains.append(Int32(truncatingIfNeeded: chains.count))
                let start = ringFirst[position], n = ringSizes[position]
                // A chain's x extent is its end points' (x never turns back); y needs every point.
                var chain = Self.chain(from: start, ring: position, points)
                var direction = 0
                for index in start..<(start + n) {
                    let a = points[index], b = points[index + 1]
                    let step = a.x < b.x ? 1 : a.x > b.x ? -1 : 0
                    if step != 0 && direction != 0 && step != direction {
                        chains.append(chain)
                        chain = Self.chain(from: index, ring: position, points)
                        direction = 0
                    }
                    if direction == 0 && step != 0 {
                        direction = step
                        chain.reversed = step < 0
                    }
                    if step == 0 { chain.hasVertical = true }
                    chain.count += 1
                    chain.minX = min(chain.minX, b.x)
                    chain.maxX = max(chain.maxX, b.x)
                    chain.minY = min(chain.minY, b.y)
                    chain.maxY = max(chain.maxY, b.y)
                }
                chains.append(chain)
            }
        }
        ringChains.append(Int32(truncatingIfNeeded: chains.count))
    }

    /// An empty chain starting at `points[index]`.
    private static func chain(from index: Int, ring: Int, _ points: UnsafeBufferPointer<MapPoint>) -> Chain {
        let a = points[index]
        return Chain(minX: a.x, maxX: a.x, minY: a.y, maxY: a.y, first: Int32(truncatingIfNeeded: index), count: 0,
                     ring: Int32(truncatingIfNeeded: ring), band: 0, reversed: false, hasVertical: false)
    }

    // MARK: Contacts

    /// The index in `points` of the first point (in ring order) of the segment `position`-th in
    /// x order along a chain.
    @inline(__always)
    private static func segmentID(_ chain: Chain, _ position: Int) -> Int {
        chain.reversed ? Int(chain.first) + Int(chain.count) - 1 - position : Int(chain.first) + position
    }

    /// The smaller and larger x of the segment `position`-th in x order along a chain.
    @inline(__always)
    private static func xRange(_ chain: Chain, _ position: Int, _ points: UnsafeBufferPointer<MapPoint>) -> (Double, Double) {
        let id = segmentID(chain, position)
        let a = points[id].x, b = points[id + 1].x
        return chain.reversed ? (b, a) : (a, b)
    }

    /// The segment from `points[id]` to `points[id + 1]` of ring `ring`, as the sweep takes it.
    @inline(__always)
    private func segment(_ id: Int, ring: Int32, _ points: UnsafeBufferPointer<MapPoint>) -> RingSweep.Segment {
        let a = points[id], b = points[id + 1]
        let runsRight = a.x < b.x || (a.x == b.x && a.y < b.y)
        return RingSweep.Segment(left: runsRight ? a : b, right: runsRight ? b : a, ring: ring,
                                 vertex: Int32(truncatingIfNeeded: id) - ringFirst[Int(ring)], runsRight: runsRight)
    }

    /// False when the segments starting at `points[i]` (of ring `ringI`) and `points[j]` share
    /// a point (adjacent ones: beyond their common vertex).
    @inline(__always)
    private func apart(_ i: Int, _ ringI: Int32, _ j: Int, _ ringJ: Int32, _ points: UnsafeBufferPointer<MapPoint>) -> Bool {
        let a0 = points[i].y, a1 = points[i + 1].y, b0 = points[j].y, b1 = points[j + 1].y
        if max(a0, a1) < min(b0, b1) || max(b0, b1) < min(a0, a1) { return true }
        let a = segment(i, ring: ringI, points), b = segment(j, ring: ringJ, points)
        return RingSweep.meet(a, b, adjacent: isAdjacent(a, b)) == nil
    }

    private func isAdjacent(_ a: RingSweep.Segment, _ b: RingSweep.Segment) -> Bool {
        guard a.ring == b.ring else { return false }
        let d = abs(a.vertex - b.vertex)
        return d == 1 || d == ringSizes[Int(a.ring)] - 1
    }

    private mutating func noContacts() -> Bool {
        let ok = withinChainsApart() && chainsMeetNowhere(points)
        return ok && budget >= 0
    }

    /// Within a chain: a segment reaches past its neighbour in x only where the chain runs
    /// vertically; neighbours themselves can only fold back over a vertical.
    private mutating func withinChainsApart() -> Bool {
        let points = self.points
        for chain in chains where chain.hasVertical {
            let count = Int(chain.count)
            for i in 0..<count {
                let (_, aRight) = Self.xRange(chain, i, points)
                let aVertical = Self.xRange(chain, i, points).0 == aRight
                var j = i + 1
                while j < count {
                    let (bLeft, bRight) = Self.xRange(chain, j, points)
                    if bLeft > aRight { break }
                    if j > i + 1 || aVertical || bLeft == bRight {
                        budget -= 1
                        if budget < 0 || !apart(Self.segmentID(chain, i), chain.ring, Self.segmentID(chain, j), chain.ring, points) {
                            return false
                        }
                    }
                    j += 1
                }
            }
        }
        return true
    }

    /// `x` as an unsigned integer in the same order as the doubles (−0 as +0).
    @inline(__always)
    private static func orderedBits(_ x: Double) -> UInt64 {
        let bits = (x + 0).bitPattern
        return bits >> 63 == 1 ? ~bits : bits | 1 << 63
    }

    /// Between chains: every pair of chains whose boxes overlap, by a scan along x within
    /// horizontal bands. Each chain goes into every band its box reaches, in the order of its
    /// left edge; a pair is tested only in the band of the higher of their lowest bands, so once.
    private mutating func chainsMeetNowhere(_ points: UnsafeBufferPointer<MapPoint>) -> Bool {
        let n = chains.count
        guard n > 1 else { return true }
        // Order by left edge: keys are the left edge's ordered bits with the low bits replaced by
        // the chain's index (a stable order of edges rounded down, sorted as plain integers).
        var indexBits = 1
        while 1 << indexBits < n { indexBits += 1 }
        let mask: UInt64 = 1 << UInt64(indexBits) - 1
        var keys = [UInt64]()
        keys.reserveCapacity(n)
        var low = Double.infinity, high = -Double.infinity
        for (index, chain) in chains.enumerated() {
            keys.append(Self.orderedBits(chain.minX) & ~mask | UInt64(index))
            low = min(low, chain.minY)
            high = max(high, chain.maxY)
        }
        keys.radixSort()
        // About √n bands of equal height (a power of two up to 1024).
        var bands = 1
        while bands * bands < n && bands < 1024 { bands *= 2 }
        let height = (high - low) / Double(bands)
        if !(height > 0 && height.isFinite) { bands = 1 }
        let top = Double(bands - 1)
        @inline(__always) func band(_ y: Double) -> Int {
            guard bands > 1 else { return 0 }
            // Finite and at least 0 (y − low ≤ high − low, finite); NaN and the top go to the last band.
            let q = (y - low) / height
            return q < top ? Int(q) : bands - 1
        }
        var starts = [Int](repeating: 0, count: bands + 1)
        var entries = 0
        for index in chains.indices {
            let lowest = band(chains[index].minY), highest = band(chains[index].maxY)
            chains[index].band = Int16(truncatingIfNeeded: lowest)
            for b in lowest...highest { starts[b + 1] += 1 }
            entries += highest - lowest + 1
        }
        budget -= entries
        guard budget >= 0 else { return false }
        for b in 0..<bands { starts[b + 1] += starts[b] }
        // Each band's chains, contiguous and in left-edge order.
        var fill = starts
        var banded = [Chain](repeating: chains[0], count: entries)
        for key in keys {
            let chain = chains[Int(key & mask)]
            for b in Int(chain.band)...band(chain.maxY) {
                banded[fill[b]] = chain
                fill[b] += 1
            }
        }
        for b in 0..<bands {
            let stop = starts[b + 1]
            for rank in starts[b]..<stop {
                let chain = banded[rank]
                // Later chains whose rounded left edge lies beyond this right edge lie beyond it.
                let limit = Self.orderedBits(chain.maxX) >> UInt64(indexBits)
                var next = rank + 1
                while next < stop {
                    let other = banded[next]
                    if Self.orderedBits(other.minX) >> UInt64(indexBits) > limit { break }
                    budget -= 1
                    if other.minY <= chain.maxY && chain.minY <= other.maxY && other.minX <= chain.maxX
                        && chain.minX <= other.maxX && Int(max(chain.band, other.band)) == b {
                        if !chainsApart(chain, other, points) { return false }
                    }
                    next += 1
                }
                if budget < 0 { return false }
            }
        }
        return true
    }

    /// The first position along the chain whose segment reaches `x` (segments in x order).
    @inline(__always)
    private static func firstReaching(_ x: Double, _ chain: Chain, _ points: UnsafeBufferPointer<MapPoint>) -> Int {
        // One of the pair's two chains starts at the common range's left edge: no search for it.
        if xRange(chain, 0, points).1 >= x { return 0 }
        var low = 1, high = Int(chain.count)
        while low < high {
            let middle = (low + high) / 2
            if xRange(chain, middle, points).1 < x { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Tests every pair of segments of two chains whose x ranges overlap (a merge along x),
    /// skipping the segments of `a` that miss the y range both boxes share.
    private mutating func chainsApart(_ a: Chain, _ b: Chain, _ points: UnsafeBufferPointer<MapPoint>) -> Bool {
        let low = max(a.minX, b.minX), high = min(a.maxX, b.maxX)
        let bottom = max(a.minY, b.minY), top = min(a.maxY, b.maxY)
        var i = Self.firstReaching(low, a, points)
        var j = Self.firstReaching(low, b, points)
        let countA = Int(a.count), countB = Int(b.count)
        while i < countA {
            let (left, right) = Self.xRange(a, i, points)
            if left > high { break }
            while j < countB && Self.xRange(b, j, points).1 < left { j += 1 }
            let s = Self.segmentID(a, i)
            let y0 = points[s].y, y1 = points[s + 1].y
            if max(y0, y1) >= bottom && min(y0, y1) <= top {
                var k = j
                while k < countB {
                    if Self.xRange(b, k, points).0 > right { break }
                    budget -= 1
                    if budget < 0 || !apart(s, a.ring, Self.segmentID(b, k), b.ring, points) { return false }
                    k += 1
                }
            }
            i += 1
        }
        return true
    }

    // MARK: Containment

    /// The innermost ring containing each ring, or nil when a test is not clear-cut.
    private mutating func containment() -> [Int?]? {
        var parents = [Int?](repeating: nil, count: ringCount)
        guard ringCount > 1 else { return parents }
        // Bounding boxes and areas of the rings.
        var boxes: [(minX: Double, maxX: Double, minY: Double, maxY: Double)] = []
        boxes.reserveCapacity(ringCount)
        var areas: [Double] = []
        areas.reserveCapacity(ringCount)
        do {
            for position in 0..<ringCount {
                var box = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
                for chain in chains[Int(ringChains[position])..<Int(ringChains[position + 1])] {
                    box = (min(box.minX, chain.minX), max(box.maxX, chain.maxX), min(box.minY, chain.minY), max(box.maxY, chain.maxY))
                }
                boxes.append(box)
                var area = 0.0
                let start = Int(ringFirst[position])
                for index in start..<(start + Int(ringSizes[position])) {
                    let a = points[index], b = points[index + 1]
                    area += a.x * b.y - b.x * a.y
                }
                areas.append(abs(area))
            }
        }
        var order = Array(0..<ringCount)
        order.sort { boxes[$0].minX < boxes[$1].minX }
        var active: [Int] = []
        for ring in order {
            let box = boxes[ring]
            active.removeAll { boxes[$0].maxX < box.minX }
            budget -= active.count
            if budget < 0 { return nil }
            let point = points[Int(ringFirst[ring])]
            var best: Int?
            for other in active {
                let outer = boxes[other]
                guard outer.minX <= box.minX && box.maxX <= outer.maxX && outer.minY <= box.minY && box.maxY <= outer.maxY else {
                    continue
                }
                guard let inside = contains(other, point) else { return nil }
                guard inside else { continue }
                if let current = best {
                    // Nested rings that meet nowhere differ in area; too close to call is left to the sweep.
                    let difference = abs(areas[other] - areas[current])
                    if !(difference > 1e-9 * max(areas[other], areas[current])) { return nil }
                    if areas[other] < areas[current] { best = other }
                } else {
                    best = other
                }
            }
            parents[ring] = best
            active.append(ring)
        }
        return parents
    }

    /// Whether `point` lies inside ring `ring`, by the crossings of a ray toward larger x; nil
    /// when the point lies on the line of an edge it reaches (a case for the sweep), or the
    /// budget is spent. Only chains spanning the point's y and reaching right of it are walked.
    private mutating func contains(_ ring: Int, _ point: MapPoint) -> Bool? {
        var inside = false
        let first = Int(ringChains[ring]), stop = Int(ringChains[ring + 1])
        budget -= stop - first
        let onALine: Bool = {
            for chain in chains[first..<stop] where chain.minY <= point.y && point.y <= chain.maxY && point.x <= chain.maxX {
                budget -= Int(chain.count)
                for id in Int(chain.first)..<Int(chain.first + chain.count) {
                    // Ring order: a → b.
                    let a = points[id], b = points[id + 1]
                    if (a.y > point.y) != (b.y > point.y) {
                        let side = RingSweep.orient(a, b, point)
                        if side == 0 { return true }
                        // Upward edges have the point on their left (side > 0) when the ray crosses them.
                        if (side > 0) == (b.y > a.y) { inside.toggle() }
                    } else if a.y == point.y && b.y == point.y && min(a.x, b.x) <= point.x && point.x <= max(a.x, b.x) {
                        return true
                    }
                }
            }
            return false
        }()
        return onALine || budget < 0 ? nil : inside
    }
}
