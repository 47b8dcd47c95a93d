import OverlayModel

/// Geometry validity of lines and polygons in longitude and latitude, the plane RFC 7946 (§3.1.1)
/// draws edges straight in and that GEOS and shapely check in: non-finite values, repeated
/// consecutive points, too few points, ring self-intersection, holes outside their shell, nested
/// holes, holes crossing the shell or each other, duplicate rings, and parts of a multipolygon
/// that cross or lie inside one another.
///
/// Works on source coordinates (or the `VertexBuffer`s of any reader's features, GeoJSON or
/// KML), as they are: longitudes are not wrapped (a ring reaching 180.0000001° stays whole) and
/// nothing is projected or clamped (Antarctica's coast down to −90° stays distinct), so two
/// positions are the same point exactly when their numbers are equal. Per polygon or
/// multipolygon, `MonotoneChainCheck` clears rings that meet nowhere, else one `RingSweep`
/// names the contacts: O(n log n) in its vertex count either way. Rings may be closed or not (the
/// last vertex always connects to the first); ring length and closure themselves are format
/// rules and are checked by the format's structure checks.
public enum GeometryValidity {
    /// One problem, placed by part: the polygon (0 for a single polygon or line), the ring
    /// within it (0 for a line or shell), and the vertex when one is to blame.
    public struct Finding: Hashable, Sendable {
        /// Error or warning.
        public var severity: Diagnostic.Severity
        /// The code, `geometry.*`.
        public var code: Diagnostic.Code
        /// What is wrong, with the place in degrees.
        public var message: String
        /// Index of the polygon in the shape (0 for a single polygon).
        public var polygon: Int
        /// Index of the ring in the polygon (0 is the exterior).
        public var ring: Int
        /// Index of the vertex the finding is at, when it has one.
        public var vertex: Int?
    }

    /// Checks a line: finite values, repeated consecutive points, at least two distinct points.
    public static func checkLine(_ line: VertexBuffer) -> [Finding] { checkLine(line.coordinates) }

    /// Checks polygons given as vertex buffers (exterior ring first, then holes).
    public static func checkPolygons(_ polygons: [[VertexBuffer]]) -> [Finding] {
        checkPolygons(polygons.map { $0.map(\.coordinates) })
    }

    /// Checks a line given as coordinates.
    public static func checkLine(_ line: [Coordinate]) -> [Finding] { checkLine(coordinates: line) }

    /// `checkLine` over any random-access view of coordinates (a GeoJSON run read in place).
    static func checkLine<Line: RandomAccessCollection>(coordinates line: Line) -> [Finding]
    where Line.Element == Coordinate, Line.Index == Int {
        var findings: [Finding] = []
        _ = distinctRun(line, polygon: 0, ring: 0, minimum: 2, what: "a line", into: &findings)
        return findings
    }

    /// Checks polygons given as rings (exterior first, then holes); several polygons are
    /// checked together as the parts of one multipolygon.
    public static func checkPolygons(_ polygons: [[[Coordinate]]]) -> [Finding] { checkPolygons(coordinates: polygons) }

    /// `checkPolygons` over any random-access views of coordinates (GeoJSON runs read in place,
    /// no copy of their positions).
    static func checkPolygons<Ring: RandomAccessCollection>(coordinates polygons: [[Ring]]) -> [Finding]
    where Ring.Element == Coordinate, Ring.Index == Int {
        var findings: [Finding] = []
        // The kept rings' distinct points, ring after ring, each followed by its first point
        // again: written once, here, and swept in place by the chain check (no copy per ring).
        var capacity = 0
        for polygon in polygons { for ring in polygon { capacity += ring.count + 1 } }
        var ringFirst: [Int] = [], ringSizes: [Int] = []
        var places: [(polygon: Int, ring: Int)] = []
        // Source indices of the rings that dropped repeated points; the others' are 0, 1, 2, …
        var sourceIndices: [Int: [Int]] = [:]
        var seen: [RingKey: [Int]] = [:]
        let points = [MapPoint](unsafeUninitializedCapacity: capacity) { buffer, written in
            for (polygonIndex, polygon) in polygons.enumerated() {
                for (ringIndex, ring) in polygon.enumerated() {
                    let start = written
                    // At most ring.count points, then the closing one: inside `capacity`.
                    guard let kept = distinctRing(ring, polygon: polygonIndex, ring: ringIndex,
                                                  into: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + ring.count)]),
                                                  findings: &findings) else { continue }
                    let run = UnsafeBufferPointer(rebasing: buffer[start..<(start + kept.count)])
                    let key = RingKey(run)
                    if let twin = seen[key]?.first(where: {
                        RingKey.same(UnsafeBufferPointer(rebasing: buffer[ringFirst[$0]..<(ringFirst[$0] + ringSizes[$0])]), run)
                    }) {
                        findings.append(Finding(severity: .error, code: .geometryDuplicateRing,
                                                message: "this ring repeats ring \(describe(places[twin].polygon, places[twin].ring, polygons.count))",
                                                polygon: polygonIndex, ring: ringIndex, vertex: nil))
                        continue
                    }
                    seen[key, default: []].append(ringFirst.count)
                    if kept.droppedRepeats {
                        sourceIndices[ringFirst.count] = Array(keptIndices(ring).prefix(kept.count))
                    }
                    ringFirst.append(start)
                    ringSizes.append(kept.count)
                    places.append((polygonIndex, ringIndex))
                    buffer[start + kept.count] = buffer[start]
                    written = start + kept.count + 1
                }
            }
        }
        return points.withUnsafeBufferPointer { points in
            contactsAndNesting(points, mirrored: false, ringFirst: ringFirst, ringSizes: ringSizes, places: places,
                               sourceIndices: sourceIndices, findings: findings)
        }
    }

    /// `checkPolygons` over closed rings already in one buffer as (longitude, latitude), the
    /// validity plane mirrored (y = latitude; the chain check's answers do not depend on it, the
    /// sweep gets its rings turned back): GeoJSON runs of two-number positions, read in place.
    /// Nil, having found nothing, unless every ring is one such clean ring (finite, at least four
    /// positions, no position equal to the one before it, the last equal to the first); then
    /// the findings are the ones `checkPolygons` gives for the same rings.
    ///
    /// - Parameters:
    ///   - points: (longitude, latitude) pairs.
    ///   - rings: Each ring's polygon and ring index, its first position in `points` and how
    ///     many positions it has, its closing one included.
    ///   - polygonCount: How many polygons the shape has (a duplicate's message names the
    ///     polygon of its twin when there are several).
    static func checkClosedRings(lonLat points: UnsafeBufferPointer<MapPoint>,
                                 rings: [(polygon: Int, ring: Int, first: Int, count: Int)],
                                 polygonCount: Int) -> [Finding]? {
        var findings: [Finding] = []
        var ringFirst: [Int] = [], ringSizes: [Int] = []
        var places: [(polygon: Int, ring: Int)] = []
        var seen: [RingKey: [Int]] = [:]
        for ring in rings {
            guard ring.count >= 4, ring.first >= 0, ring.count <= points.count - ring.first else { return nil }
            var previous = points[ring.first]
            guard previous.x.isFinite && previous.y.isFinite else { return nil }
            for index in (ring.first + 1)..<(ring.first + ring.count) {
                let point = points[index]
                guard point.x.isFinite && point.y.isFinite && point != previous else { return nil }
                previous = point
            }
            guard previous == points[ring.first] else { return nil }
            let run = UnsafeBufferPointer(rebasing: points[ring.first..<(ring.first + ring.count - 1)])
            let key = RingKey(run, mirrored: true)
            if let twin = seen[key]?.first(where: {
                RingKey.same(UnsafeBufferPointer(rebasing: points[ringFirst[$0]..<(ringFirst[$0] + ringSizes[$0])]), run)
            }) {
                findings.append(Finding(severity: .error, code: .geometryDuplicateRing,
                                        message: "this ring repeats ring \(describe(places[twin].polygon, places[twin].ring, polygonCount))",
                                        polygon: ring.polygon, ring: ring.ring, vertex: nil))
                continue
            }
            seen[key, default: []].append(ringFirst.count)
            ringFirst.append(ring.first)
            ringSizes.append(ring.count - 1)
            places.append((ring.polygon, ring.ring))
        }
        return contactsAndNesting(points, mirrored: true, ringFirst: ringFirst, ringSizes: ringSizes, places: places,
                                  sourceIndices: [:], findings: findings)
    }

    /// The contacts between rings (one finding per pair, the first place named) and the
    /// rings inside the wrong ring, after `findings` from reading them. `points` holds each
    /// ring followed by its first point again; `mirrored` when its y is the latitude itself.
    private static func contactsAndNesting(_ points: UnsafeBufferPointer<MapPoint>, mirrored: Bool, ringFirst: [Int],
                                           ringSizes: [Int], places: [(polygon: Int, ring: Int)],
                                           sourceIndices: [Int: [Int]], findings: [Finding]) -> [Finding] {
        var findings = findings
        guard !ringFirst.isEmpty else { return findings }
        // Rings that meet nowhere need no sweep; the chain check proves it in near-linear time.
        // Only the sweep needs the rings one array each.
        let result = MonotoneChainCheck.parents(points: points, ringFirst: ringFirst, ringSizes: ringSizes)
            .map { RingSweep.Result(contacts: [], parents: $0) }
            ?? RingSweep.sweep(ringFirst.indices.map { position in
                let first = ringFirst[position], count = ringSizes[position]
                let ring = points[first..<(first + count)]
                return RingSweep.Ring(points: mirrored ? ring.map { MapPoint(x: $0.x, y: -$0.y) } : Array(ring),
                                      sourceIndices: sourceIndices[position] ?? Array(0..<count),
                                      polygon: places[position].polygon, ringIndex: places[position].ring)
            })
        let rings = places.map { (polygon: $0.polygon, ringIndex: $0.ring) }
        /// The index in its source ring of a kept ring's `vertex`-th point.
        func sourceIndex(_ position: Int, _ vertex: Int) -> Int { sourceIndices[position]?[vertex] ?? vertex }
        // One finding per pair of rings (or per ring, for self-intersection), first place named.
        var contactsPerPair: [Int64: Int] = [:]
        var firstContacts: [RingSweep.Contact] = []
        for contact in result.contacts {
            let key = Int64(min(contact.first.ring, contact.second.ring)) << 32 | Int64(max(contact.first.ring, contact.second.ring))
            contactsPerPair[key, default: 0] += 1
            if contactsPerPair[key] == 1 { firstContacts.append(contact) }
        }
        for contact in firstContacts {
            let key = Int64(min(contact.first.ring, contact.second.ring)) << 32 | Int64(max(contact.first.ring, contact.second.ring))
            let more = contactsPerPair[key, default: 1] - 1
            let also = more == 0 ? "" : " (and at least \(more) more place\(more == 1 ? "" : "s"))"
            let a = rings[contact.first.ring], b = rings[contact.second.ring]
            // Report at the later part, whose repair is usually the one needed.
            let (first, second) = (a.polygon, a.ringIndex) <= (b.polygon, b.ringIndex)
                ? (contact.first, contact.second) : (contact.second, contact.first)
            let ringA = rings[first.ring], ringB = rings[second.ring]
            let at = coordinate(contact.point)
            let place = "near \(format(at.longitude)), \(format(at.latitude))"
            let code: Diagnostic.Code
            let message: String
            if first.ring == second.ring {
                code = .geometrySelfIntersection
                message = "the ring \(contact.kind == .cross ? "crosses" : contact.kind == .overlap ? "runs back over" : "touches") itself \(place)"
            } else if ringA.polygon == ringB.polygon {
                if ringA.ringIndex == 0 {
                    code = .geometryHoleCrossesShell
                    message = "hole \(ringB.ringIndex) \(contact.kind == .overlap ? "overlaps" : "crosses") the exterior ring \(place)"
                } else {
                    code = .geometryHolesCross
                    message = "holes \(ringA.ringIndex) and \(ringB.ringIndex) \(contact.kind == .overlap ? "overlap" : "cross") \(place)"
                }
            } else {
                code = .geometryPartsCross
                message = "polygons \(ringA.polygon) and \(ringB.polygon) of the multipolygon \(contact.kind == .overlap ? "overlap along an edge" : "cross") \(place)"
            }
            findings.append(Finding(severity: .error, code: code, message: message + also, polygon: ringB.polygon,
                                    ring: ringB.ringIndex, vertex: sourceIndex(second.ring, second.vertex)))
        }
        guard let parents = result.parents else { return findings }
        for (position, ring) in rings.enumerated() {
            let parent = parents[position].map { rings[$0] }
            if ring.ringIndex > 0 {
                if let parent, parent.polygon == ring.polygon, parent.ringIndex == 0 { continue }
                if let parent, parent.polygon == ring.polygon {
                    findings.append(Finding(severity: .error, code: .geometryNestedHoles,
                                            message: "hole \(ring.ringIndex) lies inside hole \(parent.ringIndex)",
                                            polygon: ring.polygon, ring: ring.ringIndex, vertex: nil))
                } else {
                    findings.append(Finding(severity: .error, code: .geometryHoleOutsideShell,
                                            message: "hole \(ring.ringIndex) lies outside the exterior ring",
                                            polygon: ring.polygon, ring: ring.ringIndex, vertex: nil))
                }
            } else if let parent, parent.ringIndex == 0 {
                findings.append(Finding(severity: .error, code: .geometryPartsNested,
                                        message: "polygon \(ring.polygon) of the multipolygon lies inside polygon \(parent.polygon)",
                                        polygon: ring.polygon, ring: 0, vertex: nil))
            }
        }
        return findings
    }

    /// Checks the geometry of any shape (KML features and other readers' output): polylines
    /// and polygons as above, collections member by member. Findings of collection members
    /// carry the member index in `polygon`.
    public static func check(_ shape: Shape) -> [Finding] {
        switch shape {
        case .annotation(let annotation):
            let c = annotation.coordinate
            return c.latitude.isFinite && c.longitude.isFinite ? [] : [nonFinite(polygon: 0, ring: 0, vertex: 0)]
        case .circle(let circle):
            return circle.radius.isFinite && circle.radius > 0 ? []
                : [Finding(severity: .error, code: .geometryCircleRadius, message: "a circle's radius must be a positive number",
                           polygon: 0, ring: 0, vertex: nil)]
        case .polyline(let polyline): return checkLine(polyline.vertices)
        case .multiPolyline(let multi):
            return multi.polylines.enumerated().flatMap { index, line in
                checkLine(line.vertices).map { var f = $0; f.polygon = index; return f }
            }
        case .polygon(let polygon): return checkPolygons([polygon.rings])
        case .multiPolygon(let multi): return checkPolygons(multi.polygons.map(\.rings))
        case .collection(let collection):
            return collection.members.enumerated().flatMap { index, member in
                check(member).map { var f = $0; f.polygon = index; return f }
            }
        }
    }

    // MARK: Helpers

    /// The ring or line without consecutive repeats (and without the closing vertex), with
    /// each kept vertex's source index; nil (after reporting) when too few points remain.
    private static func distinctRun<Run: RandomAccessCollection>(_ coordinates: Run, polygon: Int, ring: Int, minimum: Int,
                                                                what: String, into findings: inout [Finding])
        -> (points: [MapPoint], indices: [Int])? where Run.Element == Coordinate, Run.Index == Int {
        // Written in place (no append per vertex), the previous coordinate kept at hand.
        var repeats = 0
        var firstRepeat: Int?
        var nonFiniteAt: Int?
        var indices: [Int] = []
        var points = [MapPoint](unsafeUninitializedCapacity: coordinates.count) { points, kept in
            indices = [Int](unsafeUninitializedCapacity: coordinates.count) { indices, keptIndices in
                var previous: Coordinate?
                for index in coordinates.indices {
                    let coordinate = coordinates[index]
                    guard coordinate.latitude.isFinite && coordinate.longitude.isFinite else {
                        nonFiniteAt = index
                        break
                    }
                    if let previous, coordinate.latitude == previous.latitude && coordinate.longitude == previous.longitude {
                        repeats += 1
                        if firstRepeat == nil { firstRepeat = index }
                        continue
                    }
                    previous = coordinate
                    // Equal plane points are equal coordinates, so the repeat test above is the only one.
                    points.initializeElement(at: kept, to: planePoint(coordinate))
                    indices.initializeElement(at: kept, to: index)
                    kept += 1
                }
                keptIndices = kept
            }
        }
        if let nonFiniteAt {
            findings.append(nonFinite(polygon: polygon, ring: ring, vertex: nonFiniteAt))
            return nil
        }
        if points.count > 1 && minimum == 3 && points[0] == points[points.count - 1] {
            points.removeLast()
            indices.removeLast()
        }
        if let firstRepeat {
            findings.append(Finding(severity: .warning, code: .geometryRepeatedPoint,
                                    message: repeats == 1 ? "a position repeats the one before it"
                                        : "\(repeats) positions repeat the one before them (first here)",
                                    polygon: polygon, ring: ring, vertex: firstRepeat))
        }
        guard points.count >= minimum else {
            findings.append(Finding(severity: .error, code: .geometryTooFewPoints,
                                    message: "\(what) needs at least \(minimum) distinct points, found \(points.count)",
                                    polygon: polygon, ring: ring, vertex: nil))
            return nil
        }
        return (points, indices)
    }

    /// A ring without consecutive repeats (and without the closing vertex), written into
    /// `points` (room for every vertex of the ring); nil (after reporting) when too few points
    /// remain. Reports as `distinctRun` does, in the same order.
    private static func distinctRing<Run: RandomAccessCollection>(_ coordinates: Run, polygon: Int, ring: Int,
                                                                 into points: UnsafeMutableBufferPointer<MapPoint>,
                                                                 findings: inout [Finding])
        -> (count: Int, droppedRepeats: Bool)? where Run.Element == Coordinate, Run.Index == Int {
        var repeats = 0
        var firstRepeat: Int?
        var kept = 0
        var previous: Coordinate?
        for index in coordinates.indices {
            let coordinate = coordinates[index]
            guard coordinate.latitude.isFinite && coordinate.longitude.isFinite else {
                findings.append(nonFinite(polygon: polygon, ring: ring, vertex: index))
                return nil
            }
            if let previous, coordinate.latitude == previous.latitude && coordinate.longitude == previous.longitude {
                repeats += 1
                if firstRepeat == nil { firstRepeat = index }
                continue
            }
            previous = coordinate
            // Equal plane points are equal coordinates, so the repeat test above is the only one.
            points[kept] = planePoint(coordinate)
            kept += 1
        }
        if kept > 1 && points[0] == points[kept - 1] { kept -= 1 }
        if let firstRepeat {
            findings.append(Finding(severity: .warning, code: .geometryRepeatedPoint,
                                    message: repeats == 1 ? "a position repeats the one before it"
                                        : "\(repeats) positions repeat the one before them (first here)",
                                    polygon: polygon, ring: ring, vertex: firstRepeat))
        }
        guard kept >= 3 else {
            findings.append(Finding(severity: .error, code: .geometryTooFewPoints,
                                    message: "a ring needs at least 3 distinct points, found \(kept)",
                                    polygon: polygon, ring: ring, vertex: nil))
            return nil
        }
        return (kept, repeats > 0)
    }

    /// The source index of each point `distinctRing` keeps from a ring of finite positions, in
    /// order (one more than it keeps when it dropped the closing vertex).
    private static func keptIndices<Run: RandomAccessCollection>(_ coordinates: Run) -> [Int]
    where Run.Element == Coordinate, Run.Index == Int {
        var indices: [Int] = []
        var previous: Coordinate?
        for index in coordinates.indices {
            let coordinate = coordinates[index]
            if let previous, coordinate.latitude == previous.latitude && coordinate.longitude == previous.longitude { continue }
            previous = coordinate
            indices.append(index)
        }
        return indices
    }

    /// A position in the validity plane: longitude and latitude as they are (RFC 7946 §3.1.1:
    /// edges are straight in them), y negated so that y grows southward as in map points and
    /// the sweeps visit vertices in the same order. Exact: distinct positions stay distinct.
    @inline(__always)
    static func planePoint(_ coordinate: Coordinate) -> MapPoint {
        MapPoint(x: coordinate.longitude, y: -coordinate.latitude)
    }

    /// The position of a point of the validity plane.
    @inline(__always)
    static func coordinate(_ point: MapPoint) -> Coordinate {
        Coordinate(latitude: -point.y, longitude: point.x)
    }

    private static func nonFinite(polygon: Int, ring: Int, vertex: Int) -> Finding {
        Finding(severity: .error, code: .geometryNonFinite, message: "a coordinate is not a finite number",
                polygon: polygon, ring: ring, vertex: vertex)
    }

    private static func describe(_ polygon: Int, _ ring: Int, _ polygonCount: Int) -> String {
        polygonCount > 1 ? "\(ring) of polygon \(polygon)" : "\(ring)"
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded() / 1_000_000
        return "\(scaled)"
    }

    /// A cheap fingerprint of a ring that does not depend on where it starts or which way it
    /// runs: vertex count, smallest vertex, and the smaller of that vertex's two neighbours.
    private struct RingKey: Hashable {
        var count: Int
        var lowest: MapPoint
        var neighbour: MapPoint

        /// The key of a ring of the validity plane, or of its mirror image (y = latitude) when
        /// `mirrored`: the vertex and neighbour chosen are the plane's either way, so the keys
        /// of a ring and of its mirror image name the same points (mirrored), and a ring whose
        /// smallest vertex comes twice is keyed as `checkPolygons` keys it.
        init(_ points: UnsafeBufferPointer<MapPoint>, mirrored: Bool = false) {
            var lowestIndex = 0
            for index in points.indices where RingKey.less(points[index], points[lowestIndex], mirrored) { lowestIndex = index }
            let before = points[(lowestIndex + points.count - 1) % points.count]
            let after = points[(lowestIndex + 1) % points.count]
            count = points.count
            lowest = points[lowestIndex]
            neighbour = RingKey.less(before, after, mirrored) ? before : after
        }

        /// The plane's order of points (x, then y), read on mirrored points when `mirrored`.
        static func less(_ a: MapPoint, _ b: MapPoint, _ mirrored: Bool) -> Bool {
            a.x < b.x || (a.x == b.x && (mirrored ? a.y > b.y : a.y < b.y))
        }

        /// Whether two rings have the same vertices in the same cyclic order, either way round.
        static func same(_ a: UnsafeBufferPointer<MapPoint>, _ b: UnsafeBufferPointer<MapPoint>) -> Bool {
            guard a.count == b.count, let start = b.firstIndex(of: a[0]) else { return false }
            let n = a.count
            if (0..<n).allSatisfy({ a[$0] == b[(start + $0) % n] }) { return true }
            return (0..<n).allSatisfy { a[$0] == b[(start - $0 + n) % n] }
        }
    }
}
