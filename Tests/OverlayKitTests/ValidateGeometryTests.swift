import XCTest
@testable import OverlayKit
import OverlayModel

/// Geometry validity: each problem on a small hand-made case, and the sweep cross-checked
/// against brute force on random rings.
final class ValidateGeometryTests: XCTestCase {
    private func ring(_ pairs: [(Double, Double)]) -> [Coordinate] {
        pairs.map { Coordinate(latitude: $0.1, longitude: $0.0) }
    }

    private func codes(_ findings: [GeometryValidity.Finding]) -> [String] { findings.map(\.code.rawValue) }

    let square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0)]
    let hole = [(2.0, 2.0), (2.0, 4.0), (4.0, 4.0), (4.0, 2.0), (2.0, 2.0)]

    func testValidPolygonWithHolesAndTouchingHole() {
        let touching = [(0.0, 5.0), (3.0, 6.0), (3.0, 7.0), (0.0, 5.0)]  // touches the shell at one point
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(hole), ring(touching)]])), [])
    }

    func testBowTieIsASelfIntersectionAtTheCrossing() {
        let findings = GeometryValidity.checkPolygons([[ring([(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)])]])
        XCTAssertEqual(codes(findings), ["geometry.self-intersection"])
        XCTAssertTrue(findings[0].message.contains("crosses itself near 5.0, 5.0"), findings[0].message)
    }

    func testRingTouchingItselfAndSpike() {
        // A figure eight through (5, 5) twice, and a spike running back along itself.
        let eight = ring([(0, 0), (5, 5), (10, 0), (10, 10), (5, 5), (0, 10), (0, 0)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[eight]])), ["geometry.self-intersection"])
        let spike = ring([(0, 0), (10, 0), (10, 10), (10, 15), (10, 12), (0, 10), (0, 0)])
        XCTAssertEqual(Set(codes(GeometryValidity.checkPolygons([[spike]]))), ["geometry.self-intersection"])
    }

    func testHoleOutsideNestedHolesHoleCrossingShellDuplicateRing() {
        let outside = [(20.0, 20.0), (20.0, 22.0), (22.0, 22.0), (22.0, 20.0), (20.0, 20.0)]
        let findings = GeometryValidity.checkPolygons([[ring(square), ring(outside)]])
        XCTAssertEqual(codes(findings), ["geometry.hole-outside-shell"])
        XCTAssertEqual(findings[0].ring, 1)

        let big = [(1.0, 1.0), (1.0, 9.0), (9.0, 9.0), (9.0, 1.0), (1.0, 1.0)]
        let nested = GeometryValidity.checkPolygons([[ring(square), ring(big), ring(hole)]])
        XCTAssertEqual(codes(nested), ["geometry.nested-holes"])
        XCTAssertEqual(nested[0].ring, 2)

        let crossing = [(5.0, 5.0), (5.0, 15.0), (8.0, 15.0), (8.0, 5.0), (5.0, 5.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(crossing)]])), ["geometry.hole-crosses-shell"])

        let other = [(3.0, 3.0), (3.0, 6.0), (6.0, 6.0), (6.0, 3.0), (3.0, 3.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(hole), ring(other)]])), ["geometry.holes-cross"])

        // The same hole again, starting elsewhere and running the other way.
        let again = [(4.0, 4.0), (2.0, 4.0), (2.0, 2.0), (4.0, 2.0), (4.0, 4.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(hole), ring(again)]])), ["geometry.duplicate-ring"])
    }

    func testFindingsNameSourceVerticesAndRingsAroundDroppedPointsAndRings() {
        // A hole crossing the shell, once as is and once with its first point repeated twice:
        // the crossing is named at the same place, its vertex counted in the source positions.
        let crossing = [(5.0, 5.0), (5.0, 15.0), (8.0, 15.0), (8.0, 5.0), (5.0, 5.0)]
        let plain = GeometryValidity.checkPolygons([[ring(square), ring(crossing)]])
        let repeated = GeometryValidity.checkPolygons([[ring(square), ring([(5.0, 5.0), (5.0, 5.0)] + crossing)]])
        XCTAssertEqual(codes(plain), ["geometry.hole-crosses-shell"])
        XCTAssertEqual(codes(repeated), ["geometry.repeated-point", "geometry.hole-crosses-shell"])
        XCTAssertEqual(repeated[1].message, plain[0].message)
        let vertex = try? XCTUnwrap(plain[0].vertex)
        XCTAssertEqual(repeated[1].vertex, vertex.map { $0 == 0 ? 0 : $0 + 2 })
        // A ring dropped for too few points and a duplicate dropped after it leave the rings
        // after them whole: the duplicate names ring 2, the hole after it is still placed.
        let tooFew = [(1.0, 1.0), (2.0, 2.0), (1.0, 1.0)]
        let again = [(4.0, 4.0), (2.0, 4.0), (2.0, 2.0), (4.0, 2.0), (4.0, 4.0)]
        let outside = [(20.0, 20.0), (20.0, 22.0), (22.0, 22.0), (22.0, 20.0), (20.0, 20.0)]
        let findings = GeometryValidity.checkPolygons([[ring(square), ring(tooFew), ring(hole), ring(again), ring(outside)]])
        XCTAssertEqual(codes(findings), ["geometry.too-few-points", "geometry.duplicate-ring", "geometry.hole-outside-shell"])
        XCTAssertEqual(findings.map(\.ring), [1, 3, 4])
        XCTAssertEqual(findings[1].message, "this ring repeats ring 2")
    }

    func testHolePassingThroughTheShellAtAVertexIsACrossing() {
        // The hole's vertex (10, 5) lies on the shell's right edge and the hole goes outside:
        // the rings only meet at points, yet they cross there.
        let through = [(8.0, 4.0), (10.0, 5.0), (12.0, 4.0), (12.0, 6.0), (10.0, 5.0), (8.0, 6.0), (8.0, 4.0)]
        XCTAssertTrue(codes(GeometryValidity.checkPolygons([[ring(square), ring(through)]])).contains("geometry.hole-crosses-shell"))
        // A hole touching the shell from inside at that same point is fine.
        let touching = [(8.0, 4.0), (10.0, 5.0), (8.0, 6.0), (8.0, 4.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(touching)]])), [])
        // A diamond hole whose right vertex is exactly on the shell edge, crossing nothing.
        let diamond = [(10.0, 5.0), (9.0, 6.0), (8.0, 5.0), (9.0, 4.0), (10.0, 5.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(diamond)]])), [])
    }

    func testMultipolygonPartsCrossingNestedAndIslandInALake() {
        let shifted = square.map { ($0.0 + 5, $0.1 + 5) }
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square)], [ring(shifted)]])), ["geometry.parts-cross"])
        let inner = [(3.0, 3.0), (3.0, 5.0), (5.0, 5.0), (5.0, 3.0), (3.0, 3.0)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square)], [ring(inner)]])), ["geometry.parts-nested"])
        let island = [(2.5, 2.5), (2.5, 3.5), (3.5, 3.5), (3.5, 2.5), (2.5, 2.5)]
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring(square), ring(hole)], [ring(island)]])), [])
    }

    func testRepeatedPointsTooFewPointsAndNonFinite() {
        let repeated = ring([(0, 0), (10, 0), (10, 0), (10, 10), (0, 0)])
        let findings = GeometryValidity.checkPolygons([[repeated]])
        XCTAssertEqual(codes(findings), ["geometry.repeated-point"])
        XCTAssertEqual(findings[0].vertex, 2)
        XCTAssertEqual(findings[0].severity, .warning)
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[ring([(0, 0), (1, 1), (0, 0), (0, 0)])]])),
                       ["geometry.repeated-point", "geometry.too-few-points"])
        XCTAssertEqual(codes(GeometryValidity.checkLine(ring([(1, 1), (1, 1)]))), ["geometry.repeated-point", "geometry.too-few-points"])
        XCTAssertEqual(codes(GeometryValidity.checkLine(ring([(1, 1), (.infinity, 1)]))), ["geometry.non-finite"])
        XCTAssertEqual(codes(GeometryValidity.checkLine(ring([(0, 0), (5, 5), (0, 5), (5, 0)]))), [],
                       "a line may cross itself (it is not simple, but valid)")
    }

    func testPositionsBeyondTheMercatorLimitStayDistinct() {
        // Antarctica-like: a ring along −90° and −89° that clamping would fold onto one line.
        let polar = ring([(-180, -90), (180, -90), (180, -89), (0, -89.5), (-180, -89), (-180, -90)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[polar]])), [])
        // Longitudes a hair past 180° are not wrapped to −180°.
        let edge = ring([(179, 0), (180.00000000000014, 0), (180.00000000000014, 1), (179, 1), (179, 0)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[edge]])), [])
    }

    func testEdgesAreStraightInLongitudeAndLatitude() {
        // RFC 7946 §3.1.1 (and GEOS, shapely): an edge is straight in degrees. The shell's edge
        // from (40, 60) to (0, 0) passes latitude 30 at longitude 20, so a hole around (20, 32)
        // lies outside it; on the Mercator plane that edge would pass latitude 35.3 there and
        // the hole would lie inside.
        let shell = ring([(0, 0), (40, 0), (40, 60), (0, 0)])
        let above = ring([(19.5, 31.5), (19.5, 32.5), (20.5, 32.5), (20.5, 31.5), (19.5, 31.5)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[shell, above]])), ["geometry.hole-outside-shell"])
        let below = ring([(19.5, 27.5), (19.5, 28.5), (20.5, 28.5), (20.5, 27.5), (19.5, 27.5)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[shell, below]])), [])
        // The diagonals of a tall bow tie cross at (5, 30) in degrees (at 35.3° on the Mercator plane).
        let findings = GeometryValidity.checkPolygons([[ring([(0, 0), (10, 60), (10, 0), (0, 60), (0, 0)])]])
        XCTAssertEqual(codes(findings), ["geometry.self-intersection"])
        XCTAssertTrue(findings[0].message.contains("crosses itself near 5.0, 30.0"), findings[0].message)
        // A spike back along a diagonal runs back over itself: the three positions are collinear in degrees.
        let spike = ring([(0, 0), (10, 0), (10, 10), (20, 20), (15, 15), (0, 10), (0, 0)])
        XCTAssertEqual(codes(GeometryValidity.checkPolygons([[spike]])), ["geometry.self-intersection"])
    }

    func testShapeEntryPointCoversKMLStyleFeatures() {
        let polygon = Polygon(coordinates: ring([(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)]))
        XCTAssertEqual(codes(GeometryValidity.check(.polygon(polygon))), ["geometry.self-intersection"])
        let collection = ShapeCollection(members: [.polyline(Polyline(coordinates: ring([(0, 0), (0, 0)]))),
                                                   .polygon(Polygon(coordinates: ring(square)))], origin: .geometryCollection)
        let findings = GeometryValidity.check(.collection(collection))
        XCTAssertEqual(codes(findings), ["geometry.repeated-point", "geometry.too-few-points"])
        XCTAssertEqual(findings[0].polygon, 0)
    }

    // MARK: Sweep against brute force

    /// A small deterministic generator, so failures reproduce.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func orient(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    private func onSegment(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Bool {
        orient(a, b, p) == 0 && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    /// Whether two closed segments share any point.
    private func intersects(_ a: MapPoint, _ b: MapPoint, _ c: MapPoint, _ d: MapPoint) -> Bool {
        let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        return onSegment(c, a, b) || onSegment(d, a, b) || onSegment(a, c, d) || onSegment(b, c, d)
    }

    /// The contact brute force counts as invalid: any contact between non-adjacent segments
    /// of one ring (or an overlap of adjacent ones); between rings, anything but touching at
    /// single points.
    private func bruteForceHasContact(_ rings: [[MapPoint]]) -> Bool {
        var segments: [(a: MapPoint, b: MapPoint, ring: Int, index: Int)] = []
        for (r, points) in rings.enumerated() {
            for i in points.indices { segments.append((points[i], points[(i + 1) % points.count], r, i)) }
        }
        for i in segments.indices {
            for j in (i + 1)..<segments.count {
                let s = segments[i], t = segments[j]
                if s.ring == t.ring {
                    let n = rings[s.ring].count
                    let adjacent = abs(s.index - t.index) == 1 || abs(s.index - t.index) == n - 1
                    if adjacent {
                        // Adjacent segments share a vertex; they are bad only when collinear and
                        // folding back over each other.
                        let shared = s.b == t.a ? s.b : t.b
                        let p = s.b == t.a ? s.a : s.b, q = s.b == t.a ? t.b : t.a
                        if orient(p, shared, q) == 0 && (p.x - shared.x) * (q.x - shared.x) + (p.y - shared.y) * (q.y - shared.y) > 0 {
                            return true
                        }
                    } else if intersects(s.a, s.b, t.a, t.b) {
                        return true
                    }
                } else {
                    let o1 = orient(s.a, s.b, t.a), o2 = orient(s.a, s.b, t.b), o3 = orient(t.a, t.b, s.a), o4 = orient(t.a, t.b, s.b)
                    if o1 * o2 < 0 && o3 * o4 < 0 { return true }
                    if o1 == 0 && o2 == 0 {
                        // Collinear: overlapping in more than a point?
                        let useX = s.a.x != s.b.x
                        let (s0, s1) = useX ? (min(s.a.x, s.b.x), max(s.a.x, s.b.x)) : (min(s.a.y, s.b.y), max(s.a.y, s.b.y))
                        let (t0, t1) = useX ? (min(t.a.x, t.b.x), max(t.a.x, t.b.x)) : (min(t.a.y, t.b.y), max(t.a.y, t.b.y))
                        if max(s0, t0) < min(s1, t1) { return true }
                    }
                }
            }
        }
        return false
    }

    private func randomRing(_ random: inout Random, size: Int, grid: Int, offset: (Int, Int) = (0, 0)) -> [MapPoint] {
        var points: [MapPoint] = []
        while points.count < size {
            let p = MapPoint(x: Double(offset.0 + random.next(grid)), y: Double(offset.1 + random.next(grid)))
            if points.last != p { points.append(p) }
        }
        if points.first == points.last { points.removeLast() }
        return points
    }

    func testSweepFindsAContactExactlyWhenBruteForceDoes() {
        var random = Random(state: 42)
        var withContact = 0, without = 0, fastAnswers = 0
        for round in 0..<3000 {
            let ringCount = 1 + random.next(3)
            var rings: [[MapPoint]] = []
            for _ in 0..<ringCount {
                let ring = randomRing(&random, size: 3 + random.next(6), grid: 4 + random.next(12),
                                      offset: (random.next(8), random.next(8)))
                if ring.count >= 3 { rings.append(ring) }
            }
            guard !rings.isEmpty else { continue }
            let swept = RingSweep.sweep(rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            })
            let expected = bruteForceHasContact(rings)
            if expected { withContact += 1 } else { without += 1 }
            XCTAssertEqual(!swept.contacts.isEmpty, expected, "round \(round): \(rings)")
            // The chain check answers only for rings meeting nowhere, and then as the sweep does.
            if let fast = MonotoneChainCheck.parents(of: rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            }) {
                fastAnswers += 1
                XCTAssertFalse(expected, "round \(round): chain check missed a contact in \(rings)")
                XCTAssertEqual(fast, swept.parents ?? [], "round \(round): \(rings)")
            }
            if swept.contacts.isEmpty != !expected { return }
        }
        print("sweep vs brute force: \(withContact) ring sets with contacts, \(without) without (\(fastAnswers) decided by the chain check), all agree")
        XCTAssertGreaterThan(fastAnswers, 100)
        XCTAssertGreaterThan(without, 100)
        XCTAssertGreaterThan(withContact, 100)
    }

    /// Innermost ring containing `point` by ray casting (the point is on no boundary).
    private func contains(_ ring: [MapPoint], _ point: MapPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > point.y) != (b.y > point.y) && point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    private func area(_ ring: [MapPoint]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    func testSweepContainmentMatchesRayCasting() {
        var random = Random(state: 7)
        var checked = 0, nestedSeen = 0, fastAnswers = 0
        for round in 0..<4000 {
            // Diamonds and triangles of assorted sizes, so some nest and some stand apart.
            var rings: [[MapPoint]] = []
            for _ in 0..<(2 + random.next(4)) {
                let cx = Double(random.next(40)), cy = Double(random.next(40)), r = Double(2 + random.next(18))
                let shape: [MapPoint] = random.next(2) == 0
                    ? [MapPoint(x: cx - r, y: cy), MapPoint(x: cx, y: cy - r + 0.5), MapPoint(x: cx + r, y: cy), MapPoint(x: cx + 0.25, y: cy + r)]
                    : [MapPoint(x: cx - r, y: cy - r / 2), MapPoint(x: cx + r, y: cy - r / 3), MapPoint(x: cx + 0.5, y: cy + r)]
                rings.append(random.next(2) == 0 ? shape : shape.reversed())
            }
            guard !bruteForceHasContact(rings) else { continue }
            // Any single-point touches between rings would make "inside" ambiguous; skip those.
            let allPoints = rings.flatMap { $0 }
            if rings.enumerated().contains(where: { r, ring in
                allPoints.contains { p in !ring.contains(p) && ring.indices.contains { onSegment(p, ring[$0], ring[($0 + 1) % ring.count]) } }
            }) { continue }
            let swept = RingSweep.sweep(rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            })
            guard let parents = swept.parents else {
                XCTFail("round \(round): no containment computed for a ring set without contacts")
                return
            }
            let fast = MonotoneChainCheck.parents(of: rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            })
            if let fast {
                fastAnswers += 1
                XCTAssertEqual(fast, parents, "round \(round): chain check containment differs from the sweep's in \(rings)")
            }
            for (index, ring) in rings.enumerated() {
                let containing = rings.indices.filter { $0 != index && contains(rings[$0], ring[0]) }
                let expected = containing.min { area(rings[$0]) < area(rings[$1]) }
                if expected != nil { nestedSeen += 1 }
                XCTAssertEqual(parents[index], expected, "round \(round) ring \(index): \(rings)")
            }
            checked += 1
        }
        print("sweep containment vs ray casting: \(checked) ring sets, \(nestedSeen) nested rings, all agree")
        XCTAssertGreaterThan(checked, 500)
        XCTAssertGreaterThan(nestedSeen, 100)
        XCTAssertGreaterThan(fastAnswers, 400)
    }

    /// The chain check orders chains by their left edge rounded down to the bits the chain
    /// indices leave free: chains whose left edges differ in the last bits may come in either
    /// order, and a crossing between them must still be found, whichever ring comes first.
    func testChainCheckFindsCrossingsBetweenChainsWithAlmostEqualLeftEdges() {
        let square = [MapPoint(x: 1, y: 0), MapPoint(x: 2, y: 0), MapPoint(x: 2, y: 2), MapPoint(x: 1, y: 2)]
        let wedge = [MapPoint(x: 1.0.nextUp, y: 1), MapPoint(x: 3, y: 0.5), MapPoint(x: 3, y: 1.5)]
        let apart = [MapPoint(x: 1.0.nextUp, y: 3), MapPoint(x: 3, y: 2.5), MapPoint(x: 3, y: 3.5)]
        for (rings, meet) in [([wedge, square], true), ([square, wedge], true), ([apart, square], false), ([square, apart], false)] {
            let input = rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: $0.offset, ringIndex: 0)
            }
            let swept = RingSweep.sweep(input)
            XCTAssertEqual(!swept.contacts.isEmpty, meet)
            let fast = MonotoneChainCheck.parents(of: input)
            if meet {
                XCTAssertNil(fast, "the chain check missed the crossing in \(rings)")
            } else {
                XCTAssertEqual(fast, [nil, nil])
            }
        }
    }

    /// Long wiggly rings (many monotone chains, holes and islands among them): the chain check
    /// agrees with the sweep when nothing meets, and leaves every crossing to the sweep.
    func testChainCheckAgreesWithTheSweepOnLongRings() {
        var random = Random(state: 99)
        func wiggly(cx: Double, cy: Double, radius: Double, count: Int, clockwise: Bool) -> [MapPoint] {
            var points: [MapPoint] = []
            for k in 0..<count {
                let angle = Double(k) / Double(count) * 2 * Double.pi * (clockwise ? -1 : 1)
                // Coastline-like: broad bays plus a little noise, so chains have assorted lengths.
                let r = radius * (1 + 0.08 * sin(7 * angle) + 0.004 * Double(random.next(1000)) / 1000)
                points.append(MapPoint(x: cx + r * cos(angle), y: cy + r * sin(angle)))
            }
            return points
        }
        var decided = 0, crossings = 0
        for round in 0..<60 {
            var rings = [wiggly(cx: 0, cy: 0, radius: 1000, count: 3000, clockwise: false)]
            for h in 0..<(1 + random.next(12)) {
                let angle = Double(h) * 0.5, distance = Double(100 + random.next(500))
                rings.append(wiggly(cx: distance * cos(angle), cy: distance * sin(angle), radius: Double(5 + random.next(40)),
                                    count: 50 + random.next(300), clockwise: true))
            }
            // An island next door, sometimes a crossing spike.
            rings.append(wiggly(cx: 2500, cy: 0, radius: 300, count: 500, clockwise: false))
            if round % 3 == 0 {
                let k = random.next(3000)
                rings[0][k] = MapPoint(x: -rings[0][k].x * 3, y: -rings[0][k].y * 3)
            }
            let swept = RingSweep.sweep(rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            })
            let fast = MonotoneChainCheck.parents(of: rings.enumerated().map {
                RingSweep.Ring(points: $0.element, sourceIndices: Array($0.element.indices), polygon: 0, ringIndex: $0.offset)
            })
            if swept.contacts.isEmpty {
                // Nil (leave it to the sweep) is allowed; an answer must be the sweep's.
                if let fast {
                    XCTAssertEqual(fast, swept.parents, "round \(round)")
                    decided += 1
                }
            } else {
                XCTAssertNil(fast, "round \(round): the chain check missed \(swept.contacts.count) contacts")
                crossings += 1
            }
        }
        XCTAssertGreaterThan(decided, 10)
        XCTAssertGreaterThan(crossings, 10)
        print("chain check on long rings: \(decided) decided like the sweep, \(crossings) crossings left to it")
    }

    /// The chain check's radix sort orders keys as the library sort does: sizes on both sides of
    /// its cut-over to `sort()`, digits shared by every key (passes skipped), an odd and an even
    /// number of passes, duplicates, the extremes.
    func testClosedRingsReadInPlaceGiveTheCopyingPathsFindings() {
        var random = Random(state: 11)
        var compared = 0, withContacts = 0, duplicates = 0
        for round in 0..<2000 {
            var polygons: [[[MapPoint]]] = []
            for _ in 0..<(1 + random.next(3)) {
                var polygon: [[MapPoint]] = []
                for _ in 0..<(1 + random.next(3)) {
                    var ring = randomRing(&random, size: 3 + random.next(6), grid: 4 + random.next(12),
                                          offset: (random.next(8), random.next(8)))
                    // Now and then the ring before again, the other way round: a duplicate.
                    if random.next(8) == 0, let previous = polygon.last { ring = previous.reversed() }
                    if ring.count >= 3 { polygon.append(ring) }
                }
                if !polygon.isEmpty { polygons.append(polygon) }
            }
            guard !polygons.isEmpty else { continue }
            // As a GeoJSON run holds them: (longitude, latitude) pairs, each ring closed, one buffer.
            var pairs: [MapPoint] = []
            var rings: [(polygon: Int, ring: Int, first: Int, count: Int)] = []
            for (p, polygon) in polygons.enumerated() {
                for (r, ring) in polygon.enumerated() {
                    rings.append((p, r, pairs.count, ring.count + 1))
                    pairs += ring + [ring[0]]
                }
            }
            let expected = GeometryValidity.checkPolygons(polygons.map { polygon in
                polygon.map { ring in (ring + [ring[0]]).map { Coordinate(latitude: $0.y, longitude: $0.x) } }
            })
            let inPlace = pairs.withUnsafeBufferPointer {
                GeometryValidity.checkClosedRings(lonLat: $0, rings: rings, polygonCount: polygons.count)
            }
            XCTAssertEqual(inPlace, expected, "round \(round): \(polygons)")
            compared += 1
            if expected.contains(where: { $0.code == .geometryDuplicateRing }) { duplicates += 1 }
            if expected.contains(where: { $0.message.contains("near") }) { withContacts += 1 }
        }
        XCTAssertGreaterThan(withContacts, 50)
        XCTAssertGreaterThan(duplicates, 20)
        XCTAssertGreaterThan(compared - withContacts, 50)

        // Rings that are not clean closed runs are left to the copying path.
        let p = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)].map { MapPoint(x: $0.0, y: $0.1) }
        (p + [p[0]]).withUnsafeBufferPointer { points in
            XCTAssertEqual(GeometryValidity.checkClosedRings(lonLat: points, rings: [(0, 0, 0, 5)], polygonCount: 1), [])
            XCTAssertNil(GeometryValidity.checkClosedRings(lonLat: points, rings: [(0, 0, 0, 4)], polygonCount: 1), "not closed")
            XCTAssertNil(GeometryValidity.checkClosedRings(lonLat: points, rings: [(0, 0, 1, 5)], polygonCount: 1), "past the end")
        }
        [p[0], p[1], p[1], p[2], p[3], p[0]].withUnsafeBufferPointer { points in
            XCTAssertNil(GeometryValidity.checkClosedRings(lonLat: points, rings: [(0, 0, 0, 6)], polygonCount: 1), "a repeated point")
        }
        [p[0], p[1], p[0]].withUnsafeBufferPointer { points in
            XCTAssertNil(GeometryValidity.checkClosedRings(lonLat: points, rings: [(0, 0, 0, 3)], polygonCount: 1), "too few points")
        }
    }

    func testRadixSortOrdersKeysAsTheLibrarySort() {
        var generator = SystemRandomNumberGenerator()
        let shapes: [(Int) -> UInt64] = [
            { _ in UInt64.random(in: 0...UInt64.max, using: &generator) },
            { index in 0x4066_8000_0000_0000 | UInt64(index % 7919) << 20 | UInt64(index) },  // high digits shared
            { _ in UInt64.random(in: 0..<2048, using: &generator) },  // one pass: result in the spare buffer
            { _ in UInt64.random(in: 0..<(1 << 22), using: &generator) },  // two passes
            { index in index % 3 == 0 ? 0 : index % 3 == 1 ? UInt64.max : 1 << 63 },
        ]
        for count in [0, 1, 2, 511, 512, 513, 3000, 70_000] {
            for shape in shapes {
                var keys = (0..<count).map(shape)
                let expected = keys.sorted()
                keys.radixSort()
                XCTAssertEqual(keys, expected, "\(count) keys")
            }
        }
    }
}
