import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// `TileOptions.featureFilter` (`tile --where`): features are chosen once as they are projected,
/// with `$type` and `$id`, the same on one and two read threads, and counted when left out.
final class TileFeatureFilterTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-filter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// 40 features, one per line: points, lines and polygons in turn, `rank` 0…39, ids 100…139.
    private func writeSequence() throws -> String {
        let lines = (0..<40).map { index -> String in
            let geometry: String
            switch index % 3 {
            case 0: geometry = #"{"type":"Point","coordinates":[\#(index),1]}"#
            case 1: geometry = #"{"type":"LineString","coordinates":[[\#(index),1],[\#(index),2]]}"#
            default: geometry = #"{"type":"Polygon","coordinates":[[[\#(index),1],[\#(index + 1),1],[\#(index),2],[\#(index),1]]]}"#
            }
            return #"{"type":"Feature","id":\#(100 + index),"properties":{"rank":\#(index)},"geometry":\#(geometry)}"#
        }
        let url = folder.appendingPathComponent("features-\(UUID().uuidString).geojsonseq")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// The ranks kept and the count left out, checked equal on one and two read threads.
    private func read(_ expression: String, generateID: Bool = false,
                      file: StaticString = #filePath, line: UInt = #line) throws -> (ranks: [Int64], ids: [JSONValue?], filteredOut: Int) {
        var options = TileOptions()
        options.featureFilter = try TileFeatureFilter(parsing: expression)
        options.generateID = generateID
        let path = try writeSequence()
        var results = [([TileAttributes], [ProjectedFeature], TileInputCounts, Int)]()
        for threads in [1, 2] {
            var reader = try FeatureIO.reader(for: ByteInput(path: path))
            let source = try TileSource(reading: &reader, options: options, readThreads: threads, minimumPartBytes: 1,
                                        onWarning: { _ in })
            results.append((source.attributes, source.features, source.inputCounts, source.featuresFilteredOut))
        }
        XCTAssertEqual(results[1].0, results[0].0, "attributes", file: file, line: line)
        XCTAssertEqual(results[1].1, results[0].1, "features", file: file, line: line)
        XCTAssertEqual(results[1].2, results[0].2, "counts", file: file, line: line)
        XCTAssertEqual(results[1].3, results[0].3, "filtered out", file: file, line: line)
        let ranks = results[0].0.compactMap { attribute -> Int64? in
            if case .integer(let rank)? = attribute.properties?["rank"] { return rank }
            return nil
        }
        return (ranks, results[0].0.map(\.id), results[0].3)
    }

    func testPropertiesChooseFeaturesOnOneAndTwoThreads() throws {
        let kept = try read("rank < 5 or rank == 39")
        XCTAssertEqual(kept.ranks, [0, 1, 2, 3, 4, 39])
        XCTAssertEqual(kept.filteredOut, 34)
    }

    func testAWholeFirstPartLeftOutIsStillCounted() throws {
        let kept = try read("rank >= 30", generateID: true)
        XCTAssertEqual(kept.ranks, Array(30...39))
        XCTAssertEqual(kept.filteredOut, 30)
        XCTAssertEqual(kept.ids, (0..<10).map { .integer(Int64($0)) }, "generated ids number the tiled features")
    }

    func testTypeAndIdKeys() throws {
        XCTAssertEqual(try read("$type == 'Point'").ranks, Array(stride(from: 0, to: 40, by: 3)))
        XCTAssertEqual(try read("$type == 'Polygon' and rank < 9").ranks, [2, 5, 8])
        XCTAssertEqual(try read("$id in [100, 139]").ranks, [0, 39])
        let circle = Feature(properties: nil, shape: .circle(Circle(center: Coordinate(latitude: 1, longitude: 2), radius: 10)))
        XCTAssertTrue(try TileFeatureFilter(parsing: "$type == 'Polygon'").matches(circle, id: nil))
        XCTAssertTrue(try TileFeatureFilter(parsing: "$id == null").matches(circle, id: nil))
        let mixed = Shape.collection(ShapeCollection(members: [
            .annotation(PointAnnotation(coordinate: Coordinate(latitude: 0, longitude: 0))),
            .collection(ShapeCollection(members: [.circle(Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1))],
                                        origin: .geometryCollection)),
        ], origin: .geometryCollection))
        XCTAssertEqual(TileFeatureFilter.geometryType(mixed), "GeometryCollection")
    }

    func testZoomKeepsEachFeatureAtTheZoomsItHoldsAt() throws {
        let filter = try TileFeatureFilter(parsing: "rank > 1 and not ($zoom >= 3)")
        XCTAssertTrue(filter.usesZoom)
        let feature = Feature(properties: ["rank": .integer(5)],
                              shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))))
        XCTAssertEqual(try filter.zooms(feature, id: nil, maxZoom: 10), 0b111)
        XCTAssertEqual(try TileFeatureFilter(parsing: "$zoom == 4 or $zoom == 31").zooms(feature, id: nil, maxZoom: 40),
                       1 << 4 | 1 << 31)
        XCTAssertEqual(try TileFeatureFilter(parsing: "rank > 6").zooms(feature, id: nil, maxZoom: 2), 0)
        XCTAssertEqual(try TileFeatureFilter(parsing: "rank > 1").zooms(feature, id: nil, maxZoom: 2), 0b111)
        XCTAssertThrowsError(try TileFeatureFilter(parsing: "rank >")) { error in
            XCTAssertTrue(error is WhereSyntaxError)
        }
    }

    /// Ranks 0…39: rank < 10 at every zoom, the others only from z2; the counts per zoom say so,
    /// the same on one and two read threads, and `--explain` names the reason.
    func testZoomFilterIsEvaluatedPerZoomInTheTiles() throws {
        let path = try writeSequence()
        var written = [[Int]]()
        for threads in [1, 2] {
            var tiler = Tiler(output: folder.appendingPathComponent("zoom-\(threads)").path, layer: "features")
            tiler.options.maxZoom = 3
            tiler.options.pointDropRate = 1
            tiler.threads = threads
            tiler.options.featureFilter = try TileFeatureFilter(parsing: "rank < 10 or $zoom >= 2")
            var reader = try FeatureIO.reader(for: ByteInput(path: path))
            let report = try tiler.run(reading: &reader)
            XCTAssertEqual(report.input.features, 40)
            let hidden = report.zooms.map(\.statistics.filteredAtZoom)
            XCTAssertGreaterThan(hidden[0], 0)
            XCTAssertEqual(hidden[2], 0)
            XCTAssertEqual(hidden[3], 0)
            // Every feature of rank ≥ 10 reaches z0's one tile and is left out there.
            XCTAssertEqual(hidden[0], 30)
            written.append(report.zooms.map(\.statistics.features))
        }
        XCTAssertEqual(written[0], written[1])
        var tiler = Tiler(output: "", layer: "features")
        tiler.options.maxZoom = 3
        tiler.options.featureFilter = try TileFeatureFilter(parsing: "rank < 10 or $zoom >= 2")
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        let explanation = try tiler.explain(TileID(z: 1, x: 1, y: 0), reading: &reader)
        XCTAssertEqual(explanation.counts[.filteredAtZoom], 30)
        XCTAssertNil(explanation.entries.first { $0.outcome == .filteredAtZoom && $0.inputIndex < 10 })
    }

    func testTilerNotesTheCount() throws {
        var tiler = Tiler(output: folder.appendingPathComponent("tiles").path, layer: "features")
        tiler.options.maxZoom = 0
        tiler.options.featureFilter = try TileFeatureFilter(parsing: "rank < 4")
        var notes = [Diagnostic]()
        var reader = try FeatureIO.reader(for: ByteInput(path: try writeSequence()))
        let report = try tiler.run(reading: &reader, onWarning: { notes.append($0) })
        XCTAssertEqual(report.input.features, 4)
        XCTAssertEqual(notes.filter { $0.code == .tileFiltered }.map(\.message),
                       ["36 features did not match --where and were not tiled"])
    }
}
