import XCTest
@testable import OverlayKit
import OverlayModel

/// Helpers shared by the render tests.
enum RenderFixtures {
    /// The package root, from this file's path.
    static let packageRoot = TestPaths.packageRoot

    static func features(_ geoJSON: String) throws -> [Feature] {
        var reader = GeoJSONReader(input: ByteInput(string: geoJSON, name: "test.geojson"))
        return try reader.readAll()
    }

    static func polygon(_ rings: [[(Double, Double)]], properties: String = "{}") -> String {
        let coordinates = rings.map { ring in "[" + ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]" }
        return "{\"type\":\"Feature\",\"properties\":\(properties),\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[\(coordinates.joined(separator: ","))]}}"
    }

    static func collection(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
    }

    /// A 512×512 snapshot at zoom 2 centered on 0,0: the world is 1024 px wide, so longitude
    /// `lon` is at x = 256 + lon / 360 · 1024 and the equator at y = 256.
    static func image(_ features: [Feature], styleSheet: StyleSheet = StyleSheet(), zoom: Double = 2,
                      center: Coordinate = Coordinate(latitude: 0, longitude: 0), bearing: Double = 0,
                      size: Int = 512) throws -> RasterImage {
        let options = RenderOptions(width: size, height: size, camera: .centered(center, zoom: zoom), bearing: bearing,
                                    styleSheet: styleSheet)
        return try MapSnapshot(features: features, options: options).image()
    }

    static func sheet(_ json: String) throws -> StyleSheet {
        try StyleSheet(input: ByteInput(string: json, name: "style.json"))
    }

    /// Solid black fill, no stroke, for every feature.
    static let blackFill = ##"{"rules":[{"style":{"fill":"#000000","stroke":"none"}}]}"##
}

final class RenderGeometryTests: XCTestCase {
    private func isWhite(_ color: RGBAColor) -> Bool { color.red > 250 && color.green > 250 && color.blue > 250 }
    private func isBlack(_ color: RGBAColor) -> Bool { color.red < 5 && color.green < 5 && color.blue < 5 }

    func testHoleIsEmptyUnderBothFillRulesWhateverTheWinding() throws {
        // Exterior and hole wound the same way: a naive nonzero fill would fill the hole.
        let sameWinding = RenderFixtures.polygon([[(-40, -40), (40, -40), (40, 40), (-40, 40), (-40, -40)],
                                                  [(-10, -10), (10, -10), (10, 10), (-10, 10), (-10, -10)]])
        for rule in ["nonzero", "evenodd"] {
            let sheet = try RenderFixtures.sheet(##"{"rules":[{"style":{"fill":"#000000","stroke":"none","fill-rule":"\##(rule)"}}]}"##)
            let image = try RenderFixtures.image(try RenderFixtures.features(sameWinding), styleSheet: sheet)
            XCTAssertTrue(isWhite(image.pixel(x: 256, y: 256)), "hole filled under \(rule)")
            XCTAssertTrue(isBlack(image.pixel(x: 256 + 70, y: 256)), "ring not filled under \(rule)")
            XCTAssertTrue(isWhite(image.pixel(x: 256 + 120, y: 256)), "outside filled under \(rule)")
        }
    }

    func testOverlappingPartsDifferByFillRule() throws {
        let multi = """
            {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[
            [[[-40,-40],[20,-40],[20,20],[-40,20],[-40,-40]]],[[[-20,-20],[40,-20],[40,40],[-20,40],[-20,-20]]]]}}
            """
        let nonzero = try RenderFixtures.image(try RenderFixtures.features(multi),
                                               styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill))
        let evenodd = try RenderFixtures.image(try RenderFixtures.features(multi), styleSheet: try RenderFixtures.sheet(
            ##"{"rules":[{"style":{"fill":"#000000","stroke":"none","fill-rule":"evenodd"}}]}"##))
        XCTAssertTrue(isBlack(nonzero.pixel(x: 256, y: 256)))
        XCTAssertTrue(isWhite(evenodd.pixel(x: 256, y: 256)))
        XCTAssertTrue(isBlack(evenodd.pixel(x: 256 - 80, y: 256 + 80)))
    }

    func testCircleIsRoundInMapSpaceAtItsLatitude() throws {
        // 500 km at 60° N: Mercator scale 2, so 1000 km of map; at zoom 4 (4096 px world)
        // that is 1000e3 / 40075016.7 · 4096 ≈ 102.2 px, the same across and down.
        let circle = ##"{"type":"Feature","properties":{"radius":500000},"geometry":{"type":"Point","coordinates":[0,60]}}"##
        let image = try RenderFixtures.image(try RenderFixtures.features(circle),
                                             styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill),
                                             zoom: 4, center: Coordinate(latitude: 60, longitude: 0))
        let radius = 500_000 * mapPointsPerMeter(atLatitude: 60) / Zoom.mapPointsPerScreenPoint(atZoom: 4)
        XCTAssertEqual(radius, 102.2, accuracy: 0.1)
        for (dx, dy) in [(1.0, 0.0), (-1, 0), (0, 1), (0, -1), (0.7071, 0.7071)] {
            let inside = image.pixel(x: Int(256 + dx * (radius - 3)), y: Int(256 + dy * (radius - 3)))
            let outside = image.pixel(x: Int(256 + dx * (radius + 3)), y: Int(256 + dy * (radius + 3)))
            XCTAssertTrue(isBlack(inside), "inside at \(dx),\(dy)")
            XCTAssertTrue(isWhite(outside), "outside at \(dx),\(dy)")
        }
    }

    func testLineWidthAndDashes() throws {
        let line = ##"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[-60,0],[60,0]]}}"##
        let sheet = try RenderFixtures.sheet(
            ##"{"rules":[{"style":{"stroke":"#000000","stroke-width":10,"stroke-linecap":"butt","stroke-dasharray":[20,20]}}]}"##)
        let image = try RenderFixtures.image(try RenderFixtures.features(line), styleSheet: sheet)
        // The line starts at x = 256 − 60/360·1024 ≈ 85.3: dashes cover 85–105, 125–145, …
        let start = 256 - 60.0 / 360 * 1024
        XCTAssertTrue(isBlack(image.pixel(x: Int(start + 10), y: 256)))
        XCTAssertTrue(isBlack(image.pixel(x: Int(start + 10), y: 256 + 4)), "10 px wide: 4 px below is covered")
        XCTAssertTrue(isWhite(image.pixel(x: Int(start + 10), y: 256 + 7)), "10 px wide: 7 px below is clear")
        XCTAssertTrue(isWhite(image.pixel(x: Int(start + 30), y: 256)), "gap")
        XCTAssertTrue(isBlack(image.pixel(x: Int(start + 50), y: 256)), "next dash")
        XCTAssertTrue(isWhite(image.pixel(x: Int(start - 3), y: 256)), "butt cap ends at the vertex")
    }

    /// A line longer than one piece of `CairoCanvas.LongStroke` (cairo's memory for a whole
    /// stroke grows 600 bytes a segment) that runs over itself many times, drawn half-transparent:
    /// where pieces overlap each pixel is painted once, as one stroke paints it, not darker.
    func testALongLineIsStrokedInPiecesThatPaintEachPixelOnce() throws {
        var coordinates = [String]()
        let passes = 40, stepsPerPass = 1200
        for pass in 0..<passes {
            for step in 0..<stepsPerPass {
                let x = -60 + Double(pass % 2 == 0 ? step : stepsPerPass - 1 - step) * 0.1
                coordinates.append("[\(x),\(step % 2 == 0 ? 0.2 : -0.2)]")
            }
        }
        XCTAssertGreaterThan(coordinates.count, 2 * CairoCanvas.LongStroke.segmentsPerPiece, "several pieces")
        let line = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":["# + coordinates.joined(separator: ",") + "]}}"
        let sheet = try RenderFixtures.sheet(##"{"rules":[{"style":{"stroke":"#000000","stroke-width":6,"stroke-opacity":0.5}}]}"##)
        let image = try RenderFixtures.image(try RenderFixtures.features(line), styleSheet: sheet)
        for x in [120, 200, 256, 300, 400] {
            let pixel = image.pixel(x: x, y: 256)
            XCTAssertEqual(Double(pixel.red), 127.5, accuracy: 6, "x \(x): black at half opacity over white, painted once: \(pixel)")
        }
        XCTAssertTrue(isWhite(image.pixel(x: 256, y: 270)), "the line is 6 px wide and zigzags by 1.1 px")
    }

    func testLevelsThenFileOrder() throws {
        let sheet = try RenderFixtures.sheet("""
            {"default":{"fill":"#0000ff","fill-opacity":1,"stroke":"none"},
             "rules":[{"where":{"top":true},"style":{"fill":"#ff0000","level":"aboveLabels"}}]}
            """)
        let square = [(-20.0, -20.0), (20, -20), (20, 20), (-20, 20), (-20, -20)]
        // The red square comes first in the file but is in aboveLabels; the two blue ones
        // after it stay below it, and the second blue covers the first.
        let features = try RenderFixtures.features(RenderFixtures.collection([
            RenderFixtures.polygon([square], properties: ##"{"top":true}"##),
            RenderFixtures.polygon([square.map { ($0.0 + 10, $0.1) }], properties: ##"{"fill":"#00ff00"}"##),
            RenderFixtures.polygon([square.map { ($0.0 + 20, $0.1) }]),
        ]))
        let image = try RenderFixtures.image(features, styleSheet: sheet)
        XCTAssertEqual(image.pixel(x: 256, y: 256), RGBAColor(red: 255, green: 0, blue: 0))
        // Right of the red square: the blue third square covers the green second one.
        XCTAssertEqual(image.pixel(x: 256 + 70, y: 256), RGBAColor(red: 0, green: 0, blue: 255))
    }

    func testAntimeridianPolygonIsOnePieceWhereverItIsWritten() throws {
        let pastEdge = RenderFixtures.polygon([[(170, -10), (190, -10), (190, 10), (170, 10), (170, -10)]])
        let pastWestEdge = RenderFixtures.polygon([[(-190, -10), (-170, -10), (-170, 10), (-190, 10), (-190, -10)]])
        for geoJSON in [pastEdge, pastWestEdge] {
            let features = try RenderFixtures.features(geoJSON)
            let image = try RenderFixtures.image(features, styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill),
                                                 center: Coordinate(latitude: 0, longitude: 180))
            // Centered on 180°: the polygon spans x 256 ± 20/360·1024/2 ≈ 256 ± 28.
            XCTAssertTrue(isBlack(image.pixel(x: 256, y: 256)))
            XCTAssertTrue(isBlack(image.pixel(x: 256 - 24, y: 256)))
            XCTAssertTrue(isBlack(image.pixel(x: 256 + 24, y: 256)))
            XCTAssertTrue(isWhite(image.pixel(x: 256 - 40, y: 256)), "nothing drawn across the world")
            XCTAssertTrue(isWhite(image.pixel(x: 256 + 40, y: 256)))
            // Fitting finds the 20° span, not the whole world.
            let camera = RenderOptions(width: 512, height: 512).resolveCamera(for: features)
            XCTAssertEqual(abs(camera.center.longitude), 180, accuracy: 1e-6)
            XCTAssertGreaterThan(camera.zoom, 4)
        }
    }

    /// The one antimeridian rule (issue 51 item 16): edges are straight in longitude and latitude
    /// (RFC 7946), so a ring from −170° to 170° written within ±180° spans the 340° between, its
    /// middle painted, as `info`, `tile` and `filter --bbox` read it; a crossing is written past
    /// ±180° or split there (the test above).
    func testA340DegreeRingWrittenWithinTheWorldRunsTheLongWay() throws {
        let wide = RenderFixtures.polygon([[(-170, -10), (170, -10), (170, 10), (-170, 10), (-170, -10)]])
        let features = try RenderFixtures.features(wide)
        let image = try RenderFixtures.image(features, styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill))
        XCTAssertTrue(isBlack(image.pixel(x: 256, y: 256)), "its middle, 0°, is painted")
        XCTAssertTrue(isBlack(image.pixel(x: 256 + 400, y: 256)), "140°")
        let camera = RenderOptions(width: 512, height: 512).resolveCamera(for: features)
        XCTAssertEqual(camera.center.longitude, 0, accuracy: 1e-6, "fitted around 0°, not 180°")
        XCTAssertLessThan(camera.zoom, 2)
        var summary = DatasetSummary()
        features.forEach { summary.add($0) }
        let box = try XCTUnwrap(summary.boundingBox)
        XCTAssertEqual([box.west, box.east], [-170, 170], "info reads it the same way")
        XCTAssertFalse(summary.crossesAntimeridian)
    }

    func testAntarcticaRingAlongTheSeamFillsTheBottom() throws {
        // Natural Earth's Antarctica: the coast from −180 to 180, then down the seam and back.
        var ring = stride(from: -180.0, through: 180, by: 10).map { ($0, -70.0) }
        ring += [(180, -90), (-180, -90), (-180, -70)]
        let features = try RenderFixtures.features(RenderFixtures.polygon([ring]))
        let image = try RenderFixtures.image(features, styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill),
                                             zoom: 1, size: 512)
        // Zoom 1: world 512 px; −80° latitude is below −70°, so filled at every longitude.
        let y = Int(MapProjection.y(latitude: -80) / MapProjection.worldSize * 512)
        for x in stride(from: 5, to: 512, by: 50) { XCTAssertTrue(isBlack(image.pixel(x: x, y: y)), "x \(x)") }
        XCTAssertTrue(isWhite(image.pixel(x: 256, y: Int(MapProjection.y(latitude: -60) / MapProjection.worldSize * 512))))
    }

    func testBearingTurnsTheMap() throws {
        // A box east of the center; with bearing 90 east points up.
        let east = RenderFixtures.polygon([[(20, -5), (40, -5), (40, 5), (20, 5), (20, -5)]])
        let image = try RenderFixtures.image(try RenderFixtures.features(east),
                                             styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill), bearing: 90)
        let offset = Int(30.0 / 360 * 1024)
        XCTAssertTrue(isBlack(image.pixel(x: 256, y: 256 - offset)))
        XCTAssertTrue(isWhite(image.pixel(x: 256 + offset, y: 256)))
    }

    func testDeepZoomInsideAPolygonFillsTheViewport() throws {
        // Zoom 22 inside a continent-sized box: device coordinates reach 10^9 px, beyond
        // cairo's fixed-point range unless clipped to the guard rect.
        let big = RenderFixtures.polygon([[(-50, -40), (50, -40), (50, 40), (-50, 40), (-50, -40)]])
        let image = try RenderFixtures.image(try RenderFixtures.features(big),
                                             styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill), zoom: 22,
                                             center: Coordinate(latitude: 10, longitude: 10))
        for (x, y) in [(0, 0), (511, 0), (256, 256), (0, 511), (511, 511)] { XCTAssertTrue(isBlack(image.pixel(x: x, y: y))) }
    }

    func testPixelDecimationKeepsAboutOneVertexPerPixel() throws {
        // A circle-like ring of 100,000 vertices drawn 100 px wide.
        var ring = [(Double, Double)]()
        for index in 0..<100_000 {
            let angle = Double(index) / 100_000 * 2 * Double.pi
            ring.append((10 * cos(angle), 10 * sin(angle)))
        }
        ring.append(ring[0])
        let features = try RenderFixtures.features(RenderFixtures.polygon([ring]))
        var builder = SnapshotBuilder(camera: RenderCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 2),
                                      options: RenderOptions(width: 512, height: 512))
        builder.add(features[0])
        let snapshot = builder.finish()
        guard case .path(let path, _, _, _)? = snapshot.scene.layers[0].drawings.first?.parts.first else {
            return XCTFail("no path drawn")
        }
        // Circumference ≈ 2π · 28.4 px ≈ 179 px: at most one vertex per pixel it crosses. The
        // render-zoom simplification (a quarter pixel) keeps chords within 0.25 px of the circle,
        // which needs at least π / acos(1 − 0.25 / 28.4) ≈ 24 vertices.
        XCTAssertLessThan(path.pointCount, 400)
        XCTAssertGreaterThanOrEqual(path.pointCount, 24)
    }

    func testWorldCopiesRepeatLongitude() throws {
        // At zoom 0 in 1024 px the world (256 px) repeats: a box at 0° shows four times.
        let box = RenderFixtures.polygon([[(-10, -10), (10, -10), (10, 10), (-10, 10), (-10, -10)]])
        let image = try RenderFixtures.image(try RenderFixtures.features(box),
                                             styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill), zoom: 0, size: 1024)
        for copy in [-1, 0, 1] { XCTAssertTrue(isBlack(image.pixel(x: 512 + copy * 256, y: 512)), "copy \(copy)") }
        XCTAssertTrue(isWhite(image.pixel(x: 512 + 128, y: 512)))
    }

    func testPinAndLabelAreDrawn() throws {
        let point = ##"{"type":"Feature","properties":{"name":"WWWWWWWW","marker-color":"#00ff00"},"geometry":{"type":"Point","coordinates":[0,0]}}"##
        let image = try RenderFixtures.image(try RenderFixtures.features(point))
        // The pin's head is 22 px above its tip at the center; the label starts 12 px right.
        XCTAssertEqual(image.pixel(x: 256 - 6, y: 256 - 22).green, 255)
        XCTAssertEqual(image.pixel(x: 256 - 6, y: 256 - 22).red, 0)
        let labelPixels = (268..<340).filter { x in (256 - 30..<256 - 14).contains { y in image.pixel(x: x, y: y).red < 100 } }
        XCTAssertGreaterThan(labelPixels.count, 30, "label text is drawn")
    }
}
