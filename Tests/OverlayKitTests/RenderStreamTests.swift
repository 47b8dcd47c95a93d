import XCTest
@testable import OverlayKit
import OverlayModel

/// `SnapshotStream` (render with a given camera) draws each feature as it arrives and must give
/// the same bytes as `MapSnapshot`, which keeps every mark until the end; culling by bounds
/// must skip only features that draw nothing (issue 25 item 15).
final class RenderStreamTests: XCTestCase {
    /// Lines and polygons on both levels (a style sheet lifts `top` features to aboveLabels),
    /// pins with labels, a circle, an antimeridian-crossing ring, a multipolygon with one part
    /// on screen, and features far off screen, interleaved so draw order ≠ file order.
    private func mixedFeatures() throws -> [Feature] {
        var features = [String]()
        for index in 0..<40 {
            let x = Double(index % 8) * 9 - 36, y = Double(index / 8) * 9 - 20
            features.append(RenderFixtures.polygon([[(x, y), (x + 6, y), (x + 6, y + 6), (x, y + 6), (x, y)]],
                                                   properties: index % 3 == 0 ? "{\"top\":true,\"name\":\"sq \(index)\"}" : "{}"))
            if index % 5 == 0 {
                features.append("{\"type\":\"Feature\",\"properties\":{\"title\":\"pin \(index)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(x),\(y)]}}")
            }
            if index % 7 == 0 {
                features.append("{\"type\":\"Feature\",\"properties\":{\"top\":\(index % 2 == 0)},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[\(x),\(y)],[\(x + 30),\(y + 4)],[\(x + 1),\(y + 9)]]}}")
            }
        }
        features.append("{\"type\":\"Feature\",\"properties\":{\"radius\":400000},\"geometry\":{\"type\":\"Point\",\"coordinates\":[5,5]}}")
        features.append(RenderFixtures.polygon([[(170, 10), (-170, 10), (-170, 20), (170, 20), (170, 10)]]))
        features.append("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[[[[100,60],[101,60],[101,61],[100,60]]],[[[1,1],[3,1],[3,3],[1,1]]]]}}")
        features.append(RenderFixtures.polygon([[(120, -60), (121, -60), (121, -59), (120, -60)]]))
        return try RenderFixtures.features(RenderFixtures.collection(features))
    }

    private func options(pitch: Double = 0, bearing: Double = 0) throws -> RenderOptions {
        RenderOptions(width: 300, height: 200, camera: .centered(Coordinate(latitude: 5, longitude: 0), zoom: 2.4),
                      bearing: bearing, pitch: pitch,
                      styleSheet: try RenderFixtures.sheet("{\"rules\":[{\"where\":{\"top\":true},\"style\":{\"level\":\"aboveLabels\",\"fill\":\"#cc3300\"}}]}"))
    }

    private func streamed(_ features: [Feature], _ options: RenderOptions, _ format: SnapshotStream.Format) throws -> [UInt8] {
        let output = ByteOutput()
        var stream = try SnapshotStream(camera: options.resolveCamera(for: [Feature]()), options: options,
                                        format: format, output: output)
        for feature in features { try stream.add(feature) }
        try stream.finish()
        return output.bytes
    }

    func testStreamWritesTheSameBytesAsTheSnapshot() throws {
        let features = try mixedFeatures()
        for (pitch, bearing) in [(0.0, 0.0), (0.0, 30.0), (50.0, 20.0)] {
            let options = try options(pitch: pitch, bearing: bearing)
            let snapshot = MapSnapshot(features: features, options: options)
            XCTAssertEqual(try streamed(features, options, .svg), snapshot.svg(), "SVG at pitch \(pitch), bearing \(bearing)")
            XCTAssertEqual(try streamed(features, options, .png), try snapshot.png(), "PNG at pitch \(pitch), bearing \(bearing)")
        }
        // The fixture does exercise both levels and annotations.
        let svg = String(decoding: MapSnapshot(features: features, options: try options()).svg(), as: UTF8.self)
        XCTAssertTrue(svg.contains("<g id=\"aboveLabels\">\n<g><title>sq 0</title>"), svg)
        XCTAssertTrue(svg.contains("<title>pin 0</title>"), svg)
    }

    func testCullingSkipsOnlyWhatDrawsNothing() throws {
        let features = try mixedFeatures()
        for (pitch, bearing) in [(0.0, 0.0), (0.0, 30.0), (50.0, 20.0)] {
            let options = try options(pitch: pitch, bearing: bearing)
            let camera = options.resolveCamera(for: [Feature]())
            var marker = FeatureMarker(camera: camera, options: options)
            marker.cullsByBounds = false
            var culled = 0
            for (index, feature) in features.enumerated() {
                guard let shape = feature.shape, !marker.paths.mayShow(shape) else { continue }
                culled += 1
                // Marked without culling, the feature leaves no mark.
                if case .drawn = marker.marks(of: feature, number: index + 1) {
                    XCTFail("culled but visible at pitch \(pitch): \(feature)")
                }
            }
            XCTAssertGreaterThan(culled, 0, "something is off screen at pitch \(pitch)")
        }
    }

    func testCulledFeaturesAreCountedButNotDrawn() throws {
        let features = try mixedFeatures()
        var stream = try SnapshotStream(camera: try options().resolveCamera(for: [Feature]()), options: try options(),
                                        format: .svg, output: ByteOutput())
        for feature in features { try stream.add(feature) }
        try stream.finish()
        XCTAssertEqual(stream.featureCount, features.count)
        XCTAssertLessThan(stream.drawnFeatureCount, features.count)
        XCTAssertGreaterThan(stream.drawnFeatureCount, features.count / 2)
    }
}
