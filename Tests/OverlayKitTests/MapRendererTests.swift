import XCTest
@testable import OverlayKit
import OverlayModel

/// `MapRenderer`, the whole render as one call: options checked first, impossible views
/// refused, sources read twice to fit, reports that account for every feature.
final class MapRendererTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("MapRendererTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func code(of body: () throws -> Void) -> Diagnostic.Code? {
        do {
            try body()
            return nil
        } catch let diagnostic as Diagnostic {
            return diagnostic.code
        } catch {
            return nil
        }
    }

    func testOptionsOutsideTheirRangesAreRefusedBeforeReading() {
        let center = Coordinate(latitude: 0, longitude: 0)
        let refused: [RenderOptions] = [
            RenderOptions(camera: .centered(center, zoom: -0.5)),
            RenderOptions(camera: .centered(center, zoom: .nan)),
            RenderOptions(camera: .centered(Coordinate(latitude: 91, longitude: 0), zoom: 3)),
            RenderOptions(camera: .lookingAt(center, centerCoordinateDistance: 1)),
            RenderOptions(width: 0),
            RenderOptions(width: 20_000),
            RenderOptions(scale: 9),
            RenderOptions(pitch: 86),
            RenderOptions(bearing: .infinity),
            RenderOptions(labelPriority: ""),
            RenderOptions(clusterDistance: 300),
            RenderOptions(camera: .fit(padding: -1)),
        ]
        for options in refused {
            XCTAssertEqual(code { try options.validate() }, .renderBadOption, "\(options)")
        }
        XCTAssertEqual(code { try RenderOptions(width: 100, height: 1).validate() }, .renderViewTooSmall)
        XCTAssertNil(code { try RenderOptions(width: 100, height: 1, camera: .fit(padding: 0)).validate() })
        XCTAssertNil(code { try RenderOptions().validate() })
    }

    func testAFitThatNeedsAZoomBelowMinusOneIsRefused() throws {
        let world = try RenderFixtures.features(RenderFixtures.polygon([[(-170, -70), (170, -70), (170, 70), (-170, 70), (-170, -70)]]))
        var source = FeatureArraySource(world)
        let renderer = MapRenderer(options: RenderOptions(width: 200, height: 1, camera: .fit(padding: 0)))
        XCTAssertEqual(code { _ = try renderer.render(&source, to: ByteOutput()) }, .renderViewTooSmall)
        // A 150-point view shows its 340° at zoom −0.7 (a fit may go down to −1).
        let small = MapRenderer(options: RenderOptions(width: 150, height: 150, camera: .fit(padding: 0)))
        let report = try small.render(&source, to: ByteOutput())
        XCTAssertGreaterThanOrEqual(report.camera.zoom, RenderOptions.minimumFitZoom)
        XCTAssertLessThan(report.camera.zoom, 0)
        XCTAssertEqual(report.features.drawn, 1)
    }

    func testTheReportAccountsForEveryFeature() throws {
        let features = try RenderFixtures.features(RenderFixtures.collection([
            RenderFixtures.polygon([[(0, 0), (2, 0), (2, 2), (0, 0)]]),
            RenderFixtures.polygon([[(120, 0), (122, 0), (122, 2), (120, 0)]]),
            RenderFixtures.polygon([[(1, 1), (1.0000001, 1), (1.0000001, 1.0000001), (1, 1)]]),
            RenderFixtures.polygon([[(1, 1), (1.5, 1), (1.5, 1.5), (1, 1)]], properties: #"{"fill-opacity":0,"stroke-width":0}"#),
            #"{"type":"Feature","properties":{"name":"here"},"geometry":{"type":"Point","coordinates":[1,1]}}"#,
        ]))
        var source = FeatureArraySource(features)
        let output = ByteOutput()
        let options = RenderOptions(width: 400, height: 300, camera: .centered(Coordinate(latitude: 1, longitude: 1), zoom: 5))
        let report = try MapRenderer(options: options, format: .svg).render(&source, to: output)
        XCTAssertEqual(report.features.read, 5)
        XCTAssertEqual(report.features.drawn, 2)
        XCTAssertEqual(report.features.outsideView, 1)
        XCTAssertEqual(report.features.tooSmall, 1)
        XCTAssertEqual(report.features.unpainted, 1)
        XCTAssertEqual(report.annotations.points, 1)
        XCTAssertEqual(report.annotations.labelsPlaced, 1)
        XCTAssertTrue(report.diagnostics.isEmpty)
        XCTAssertTrue(String(decoding: output.bytes, as: UTF8.self).hasSuffix("</svg>\n"))
        var empty = FeatureArraySource([])
        let blank = try MapRenderer(options: options).render(&empty, to: ByteOutput())
        XCTAssertEqual(blank.diagnostics.map(\.code), [.renderEmpty])
    }

    func testAFileIsReadTwiceAndDrawsWhatTheFeaturesInMemoryDraw() throws {
        let path = RenderFixtures.packageRoot.appendingPathComponent("Examples/places.kml").path
        var file = FileRenderSource(path: path)
        let fromFile = ByteOutput()
        let renderer = MapRenderer(options: RenderOptions(width: 500, height: 400), format: .svg)
        var warnings = [Diagnostic]()
        let report = try renderer.render(&file, to: fromFile) { warnings.append($0) }
        var memory = FeatureArraySource(try FeatureIO.readAll(path: path).features)
        let fromMemory = ByteOutput()
        _ = try renderer.render(&memory, to: fromMemory)
        XCTAssertEqual(fromFile.bytes, fromMemory.bytes)
        XCTAssertEqual(report.features.read, memory.features.count)
        // Each warning once, though the file was read twice.
        XCTAssertEqual(Set(warnings.map(\.description)).count, warnings.count)
    }

    func testASequenceMeasuredInPartsHasTheExtentOneReaderFinds() throws {
        // Points around the antimeridian and a line far from them, one record a line.
        var lines = [String]()
        for index in 0..<3000 {
            let longitude = index % 3 == 0 ? 170 + Double(index % 97) / 10 : -175 + Double(index % 89) / 20
            lines.append("{\"type\":\"Feature\",\"properties\":{\"n\":\(index)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(longitude > 180 ? longitude - 360 : longitude),\(Double(index % 50) - 25)]}}")
        }
        lines.append(#"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[-160,10],[-150,40]]}}"#)
        let url = directory.appendingPathComponent("points.geojsonseq")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        let file = try ByteInput(path: url.path)
        let size = try XCTUnwrap(file.expectedSize)
        let parts = try SequenceRecordBoundaries.ranges(of: file, size: size, parts: 4, minimumBytes: 1024)
        XCTAssertEqual(parts.count, 4)
        let parallel = try XCTUnwrap(try ParallelExtent.measure(file, parts: parts))
        var one = GeoJSONReader(input: try ByteInput(path: url.path))
        let sequential = try FitExtent.measuring(&one).mapRect
        XCTAssertEqual(parallel, sequential)
        XCTAssertGreaterThan(parallel.maxX, MapProjection.worldSize, "fitted across the antimeridian")

        // A bad record: the parts give up, and one reader reports the error where it is.
        lines[2500] = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1]}}"#
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        let bad = try ByteInput(path: url.path)
        let badParts = try SequenceRecordBoundaries.ranges(of: bad, size: try XCTUnwrap(bad.expectedSize), parts: 4, minimumBytes: 1024)
        XCTAssertNil(try ParallelExtent.measure(bad, parts: badParts))
        var source = FileRenderSource(path: url.path)
        XCTAssertThrowsError(try source.extent()) { error in
            XCTAssertTrue(String(describing: error).contains("points.geojsonseq:2501:"), "\(error)")
        }
    }

    /// A sequence of named and unnamed points (some sharing pixels across the parts), squares
    /// on both levels, lines, and records that warn, one a line.
    private func mixedSequence(records: Int) -> [String] {
        (0..<records).map { index in
            let lon = Double(index % 37) * 0.7 - 12, lat = Double(index % 23) * 0.6 - 6
            switch index % 9 {
            case 0:
                return #"{"type":"Feature","properties":{"top":\#(index % 2 == 0)},"geometry":{"type":"Polygon","coordinates":[[[\#(lon),\#(lat)],[\#(lon + 0.4),\#(lat)],[\#(lon + 0.4),\#(lat + 0.4)],[\#(lon),\#(lat)]]]}}"#
            case 1:
                return #"{"type":"Feature","properties":{"name":"line \#(index)"},"geometry":{"type":"LineString","coordinates":[[\#(lon),\#(lat)],[\#(lon + 1),\#(lat + 0.5)]]}}"#
            case 2:
                return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#  // warns: no properties
            case 3:
                return #"{"type":"Feature","properties":{"rank":\#(index % 5)},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
            default:
                return #"{"type":"Feature","properties":{"name":"P\#(index % 41)","rank":\#(index % 7)},"geometry":{"type":"Point","coordinates":[\#(Double(index % 11) * 1.1 - 6),\#(Double(index % 13) * 0.9 - 5)]}}"#
            }
        }
    }

    private func render(_ path: String, parts: Int, format: SnapshotStream.Format, options: RenderOptions)
        throws -> (bytes: [UInt8], report: RenderReport, warnings: [String]) {
        var source = FileRenderSource(path: path)
        source.minimumPartBytes = 1024
        source.partCount = parts
        let output = ByteOutput()
        var warnings = [String]()
        let report = try MapRenderer(options: options, format: format).render(&source, to: output) { warnings.append($0.description) }
        return (output.bytes, report, warnings)
    }

    func testASequenceDrawnInPartsIsTheOneReadersPicture() throws {
        let url = directory.appendingPathComponent("mixed.geojsonseq")
        try (mixedSequence(records: 1200).joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        let sheet = try RenderFixtures.sheet(##"{"rules":[{"where":{"top":true},"style":{"level":"aboveLabels","fill":"#cc3300"}}]}"##)
        for options in [RenderOptions(width: 500, height: 400, styleSheet: sheet),
                        RenderOptions(width: 500, height: 400, labelPriority: "rank"),
                        RenderOptions(width: 300, height: 200, camera: .centered(Coordinate(latitude: 0, longitude: -3), zoom: 6))] {
            for format in [SnapshotStream.Format.svg, .png] {
                let one = try render(url.path, parts: 1, format: format, options: options)
                let four = try render(url.path, parts: 4, format: format, options: options)
                XCTAssertEqual(four.bytes, one.bytes, "\(format)")
                XCTAssertEqual(four.report.features, one.report.features)
                XCTAssertEqual(four.report.annotations, one.report.annotations)
                XCTAssertEqual(four.warnings, one.warnings)
                XCTAssertEqual(one.warnings.count, 1200 / 9 + 1, "one warning per record without properties")
            }
        }
        // The titles of unnamed features count from the file's start, not the part's.
        let svg = String(decoding: try render(url.path, parts: 4, format: .svg, options: RenderOptions(width: 500, height: 400)).bytes,
                         as: UTF8.self)
        XCTAssertTrue(svg.contains("<title>feature 1200</title>"), "the last unnamed point keeps its number")
    }

    func testASequenceDrawnInPartsStopsAtTheFirstErrorWhereOneReaderDoes() throws {
        var lines = mixedSequence(records: 1200)
        lines[1000] = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1]}}"#
        let url = directory.appendingPathComponent("bad.geojsonseq")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        for parts in [1, 2, 4] {
            var warnings = [String]()
            XCTAssertThrowsError(try {
                var source = FileRenderSource(path: url.path)
                source.minimumPartBytes = 1024
                source.partCount = parts
                _ = try MapRenderer(options: RenderOptions(camera: .centered(Coordinate(latitude: 0, longitude: 0), zoom: 3)),
                                    format: .svg).render(&source, to: ByteOutput()) { warnings.append($0.description) }
            }()) { error in
                XCTAssertTrue(String(describing: error).contains("bad.geojsonseq:1001:"), "\(parts) parts: \(error)")
                XCTAssertTrue(String(describing: error).contains("/1000/"), "\(parts) parts: \(error)")
            }
            XCTAssertEqual(warnings.count, 111, "\(parts) parts: the warnings before the error, once each")
        }
    }

    func testTheExtentPassReadsShapesOnly() throws {
        let text = """
        {"type":"FeatureCollection","name":"x","features":[
        {"type":"Feature","id":{"odd":true},"properties":{"name":"c","radius":250000,"big":[1,2,{"a":"b"}]},"geometry":{"type":"Point","coordinates":[170,10]}},
        {"type":"Feature","extra":[1,2],"properties":null,"geometry":{"type":"Polygon","coordinates":[[[-175,0],[-170,0],[-170,5],[-175,0]]]}},
        {"type":"Feature","properties":{"name":"p"},"geometry":{"type":"MultiPoint","coordinates":[[0,60],[1,61]]},"bbox":[0,60,1,61]}
        ]}
        """
        var full = GeoJSONReader(input: ByteInput(string: text, name: "x.geojson"))
        var shapesOnly = GeoJSONReader(input: ByteInput(string: text, name: "x.geojson"))
        shapesOnly.readsShapesOnly = true
        var fullFeatures = [Feature](), shapeFeatures = [Feature]()
        while let feature = try full.next() { fullFeatures.append(feature) }
        while let feature = try shapesOnly.next() { shapeFeatures.append(feature) }
        XCTAssertEqual(shapeFeatures.count, 3)
        XCTAssertFalse(full.takeWarnings().isEmpty, "the full read warns about the id")
        XCTAssertTrue(shapesOnly.takeWarnings().isEmpty, "the id is skipped")
        var fullExtent = FitExtent(), shapesExtent = FitExtent()
        for feature in fullFeatures { if let shape = feature.shape { fullExtent.add(shape) } }
        for feature in shapeFeatures { if let shape = feature.shape { shapesExtent.add(shape) } }
        XCTAssertEqual(shapesExtent.mapRect, fullExtent.mapRect)
        guard case .circle = shapeFeatures[0].shape else { return XCTFail("a Point with a radius is a circle") }
        XCTAssertNil(shapeFeatures[0].id)
        XCTAssertNil(shapeFeatures[0].location)
        XCTAssertTrue(shapeFeatures[1].foreignMembers.members.isEmpty)

        // JSON syntax in a skipped value is still checked.
        var broken = GeoJSONReader(input: ByteInput(string: #"{"type":"Feature","properties":{"a":[1,}],"geometry":null}"#, name: "b.geojson"))
        broken.readsShapesOnly = true
        XCTAssertThrowsError(try broken.next())
    }
}
