import XCTest
import OverlayKit
import OverlayModel

final class SimplifyTests: XCTestCase {
    /// Distance from a point to a polyline (map points).
    func distance(_ point: MapPoint, to line: [MapPoint]) -> Double {
        var best = Double.infinity
        for index in line.indices.dropFirst() {
            let a = line[index - 1], b = line[index]
            best = min(best, DouglasPeucker.squaredSegmentDistance(point.x, point.y, a.x, a.y, b.x, b.y).squareRoot())
        }
        return line.count == 1 ? ((point.x - line[0].x) * (point.x - line[0].x) + (point.y - line[0].y) * (point.y - line[0].y)).squareRoot() : best
    }

    /// Property: Douglas-Peucker output has no more vertices than its input, is a subset of it,
    /// and stays within the tolerance of it (Hausdorff distance in map points).
    func testDouglasPeuckerStaysWithinTolerance() {
        var random = TileTestRandom(state: 7)
        for trial in 0..<200 {
            var point = MapPoint(x: 1e8, y: 1e8)
            let line = (0..<Int(random.next(2...400))).map { _ -> MapPoint in
                point.x += random.next(-500...1000)
                point.y += random.next(-800...800)
                return point
            }
            let zoom = Double(trial % 12) + 4
            let simplifier = ShapeSimplifier(screenPoints: random.next(0.2...4), zoom: zoom)
            var counts = ShapeSimplifier.Counts()
            let input = Polyline(vertices: VertexBuffer(points: line))
            guard case .polyline(let output)? = simplifier.simplify(.polyline(input), counts: &counts) else {
                XCTAssertEqual(counts.droppedLines, 1, "only a line shorter than the tolerance may vanish")
                continue
            }
            XCTAssertLessThanOrEqual(output.pointCount, input.pointCount)
            XCTAssertTrue(Set(output.points.map { "\($0.x),\($0.y)" }).isSubset(of: Set(line.map { "\($0.x),\($0.y)" })))
            let hausdorff = line.map { distance($0, to: output.points) }.max() ?? 0
            XCTAssertLessThanOrEqual(hausdorff, simplifier.tolerance * (1 + 1e-12), "trial \(trial)")
            XCTAssertEqual(output.points.first, line.first)
            XCTAssertEqual(output.points.last, line.last)
        }
    }

    /// Property: simplified rings (either algorithm) stay closed with ≥ 4 points, gain no
    /// self-crossing, and have no more vertices than their input.
    func testSimplifiedRingsStayValid() {
        var random = TileTestRandom(state: 99)
        var repaired = 0
        for trial in 0..<300 {
            let ring = tileStarRing(&random, center: Coordinate(latitude: 10, longitude: 10), radius: random.next(0.01...5),
                                    count: Int(random.next(4...300)))
            for algorithm in ShapeSimplifier.Algorithm.allCases {
                let simplifier = ShapeSimplifier(screenPoints: random.next(0.5...8), zoom: Double(trial % 10), algorithm: algorithm)
                var counts = ShapeSimplifier.Counts()
                let input = Polygon(coordinates: ring)
                guard case .polygon(let output)? = simplifier.simplify(.polygon(input), counts: &counts) else {
                    XCTAssertEqual(counts.droppedRings, 1)
                    XCTAssertLessThan(abs(input.vertices.signedDoubleArea) / 2, simplifier.tolerance * simplifier.tolerance)
                    continue
                }
                repaired += counts.repairedRings
                XCTAssertGreaterThanOrEqual(output.pointCount, 4)
                XCTAssertLessThanOrEqual(output.pointCount, input.pointCount)
                XCTAssertEqual(output.points.first, output.points.last)
                XCTAssertFalse(RingValidity.hasProperSelfIntersection(output.points.flatMap { [$0.x, $0.y] }),
                               "trial \(trial) \(algorithm): new self-crossing")
            }
        }
        print("simplify property test: \(repaired) rings needed less simplification to stay valid")
    }

    func testZoomToleranceIsScreenPointsTimesTwoToTwentyMinusZoom() {
        XCTAssertEqual(ShapeSimplifier(screenPoints: 1, zoom: 20).tolerance, 1)
        XCTAssertEqual(ShapeSimplifier(screenPoints: 3, zoom: 0).tolerance, 3 * 1_048_576)
        XCTAssertEqual(ShapeSimplifier(screenPoints: 2, zoom: 12).tolerance, 512)
    }

    func testTinyRingsAndShortLinesAreDroppedAndCounted() {
        let simplifier = ShapeSimplifier(tolerance: 10)
        var counts = ShapeSimplifier.Counts()
        let tiny = VertexBuffer(points: [MapPoint(x: 0, y: 0), MapPoint(x: 5, y: 0), MapPoint(x: 5, y: 5), MapPoint(x: 0, y: 0)])
        let big = VertexBuffer(points: [MapPoint(x: 0, y: 0), MapPoint(x: 100, y: 0), MapPoint(x: 100, y: 100),
                                        MapPoint(x: 50, y: 101), MapPoint(x: 0, y: 100), MapPoint(x: 0, y: 0)])
        let polygon = Polygon(vertices: big, interiorPolygons: [Polygon(vertices: tiny)])
        guard case .polygon(let output)? = simplifier.simplify(.polygon(polygon), counts: &counts) else { return XCTFail() }
        XCTAssertTrue(output.interiorPolygons.isEmpty)
        XCTAssertEqual(output.pointCount, 5, "the vertex 1 point off the edge goes, the corners stay")
        XCTAssertNil(simplifier.simplify(.polyline(Polyline(vertices: VertexBuffer(points: [MapPoint(x: 0, y: 0), MapPoint(x: 3, y: 4)]))),
                                         counts: &counts))
        XCTAssertEqual(counts.droppedRings, 1)
        XCTAssertEqual(counts.droppedLines, 1)
    }

    /// A ring that plain Douglas-Peucker would reduce to a triangle-less sliver keeps 4 points.
    func testRingNeverFallsBelowFourPoints() {
        // A thin long diamond: at a large tolerance DP keeps only the two far ends.
        let points = [MapPoint(x: 0, y: 0), MapPoint(x: 500, y: 12), MapPoint(x: 1000, y: 0), MapPoint(x: 500, y: -12), MapPoint(x: 0, y: 0)]
        var counts = ShapeSimplifier.Counts()
        let simplifier = ShapeSimplifier(tolerance: 100)
        guard case .polygon(let output)? = simplifier.simplify(.polygon(Polygon(vertices: VertexBuffer(points: points))), counts: &counts)
        else { return XCTFail("area 24000 ≥ 100², the ring stays") }
        XCTAssertGreaterThanOrEqual(output.pointCount, 4)
        XCTAssertEqual(counts.repairedRings, 1)
    }

    /// Property: the sweep finds a proper crossing exactly when checking every pair of
    /// non-adjacent edges does, on rings of whole tile units (ordered by counting) and of
    /// fractions (ordered by comparison), and both orders are by least x, then index.
    func testSelfCrossingSweepAgreesWithEveryPair() {
        func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
            (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        }
        func crossesByEveryPair(_ xy: [Double]) -> Bool {
            let edges = xy.count / 2 - 1
            for i in 0..<edges {
                for j in (i + 2)..<max(i + 2, edges) where !(i == 0 && j == edges - 1) {
                    let (ax, ay, bx, by) = (xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3])
                    let (cx, cy, dx, dy) = (xy[2 * j], xy[2 * j + 1], xy[2 * j + 2], xy[2 * j + 3])
                    let o1 = orientation(ax, ay, bx, by, cx, cy), o2 = orientation(ax, ay, bx, by, dx, dy)
                    let o3 = orientation(cx, cy, dx, dy, ax, ay), o4 = orientation(cx, cy, dx, dy, bx, by)
                    if o1 * o2 < 0 && o3 * o4 < 0 { return true }
                }
            }
            return false
        }
        var random = TileTestRandom(state: 11)
        var crossings = [false: 0, true: 0]
        for trial in 0..<400 {
            let whole = trial % 2 == 0
            // Star rings (simple) with a few vertices pulled across the centre (often crossing).
            let count = 13 + Int(random.next() * 60)
            var xy = [Double]()
            for index in 0..<count {
                let angle = 2 * Double.pi * Double(index) / Double(count)
                var radius = random.next(200...2000)
                if random.next() < 0.04 { radius = -radius / 2 }
                var x = 2048 + radius * cos(angle), y = 2048 + radius * sin(angle)
                if whole { x.round(.down); y.round(.down) }
                xy += [x, y]
            }
            xy += [xy[0], xy[1]]
            let expected = crossesByEveryPair(xy)
            crossings[expected, default: 0] += 1
            XCTAssertEqual(RingValidity.hasProperSelfIntersection(xy), expected, "trial \(trial)")
            let minX = (0..<(count)).map { min(xy[2 * $0], xy[2 * $0 + 2]) }
            XCTAssertEqual(RingValidity.edgesByMinX(minX),
                           minX.indices.sorted { minX[$0] < minX[$1] || (minX[$0] == minX[$1] && $0 < $1) }, "trial \(trial)")
        }
        // Both answers were asked for.
        XCTAssertGreaterThan(crossings[true]!, 40)
        XCTAssertGreaterThan(crossings[false]!, 40)
    }

    func testVisvalingamRemovesSmallestTrianglesFirst() {
        var flat: [Double] = [0, 0, 0, 1, 0.1, 0, 2, 0, 0, 3, 5, 0, 4, 0, 0]
        VisvalingamWhyatt.computeImportance(&flat, first: 0, last: 4)
        let areas = [flat[5], flat[8], flat[11]]
        XCTAssertEqual(areas[0], 0.1, accuracy: 1e-12, "the near-collinear vertex goes first")
        XCTAssertLessThan(areas[0], areas[1])
        XCTAssertLessThanOrEqual(areas[1], areas[2])
    }
}

/// `keptAbove` stops Douglas–Peucker's recursion early (render speed, issue 25 item 15) and
/// must keep exactly the vertices of the full run at every threshold at or above it, ties and
/// collinear runs included.
final class DouglasPeuckerPruningTests: XCTestCase {
    func testPrunedImportanceKeepsTheSameVertices() {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<200 {
            let count = 3 + Int.random(in: 0..<400, using: &generator)
            var flat = [Double]()
            for index in 0..<count {
                // Half the trials on a coarse grid: equal distances and collinear vertices.
                if trial % 2 == 0 {
                    flat += [Double(index), Double(Int.random(in: -3...3, using: &generator)), 0]
                } else {
                    flat += [Double(index) + Double.random(in: 0..<1, using: &generator),
                             Double.random(in: -50...50, using: &generator), 0]
                }
            }
            var full = flat, pruned = flat
            let keptAbove = Double.random(in: 0.1...9, using: &generator)
            DouglasPeucker.computeImportance(&full, first: 0, last: count - 1, squaredTolerance: 0, monotone: true)
            DouglasPeucker.computeImportance(&pruned, first: 0, last: count - 1, squaredTolerance: 0, monotone: true,
                                             keptAbove: keptAbove)
            for threshold in [keptAbove, keptAbove * 2, keptAbove * 4, keptAbove * 100] {
                let keptFull = stride(from: 2, to: full.count, by: 3).filter { full[$0] > threshold }
                let keptPruned = stride(from: 2, to: pruned.count, by: 3).filter { pruned[$0] > threshold }
                XCTAssertEqual(keptFull, keptPruned, "trial \(trial), threshold \(threshold)")
            }
        }
    }
}
