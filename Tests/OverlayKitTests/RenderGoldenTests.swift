import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// Renders the Examples/render-*.geojson files (with their .style.json sheets) and compares
/// them with the PNGs in Golden/ with a tolerance: font rasterization and anti-aliasing may
/// differ a little between machines, geometry may not.
///
/// After an intended change, regenerate with `OVERLAYKIT_UPDATE_GOLDEN=1 swift test --filter
/// RenderGoldenTests` and look at the new images before committing them.
final class RenderGoldenTests: XCTestCase {
    private func check(_ name: String) throws {
        let examples = RenderFixtures.packageRoot.appendingPathComponent("Examples")
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/\(name).png")
        var reader = GeoJSONReader(input: try ByteInput(path: examples.appendingPathComponent("\(name).geojson").path))
        let features = try reader.readAll()
        let stylePath = examples.appendingPathComponent("\(name).style.json").path
        let styleSheet = FileManager.default.fileExists(atPath: stylePath) ? try StyleSheet(path: stylePath) : StyleSheet()
        let snapshot = MapSnapshot(features: features, options: RenderOptions(width: 640, height: 480, styleSheet: styleSheet))
        if ProcessInfo.processInfo.environment["OVERLAYKIT_UPDATE_GOLDEN"] == "1" {
            try Data(try snapshot.png()).write(to: golden)
            try Prerequisite.require(false, "wrote \(golden.path); review it and run again without OVERLAYKIT_UPDATE_GOLDEN")
        }
        let expected = try RasterImage(png: Array(try Data(contentsOf: golden)))
        let actual = try snapshot.image()
        let difference = try XCTUnwrap(actual.difference(from: expected), "size changed")
        XCTAssertLessThan(difference.meanAbsolute, 1.0, "\(name): \(difference)")
        XCTAssertLessThan(difference.fractionDiffering, 0.005, "\(name): \(difference)")
    }

    func testStyles() throws { try check("render-styles") }
    func testHoles() throws { try check("render-holes") }
    func testDashes() throws { try check("render-dashes") }
    func testLabels() throws { try check("render-labels") }
    func testAntimeridian() throws { try check("render-antimeridian") }

    func testGoldenComparisonNoticesAChange() throws {
        // The tolerance is not so loose that a moved polygon passes.
        let examples = RenderFixtures.packageRoot.appendingPathComponent("Examples")
        var reader = GeoJSONReader(input: try ByteInput(path: examples.appendingPathComponent("render-holes.geojson").path))
        var features = try reader.readAll()
        features.removeLast()
        let styleSheet = try StyleSheet(path: examples.appendingPathComponent("render-holes.style.json").path)
        let actual = try MapSnapshot(features: features, options: RenderOptions(width: 640, height: 480, styleSheet: styleSheet)).image()
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/render-holes.png")
        let expected = try RasterImage(png: Array(try Data(contentsOf: golden)))
        let difference = try XCTUnwrap(actual.difference(from: expected))
        XCTAssertGreaterThan(difference.fractionDiffering, 0.005)
    }
}
