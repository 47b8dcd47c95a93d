import XCTest
@testable import OverlayKit
import OverlayModel

/// A long line marked through `LongLineSimplification` (flat map points, no vertex-buffer
/// copies) gives the marks the general path (`SubpixelCoalescing`, `ShapeSimplifier`,
/// `ScreenPathBuilder`) gives, bit for bit (issue 51 item 7).
final class LongLineSimplificationTests: XCTestCase {
    /// A random walk of `count` positions `meters` apart from Paris, each step in a direction
    /// drawn from `seed`; with `grid`, every position is rounded to it (degrees), so that many
    /// vertices are collinear or equally far from a chord (Douglas–Peucker's ties).
    static func walk(count: Int, meters: Double, seed: UInt64, grid: Double? = nil) -> Feature {
        var coordinates = [Coordinate]()
        coordinates.reserveCapacity(count)
        var latitude = 48.8566, longitude = 2.3522
        for index in 0..<count {
            if let grid {
                coordinates.append(Coordinate(latitude: (latitude / grid).rounded() * grid, longitude: (longitude / grid).rounded() * grid))
            } else {
                coordinates.append(Coordinate(latitude: latitude, longitude: longitude))
            }
            let heading = SplitMix64.unit(seed &* 1_000_003 &+ UInt64(index)) * 2 * Double.pi
            latitude += meters * cos(heading) / 111_320
            longitude += meters * sin(heading) / (111_320 * cos(latitude * Double.pi / 180))
        }
        return Feature(properties: JSONObject(), shape: .polyline(Polyline(vertices: VertexBuffer(coordinates: coordinates))))
    }

    /// The paths and strokes of an outcome's marks, or its kind.
    private func summary(_ outcome: FeatureMarker.Outcome) -> String {
        guard case .drawn(let marks) = outcome else { return "\(outcome)" }
        return marks.overlays.map { part -> String in
            guard case .path(let path, let fill, _, let stroke) = part else { return "\(part)" }
            return "\(path.hashValue) \(path.pointCount) \(path.starts.count) \(String(describing: fill)) \(String(describing: stroke))"
        }.joined(separator: "\n") + " layer \(marks.overlayLayer) points \(marks.points.count)"
    }

    private func paths(_ outcome: FeatureMarker.Outcome) -> [DevicePath] {
        guard case .drawn(let marks) = outcome else { return [] }
        return marks.overlays.compactMap { if case .path(let path, _, _, _) = $0 { path } else { nil } }
    }

    private func assertSameMarks(_ feature: Feature, _ options: RenderOptions, _ camera: RenderCamera,
                                 file: StaticString = #filePath, line: UInt = #line) {
        var flat = FeatureMarker(camera: camera, options: options)
        var general = FeatureMarker(camera: camera, options: options)
        general.simplifiesLongLinesFlat = false
        let flatOutcome = flat.marks(of: feature, number: 1), generalOutcome = general.marks(of: feature, number: 1)
        XCTAssertEqual(summary(flatOutcome), summary(generalOutcome), file: file, line: line)
        XCTAssertEqual(paths(flatOutcome), paths(generalOutcome), file: file, line: line)
    }

    /// The in-place path is chosen by the model's layout and fell back silently to copying when
    /// `Coordinate` went from 32 to 24 bytes (a 2M-vertex walk's peak grew by 25 MB).
    func testMapPointsAreWrittenOverTheCoordinatesWithTheModelsLayout() {
        XCTAssertTrue(LongLineSimplification.projectsInPlace, "Coordinate is \(MemoryLayout<Coordinate>.stride) bytes")
    }

    func testALongWalkIsMarkedAsTheGeneralPathMarksIt() throws {
        let feature = LongLineSimplificationTests.walk(count: 100_000, meters: 10, seed: 1)
        guard case .polyline(let line) = feature.shape else { return XCTFail("a line") }
        XCTAssertGreaterThanOrEqual(line.vertices.count, LongLineSimplification.minimumVertices)
        let fitted = RenderOptions()
        let camera = fitted.resolveCamera(fitting: line.vertices.boundingMapRect)
        assertSameMarks(feature, fitted, camera)
        // Turned, and zoomed in so that the guard clips the line into pieces.
        let center = Coordinate(line.vertices.points[50_000])
        for (zoom, bearing) in [(camera.zoom, 30.0), (camera.zoom + 3, 0.0), (camera.zoom + 3, 75.0)] {
            let options = RenderOptions(width: 400, height: 300, camera: .centered(center, zoom: zoom), bearing: bearing)
            assertSameMarks(feature, options, options.resolveCamera(fitting: .null))
        }
    }

    func testTiesAndCollinearVerticesAreBrokenAsTheSimplifierBreaksThem() throws {
        // Positions on a 1e-4° grid (about 7 × 11 m) with 10 m steps: many repeats, many
        // vertices in a row on one grid line, many equal distances to a chord.
        let feature = LongLineSimplificationTests.walk(count: 80_000, meters: 10, seed: 2, grid: 1e-4)
        guard case .polyline(let line) = feature.shape else { return XCTFail("a line") }
        for zoom in [11.0, 14.0, 17.0] {
            let options = RenderOptions(width: 500, height: 400, camera: .centered(Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: zoom))
            assertSameMarks(feature, options, options.resolveCamera(fitting: .null))
        }
        let fitted = RenderOptions()
        assertSameMarks(feature, fitted, fitted.resolveCamera(fitting: line.vertices.boundingMapRect))
    }

    func testFlatDouglasPeuckerKeepsTheSimplifiersVertices() {
        // Points on a line with equal offsets: every interior vertex ties; the tie-break by
        // buffer offsets decides which pivots stay.
        let points = (0..<2_001).map { MapPoint(x: Double($0), y: $0 % 2 == 0 ? 0 : 1) }
        for threshold in [0.0, 0.1, 0.25, 1.0] {
            var flat = [Double]()
            for point in points { flat += [point.x, point.y, 0] }
            DouglasPeucker.computeImportance(&flat, first: 0, last: points.count - 1, squaredTolerance: 0, monotone: true,
                                             keptAbove: threshold)
            flat[2] = .infinity
            flat[flat.count - 1] = .infinity
            let expected = stride(from: 2, to: flat.count, by: 3).map { flat[$0] > threshold }
            XCTAssertEqual(LongLineSimplification.douglasPeucker(points, threshold: threshold), expected, "threshold \(threshold)")
        }
    }

    func testAHandedOverWalkIsMarkedInItsOwnMemoryAsTheGeneralPathMarksIt() throws {
        // The feature's only copy is handed over: its coordinates' memory becomes the working
        // buffer of map points. The same walk built again is the general path's.
        let reference = LongLineSimplificationTests.walk(count: 100_000, meters: 10, seed: 3)
        guard case .polyline(let line) = reference.shape else { return XCTFail("a line") }
        let fitted = RenderOptions()
        let camera = fitted.resolveCamera(fitting: line.vertices.boundingMapRect)
        let center = Coordinate(line.vertices.points[50_000])
        let views = [(fitted, camera)] + [(camera.zoom, 30.0), (camera.zoom + 3, 0.0)].map { zoom, bearing in
            let options = RenderOptions(width: 400, height: 300, camera: .centered(center, zoom: zoom), bearing: bearing)
            return (options, options.resolveCamera(fitting: .null))
        }
        for (options, camera) in views {
            var general = FeatureMarker(camera: camera, options: options)
            general.simplifiesLongLinesFlat = false
            let expected = general.marks(of: reference, number: 1)
            var handed = LongLineSimplificationTests.walk(count: 100_000, meters: 10, seed: 3)
            var flat = FeatureMarker(camera: camera, options: options)
            let outcome = flat.marks(taking: &handed, number: 1)
            XCTAssertNil(handed.shape, "the line is taken out of the feature")
            XCTAssertEqual(summary(outcome), summary(expected))
            XCTAssertEqual(paths(outcome), paths(expected))
        }
    }
}
