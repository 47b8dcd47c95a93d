/// The arcs of a set of polygon rings (TopoJSON's and mapshaper's topology): every edge two or
/// more rings have — the same segment, in either direction — belongs to exactly one arc, arcs are
/// cut at junctions (a point where three rings meet, or where sharing starts or stops: a point
/// whose neighbours differ between its occurrences), and each ring is a cycle of arcs, each
/// walked forward or backward. Simplifying each arc once and rebuilding the rings from the
/// results keeps shared borders shared.
///
/// Points are matched by their exact coordinates (`-0.0` is `0.0`). A ring without a junction is
/// one closed arc, started at its smallest point id, so a hole and the enclave that fills it
/// find the same arc.
///
/// O(n) expected for n vertices (one hash probe per vertex; an arc piece is looked up among the
/// arcs its first point starts).
package struct SharedArcs: Sendable {
    /// Distinct points as x, y pairs; a point id indexes pairs.
    package private(set) var points: [Double] = []
    /// For each point id, the first input vertex (index into the caller's pairs) at that point.
    package private(set) var firstVertex: [Int32] = []
    /// Arc `a`'s point ids are `arcPoints[arcStarts[a]..<arcStarts[a + 1]]`; at least two, the
    /// first and last equal for a closed arc.
    package private(set) var arcStarts: [Int] = [0]
    package private(set) var arcPoints: [Int32] = []
    /// How many ring sides walk each arc (2 for a border two rings share).
    package private(set) var arcUses: [Int32] = []
    /// Ring `r`'s arcs are `ringArcs[ringStarts[r]..<ringStarts[r + 1]]`, each `arc << 1 | reversed`;
    /// empty for a ring with fewer than three distinct points.
    package private(set) var ringStarts: [Int] = [0]
    package private(set) var ringArcs: [Int32] = []

    /// The number of arcs.
    package var arcCount: Int { arcUses.count }
    /// The number of rings.
    package var ringCount: Int { ringStarts.count - 1 }

    /// The point ids of `arc` in its stored direction.
    package func arc(_ arc: Int) -> ArraySlice<Int32> { arcPoints[arcStarts[arc]..<arcStarts[arc + 1]] }

    /// The arcs of rings given as x, y pairs: ring `r` is vertices `ringStarts[r]..<ringStarts[r + 1]`
    /// of `xy`, closed or not (a last point equal to the first is left out), repeated points
    /// allowed. Nil when no two rings share an edge (nothing to keep shared), decided before
    /// any arc is built.
    package static func find(xy: [Double], ringStarts: [Int]) -> SharedArcs? {
        var topology = SharedArcs()
        let ringCount = ringStarts.count - 1
        // Ids are 32-bit: beyond 2^31 vertices (48 GB of coordinates) rings go their own way.
        guard ringCount > 1, xy.count / 2 < Int(Int32.max) else { return nil }
        // The vertices are read unchecked below.
        precondition(ringStarts[0] >= 0 && 2 * ringStarts[ringCount] <= xy.count, "ring starts beyond the vertices")
        // Each ring's distinct consecutive point ids (closing point left out), the distinct
        // points, and a table from exact x, y to id (open addressing, never more than half
        // full): all written unchecked into buffers of their largest size, one entry per vertex.
        let vertexCount = xy.count / 2
        var ids = [Int32](repeating: 0, count: vertexCount)
        var points = [Double](repeating: 0, count: 2 * vertexCount)
        var firstVertex = [Int32](repeating: 0, count: vertexCount)
        var idStarts = [Int](repeating: 0, count: ringCount + 1)
        var slots = 16
        while slots < 2 * vertexCount { slots <<= 1 }
        // A slot's keys and a point's last ring are read only once written (the slot's id, the
        // point's id set): left uninitialized, not cleared per tile.
        let slotKeys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 2 * slots)
        let lastRing = UnsafeMutableBufferPointer<Int32>.allocate(capacity: vertexCount)
        defer {
            slotKeys.deallocate()
            lastRing.deallocate()
        }
        var slotIds = [Int32](repeating: -1, count: slots)
        let mask = slots - 1
        var idCount = 0, pointCount = 0
        var sharesPoint = false
        xy.withUnsafeBufferPointer { xy in
            ids.withUnsafeMutableBufferPointer { ids in
                points.withUnsafeMutableBufferPointer { points in
                    firstVertex.withUnsafeMutableBufferPointer { firstVertex in
                        slotIds.withUnsafeMutableBufferPointer { slotIds in
                            idStarts.withUnsafeMutableBufferPointer { idStarts in
                                for ring in 0..<ringCount {
                                    idStarts[ring] = idCount
                                    let start = idCount
                                    var last: Int32 = -1
                                    for vertex in ringStarts[ring]..<ringStarts[ring + 1] {
                                        let x = xy[2 * vertex], y = xy[2 * vertex + 1]
                                        let kx = (x == 0 ? 0 : x).bitPattern, ky = (y == 0 ? 0 : y).bitPattern
                                        var slot = Self.hash(kx, ky) & mask
                                        var id: Int32
                                        while true {
                                            id = slotIds[slot]
                                            if id < 0 || (slotKeys[2 * slot] == kx && slotKeys[2 * slot + 1] == ky) { break }
                                            slot = (slot + 1) & mask
                                        }
                                        if id < 0 {
                                            id = Int32(truncatingIfNeeded: pointCount)
                                            slotIds[slot] = id
                                            slotKeys[2 * slot] = kx
                                            slotKeys[2 * slot + 1] = ky
                                            firstVertex[pointCount] = Int32(truncatingIfNeeded: vertex)
                                            points[2 * pointCount] = x == 0 ? 0 : x
                                            points[2 * pointCount + 1] = y == 0 ? 0 : y
                                            lastRing[pointCount] = Int32(truncatingIfNeeded: ring)
                                            pointCount += 1
                                        } else if lastRing[Int(id)] != Int32(truncatingIfNeeded: ring) {
                                            sharesPoint = true
                                            lastRing[Int(id)] = Int32(truncatingIfNeeded: ring)
                                        }
                                        if id == last { continue }
                                        ids[idCount] = id
                                        idCount += 1
                                        last = id
                                    }
                                    while idCount > start + 1 && ids[idCount - 1] == ids[start] { idCount -= 1 }
                                }
                                idStarts[ringCount] = idCount
                            }
                        }
                    }
                }
            }
        }
        guard sharesPoint else { return nil }
        ids.removeSubrange(idCount...)
        points.removeSubrange((2 * pointCount)...)
        firstVertex.removeSubrange(pointCount...)
        topology.points = points
        topology.firstVertex = firstVertex
        topology.build(ids: ids, idStarts: idStarts)
        return topology.arcUses.contains { $0 > 1 } ? topology : nil
    }

    /// Junctions, then arcs: each ring cut at its junctions, each piece found or added in
    /// canonical direction.
    private mutating func build(ids: [Int32], idStarts: [Int]) {
        let pointCount = points.count / 2
        // A point's first neighbour pair (smaller id first); a later different pair makes it a junction.
        var pairLow = [Int32](repeating: -1, count: pointCount), pairHigh = pairLow
        var junction = [Bool](repeating: false, count: pointCount)
        let ringCount = idStarts.count - 1
        // Every id is a point id below pointCount (find made both), so the tables are read unchecked.
        ids.withUnsafeBufferPointer { ids in
            pairLow.withUnsafeMutableBufferPointer { pairLow in
                pairHigh.withUnsafeMutableBufferPointer { pairHigh in
                    junction.withUnsafeMutableBufferPointer { junction in
                        for ring in 0..<ringCount {
                            let start = idStarts[ring], count = idStarts[ring + 1] - start
                            guard count >= 3 else { continue }
                            var previous = ids[start + count - 1]
                            for position in 0..<count {
                                let point = Int(ids[start + position])
                                let next = ids[position + 1 < count ? start + position + 1 : start]
                                let low = min(previous, next), high = max(previous, next)
                                previous = Int32(truncatingIfNeeded: point)
                                if pairLow[point] < 0 {
                                    pairLow[point] = low
                                    pairHigh[point] = high
                                } else if pairLow[point] != low || pairHigh[point] != high {
                                    junction[point] = true
                                }
                            }
                        }
                    }
                }
            }
        }
        // The arcs are written unchecked into buffers of their largest sizes: a ring of n ids
        // gives at most n pieces (arcs, ring entries) of at most n + 1 points.
        let idCount = ids.count
        let outPoints = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 2 * idCount + ringCount)
        let outStarts = UnsafeMutableBufferPointer<Int>.allocate(capacity: idCount + 1)
        let outUses = UnsafeMutableBufferPointer<Int32>.allocate(capacity: idCount)
        let outRingArcs = UnsafeMutableBufferPointer<Int32>.allocate(capacity: idCount)
        // The arcs found so far by key (its two point ids): a list per first id, through the
        // arcs (a point starts few arcs), instead of a hash table.
        let arcsByFirst = UnsafeMutableBufferPointer<Int32>.allocate(capacity: pointCount)
        arcsByFirst.initialize(repeating: -1)
        let nextByFirst = UnsafeMutableBufferPointer<Int32>.allocate(capacity: idCount)
        let keySecond = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: idCount)
        defer {
            outPoints.deallocate()
            outStarts.deallocate()
            outUses.deallocate()
            outRingArcs.deallocate()
            arcsByFirst.deallocate()
            nextByFirst.deallocate()
            keySecond.deallocate()
        }
        var pointsWritten = 0, arcsWritten = 0, ringArcsWritten = 0
        outStarts[0] = 0
        var ringStarts = [Int](repeating: 0, count: ringCount + 1)
        ids.withUnsafeBufferPointer { ids in
            junction.withUnsafeBufferPointer { junction in
                ringStarts.withUnsafeMutableBufferPointer { ringStarts in
                    /// Adds the ring's next piece (`length` points, the i-th `point(i)`), stored in
                    /// canonical direction the first time it is met.
                    @inline(__always)
                    func add(length: Int, key: UInt64, reversed: Bool, _ point: (Int) -> Int32) {
                        // The key's first id is a point id (below pointCount), its arcs a list.
                        let first = Int(key >> 32), second = UInt32(truncatingIfNeeded: key)
                        var arc = arcsByFirst[first]
                        while arc >= 0 && keySecond[Int(arc)] != second { arc = nextByFirst[Int(arc)] }
                        if arc >= 0 {
                            outUses[Int(arc)] += 1
                        } else {
                            arc = Int32(truncatingIfNeeded: arcsWritten)
                            nextByFirst[arcsWritten] = arcsByFirst[first]
                            arcsByFirst[first] = arc
                            keySecond[arcsWritten] = second
                            if reversed {
                                var index = length
                                while index > 0 { index -= 1; outPoints[pointsWritten] = point(index); pointsWritten += 1 }
                            } else {
                                for index in 0..<length { outPoints[pointsWritten] = point(index); pointsWritten += 1 }
                            }
                            outUses[arcsWritten] = 1
                            arcsWritten += 1
                            outStarts[arcsWritten] = pointsWritten
                        }
                        outRingArcs[ringArcsWritten] = arc << 1 | (reversed ? 1 : 0)
                        ringArcsWritten += 1
                    }
                    for ring in 0..<ringCount {
                        let start = idStarts[ring], count = idStarts[ring + 1] - start
                        defer { ringStarts[ring + 1] = ringArcsWritten }
                        guard count >= 3 else { continue }
                        guard let first = (start..<start + count).first(where: { junction[Int(ids[$0])] }) else {
                            // No junction: one closed arc from the smallest id, toward its smaller neighbour.
                            var offset = 0
                            for position in 1..<count where ids[start + position] < ids[start + offset] { offset = position }
                            let next = ids[start + (offset + 1) % count], previous = ids[start + (offset + count - 1) % count]
                            let forward = next < previous
                            func point(_ step: Int) -> Int32 {
                                ids[start + (forward ? (offset + step) % count : (offset - step % count + count) % count)]
                            }
                            add(length: count + 1, key: Self.key(point(0), point(1)), reversed: next > previous, point)
                            continue
                        }
                        // From junction to junction around the ring; an arc met before is not copied again.
                        var position = first - start
                        var walked = 0
                        while walked < count {
                            let from = position
                            var length = 1
                            repeat {
                                position = position + 1 == count ? 0 : position + 1
                                walked += 1
                                length += 1
                            } while !junction[Int(ids[start + position])]
                            // The piece's i-th point (a piece is at most one turn and a point long).
                            func point(_ index: Int) -> Int32 { ids[start + (from + index < count ? from + index : from + index - count)] }
                            let forward = Self.key(point(0), point(1))
                            let backward = Self.key(point(length - 1), point(length - 2))
                            add(length: length, key: min(forward, backward), reversed: backward < forward, point)
                        }
                    }
                }
            }
        }
        arcPoints = Array(outPoints[0..<pointsWritten])
        arcStarts = Array(outStarts[0...arcsWritten])
        arcUses = Array(outUses[0..<arcsWritten])
        ringArcs = Array(outRingArcs[0..<ringArcsWritten])
        self.ringStarts = ringStarts
    }

    /// The table slot to start probing at for exact x, y bits (`-0.0` already made `0.0`).
    @inline(__always)
    private static func hash(_ x: UInt64, _ y: UInt64) -> Int {
        var h = x &* 0x9E37_79B9_7F4A_7C15 ^ (y &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }

    /// An arc's key: its first two point ids.
    @inline(__always)
    private static func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)) }

    /// Ring `ring`'s point ids in order, as its arcs give them (closing point left out).
    package func ringPoints(_ ring: Int) -> [Int32] {
        var result = [Int32]()
        for entry in ringArcs[ringStarts[ring]..<ringStarts[ring + 1]] {
            let arc = arc(Int(entry >> 1))
            if entry & 1 == 1 { result += arc.reversed().dropLast() } else { result += arc.dropLast() }
        }
        return result
    }
}
