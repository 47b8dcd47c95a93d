import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// `Tiler`: the whole tile run as one library call gives what its parts give, reports the
/// file's size, and leaves nothing behind when it fails.
final class TilerTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiler-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func countriesReader() throws -> any FeatureReader {
        try FeatureIO.reader(for: ByteInput(path: TestLocations.packageRoot.appendingPathComponent("Examples/countries.geojson").path))
    }

    func testOneCallWritesWhatThePartsWrite() throws {
        let path = folder.appendingPathComponent("countries.pmtiles").path
        var tiler = Tiler(output: path, layer: "countries")
        tiler.options.maxZoom = 3
        tiler.threads = 2
        var reader = try countriesReader()
        let report = try tiler.run(reading: &reader)

        // The same pipeline assembled by hand (countries' tiles are far below the budget).
        let options = tiler.options
        var again = try countriesReader()
        let source = try TileSource(features: again.readAll(), options: options)
        let expected = try TilePyramid.build(source, minZoom: 0, parallelism: 1) { _ in 0 }
        XCTAssertEqual(report.zooms.map(\.tiles), expected.map(\.tiles))
        XCTAssertEqual(report.zooms.map(\.statistics), expected.map(\.statistics))
        XCTAssertEqual(report.input, source.inputCounts)

        let archive = try TileArchive.open(path)
        XCTAssertEqual(try archive.tileIDs().count, report.tiles)
        XCTAssertEqual(archive.metadata.dropReport, report.metadata.dropReport)
        XCTAssertEqual(archive.metadata.vectorLayers.map(\.id), ["countries"])
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        XCTAssertEqual(report.fileBytes, size, "the file's size, not the tiles' uncompressed bytes")
        XCTAssertGreaterThan(report.encodedBytes, 0)
        XCTAssertTrue(report.diagnostics.contains { $0.code.rawValue == "tile.dropped" }, "countries has tiny rings at z0")
    }

    func testBadInputLeavesNoOutputAndNoTemporary() throws {
        let path = folder.appendingPathComponent("bad.pmtiles").path
        var reader: any FeatureReader = GeoJSONReader(input: ByteInput(bytes: Array(#"{"type":"Point","coordinates":[1,"#.utf8)))
        XCTAssertThrowsError(try Tiler(output: path, layer: "bad").run(reading: &reader))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testSettingsAreCheckedBeforeAnyWork() throws {
        let path = folder.appendingPathComponent("x.pmtiles").path
        var tiler = Tiler(output: path, layer: "x")
        tiler.encoding = .geojson
        var reader: any FeatureReader = GeoJSONReader(input: ByteInput(bytes: Array(#"{"type":"Point","coordinates":[1,2]}"#.utf8)))
        XCTAssertThrowsError(try tiler.run(reading: &reader)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "tile.bad-option")
        }
        tiler.encoding = .mvt
        tiler.options.minZoom = 20
        tiler.options.maxZoom = 10
        XCTAssertThrowsError(try tiler.validate())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        // Every setting out of range is named, the library's and the run's, each once.
        tiler.options.budget.maxBytes = 0
        tiler.threads = 0
        XCTAssertEqual(tiler.problems.map(\.description),
                       ["minZoom must be 0…maxZoom, not 20", "budget.maxBytes must be ≥ 1, not 0", "threads must be ≥ 1, not 0"])
        XCTAssertThrowsError(try tiler.validate()) { XCTAssertEqual(($0 as? Diagnostic)?.message, "minZoom must be 0…maxZoom, not 20") }
    }
}
