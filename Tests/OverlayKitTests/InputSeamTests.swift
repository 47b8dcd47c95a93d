import Foundation
import OverlayKit
import OverlayModel
import XCTest

/// Every reader answers the same interface (records in parts, slices, shapes only), so a
/// command never asks which format it reads; and one test tells a tile set from features.
final class InputSeamTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-seam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// 2,500 points with a property each (more than two default parts of 1,024), one beyond
    /// the pole (a warning), as a GeoJSON text sequence.
    private func sequenceText() -> String {
        (0..<2_500).map { index in
            let latitude = index == 1_700 ? 95.0 : Double(index % 170) - 85
            return #"{"type":"Feature","properties":{"n":\#(index),"k":"v\#(index % 7)"},"geometry":{"type":"Point","coordinates":[\#(Double(index % 360) - 180),\#(latitude)]}}"#
        }.joined(separator: "\n") + "\n"
    }

    private func write(_ text: String, as name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// `features` written as GeoParquet with row groups of `rows`.
    private func writeParquet(_ features: [Feature], rows: Int, to path: String) throws {
        let output = try ByteOutput(path: path)
        var options = WriterOptions()
        options.geoParquet.rowGroupRows = rows
        var writer = try FeatureIO.writer(for: .geoparquet, output: output, options: options)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        try output.commit()
    }

    private func reader(_ path: String, threads: Int = 1) throws -> any FeatureReader {
        var hints = FeatureReadHints()
        hints.threads = threads
        return try FeatureIO.reader(atPath: path, geometryColumn: nil, hints: hints).1
    }

    private func readAll(_ path: String) throws -> [Feature] {
        var opened = try reader(path)
        return try opened.readAll()
    }

    func testPartsHoldTheFeaturesNextReturnsInOrderForEveryReader() throws {
        let sequence = try write(sequenceText(), as: "points.geojsons")
        var all = try readAll(sequence)
        let parquet = folder.appendingPathComponent("points.parquet").path
        try writeParquet(all, rows: 600, to: parquet)
        XCTAssertEqual(all.count, 2_500)
        for (path, threads) in [(sequence, 1), (parquet, 1), (parquet, 2)] {
            var partSizes = [Int]()
            var parted = [Feature]()
            var opened = try reader(path, threads: threads)
            try opened.forEachPart({ $0 }, consume: { part in
                partSizes.append(part.count)
                parted += part
            })
            let expected = path == parquet ? try readAll(parquet) : all
            XCTAssertEqual(parted, expected, "\(path), \(threads) threads")
            XCTAssertEqual(partSizes, path == parquet ? [600, 600, 600, 600, 100] : [1_024, 1_024, 452], path)
            XCTAssertEqual(opened.decodesPartsInParallel, path == parquet, path)
        }
        all.removeAll()
    }

    /// A part closes at 65,536 vertices as well as at 1,024 features: a file of a few huge
    /// features is summarized while its later features are read, and the parts still sum to
    /// the serial pass.
    func testPartsOfFewHugeFeaturesCloseAtTheirVertexCount() throws {
        func line(_ count: Int, from longitude: Int) -> String {
            let positions = (0..<count).map { "[\(Double(longitude) + Double($0) * 1e-4),\(Double($0 % 1000) * 0.01)]" }
            return #"{"type":"Feature","properties":{"n":\#(count)},"geometry":{"type":"LineString","coordinates":["# + positions.joined(separator: ",") + "]}}"
        }
        let point = #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[179.5,-10]}}"#
        let text = [line(40_000, from: -170), line(40_000, from: 10), point, line(70_000, from: 100), point].joined(separator: "\n") + "\n"
        let path = try write(text, as: "huge.geojsons")
        for threads in [1, 2] {
            if threads == 1 {
                var partSizes = [Int]()
                var opened = try reader(path, threads: threads)
                try opened.forEachPart({ $0.count }, consume: { partSizes.append($0) })
                XCTAssertEqual(partSizes, [2, 2, 1])
            }
            var serial = DatasetSummary()
            try readAll(path).forEach { serial.add($0) }
            let summary = try DatasetSummary.summarizing(try reader(path, threads: threads)) { _ in }
            XCTAssertEqual(InfoReport.json(summary, source: "x"), InfoReport.json(serial, source: "x"), "\(threads) threads")
        }
    }

    func testInfoIsOneCallThatEqualsOneSerialPass() throws {
        let sequence = try write(sequenceText(), as: "points.geojsons")
        let features = try readAll(sequence)
        let parquet = folder.appendingPathComponent("points.parquet").path
        try writeParquet(features, rows: 333, to: parquet)
        for (path, threads) in [(sequence, 1), (sequence, 2), (parquet, 1), (parquet, 2)] {
            var serial = DatasetSummary()
            try readAll(path).forEach { serial.add($0) }
            var warnings = [String]()
            let summary = try DatasetSummary.summarizing(try reader(path, threads: threads)) { warnings.append($0.code.rawValue) }
            XCTAssertEqual(InfoReport.json(summary, source: "x"), InfoReport.json(serial, source: "x"), "\(path), \(threads) threads")
            XCTAssertEqual(summary.featureCount, 2_500)
            XCTAssertEqual(warnings.count, 1, "the one point beyond the pole: \(warnings)")
        }
    }

    func testOnlyAGeoJSONFileNotYetReadIsReadInSlices() throws {
        let sequence = try write(sequenceText(), as: "points.geojsons")
        var geojson = try reader(sequence)
        XCTAssertEqual(geojson.sliceableFile?.name, sequence)
        _ = try geojson.next()
        XCTAssertNil(geojson.sliceableFile, "part read")
        let kml = try write("""
            <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></kml>
            """, as: "one.kml")
        XCTAssertNil(try reader(kml).sliceableFile)
        let parquet = folder.appendingPathComponent("points.parquet").path
        try writeParquet(try readAll(sequence), rows: 1_000, to: parquet)
        XCTAssertNil(try reader(parquet).sliceableFile)
        let piped = try FeatureIO.reader(for: ByteInput(bytes: Array(sequenceText().utf8), name: nil))
        XCTAssertNil(piped.sliceableFile, "bytes in memory, no file")
    }

    func testShapesOnlySkipsPropertiesButARadius() throws {
        let path = try write("""
            {"type":"Feature","id":7,"properties":{"radius":100,"name":"a"},"geometry":{"type":"Point","coordinates":[1,2]}}
            """, as: "circle.geojsons")
        var measuring = try reader(path)
        measuring.readShapesOnly()
        let shapeOnly = try XCTUnwrap(try measuring.next())
        XCTAssertFalse(shapeOnly.properties?.members.contains { $0.key == "name" } ?? false)
        XCTAssertNil(shapeOnly.id)
        var wholeReader = try reader(path)
        let whole = try XCTUnwrap(try wholeReader.next())
        XCTAssertTrue(whole.properties?.members.contains { $0.key == "name" } ?? false)
        XCTAssertEqual(shapeOnly.shape, whole.shape, "the same circle")
        guard case .circle? = whole.shape else { return XCTFail("a point with a radius is a circle: \(String(describing: whole.shape))") }
    }

    func testAFolderOfGeoParquetIsFeaturesAndATileFolderATileSet() throws {
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let sequence = try write(sequenceText(), as: "points.geojsons")
        try writeParquet(try readAll(sequence), rows: 1_000, to: data.appendingPathComponent("part-0.parquet").path)
        XCTAssertFalse(TileSet.isTileSet(data.path), "a data set of features")
        XCTAssertNil(TileSet.recognizedFormat(data.path))
        let tiles = folder.appendingPathComponent("tiles/0/0")
        try FileManager.default.createDirectory(at: tiles, withIntermediateDirectories: true)
        try Data([0x1A, 0x00]).write(to: tiles.appendingPathComponent("0.mvt"))
        XCTAssertTrue(TileSet.isTileSet(folder.appendingPathComponent("tiles").path))
        XCTAssertFalse(TileSet.isTileSet(sequence))
        XCTAssertFalse(TileSet.isTileSet("-"))
        XCTAssertFalse(TileSet.isTileSet(nil))
    }
}
