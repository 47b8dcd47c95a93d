import Foundation
import OverlayModel
@testable import OverlayKit
import TestSupport
import OverlayKitTestFixtures
import XCTest

/// `TileOptions.clipBox` (`tile --bbox`): what lies outside the box is not tiled, what crosses
/// it is clipped to it, no tile outside it is written, the metadata's bounds lie within it, and
/// a GeoParquet input skips the row groups and pages outside it without changing a byte.
final class TileClipBoxTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-clip-box-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Shapes inside, across and outside the boxes below: a polygon with a hole across every
    /// edge, lines across, points in and out, a multipolygon half in, shapes wholly outside
    /// (named `outside …`), and a feature without geometry.
    private let input = """
        {"type":"Feature","properties":{"name":"holed"},"geometry":{"type":"Polygon","coordinates":[[[-20,-20],[25,-20],[25,25],[-20,25],[-20,-20]],[[-5,-5],[-5,5],[5,5],[5,-5],[-5,-5]]]}}
        {"type":"Feature","properties":{"name":"line across"},"geometry":{"type":"LineString","coordinates":[[-40,1],[0,3],[40,2],[100,4]]}}
        {"type":"Feature","properties":{"name":"point in"},"geometry":{"type":"Point","coordinates":[3,2]}}
        {"type":"Feature","properties":{"name":"outside point"},"geometry":{"type":"Point","coordinates":[-60,-40]}}
        {"type":"Feature","properties":{"name":"half in"},"geometry":{"type":"MultiPolygon","coordinates":[[[[8,6],[11,6],[11,8],[8,8],[8,6]]],[[[-70,-50],[-68,-50],[-68,-48],[-70,-48],[-70,-50]]]]}}
        {"type":"Feature","properties":{"name":"outside square"},"geometry":{"type":"Polygon","coordinates":[[[120,50],[121,50],[121,51],[120,51],[120,50]]]}}
        {"type":"Feature","properties":{"name":"outside line"},"geometry":{"type":"LineString","coordinates":[[-120,-50],[-100,-45]]}}
        {"type":"Feature","properties":{"name":"across the antimeridian"},"geometry":{"type":"LineString","coordinates":[[170,10],[190,12],[200,-5]]}}
        {"type":"Feature","properties":{"name":"no geometry"},"geometry":null}
        {"type":"Feature","properties":{"name":"many points"},"geometry":{"type":"MultiPoint","coordinates":[[1,1],[2,2],[50,50],[-9,-7]]}}
        """

    /// Boxes off the tile grid, on it (0°–90° are z2 tile edges, so the tiles beside them get
    /// the clipped shapes in their buffer alone), and across the antimeridian.
    private let boxes = ["-10,-8,12,9", "0,0,90,60", "170,-30,-170,30"]

    private func features() throws -> [Feature] {
        try FeatureIO.readAll(ByteInput(string: input), format: .geojsonseq).features
    }

    /// Tiles `features` into a directory to z5, within `box` when given; its files by path.
    private func tile(_ features: [Feature], box: GeographicBox?) throws -> (files: [String: Data], report: Tiler.Report) {
        let output = folder.appendingPathComponent(UUID().uuidString)
        var tiler = Tiler(output: output.path, layer: "shapes")
        tiler.archiveFormat = .directory
        tiler.options.maxZoom = 5
        tiler.threads = 2
        tiler.options.clipBox = box
        var reader = FeatureArrayReader(features: features)
        let report = try tiler.run(reading: &reader)
        return (try TileFixtures.files(output), report)
    }

    /// Whether tile `z/x/y`'s square overlaps the box with some area.
    private func overlaps(_ id: TileID, _ box: GeographicBox) -> Bool {
        let side = MapProjection.worldSize / Double(1 << id.z)
        let minX = Double(id.x) * side, minY = Double(id.y) * side
        return box.worldRects.contains { minX < $0.maxX && minX + side > $0.minX && minY < $0.maxY && minY + side > $0.minY }
    }

    private func tileID(_ path: String) -> TileID? {
        let parts = path.split(separator: "/")
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]),
              let y = Int(parts[2].split(separator: ".").first ?? "") else { return nil }
        return TileID(z: z, x: x, y: y)
    }

    /// The run with a box writes the tiles of a run on the features clipped first (`RectClip`,
    /// as `convert --clip` clips), byte for byte, less the tiles outside the box (which hold
    /// nothing but their buffer); its bounds are the box ∩ data.
    func testABoxTilesTheFeaturesClippedFirstLessTheTilesOutsideIt() throws {
        let all = try features()
        for text in boxes {
            let box = try GeographicBox(parsing: text)
            let clip = RectClip(rect: box.mapRect)
            let clipped = all.compactMap { feature -> Feature? in
                guard let shape = feature.shape, let inside = clip.clip(shape) else { return nil }
                var copy = feature
                copy.shape = FarLongitudes.placedAtMapPoints(inside)
                return copy
            }
            let boxed = try tile(all, box: box)
            let first = try tile(clipped, box: nil)
            var expected = first.files.filter { path, _ in tileID(path).map { overlaps($0, box) } ?? false }
            if text == "0,0,90,60" {
                XCTAssertLessThan(expected.count, first.files.count - 1, "\(text): the clipped shapes reach tiles outside the box")
            }
            expected["metadata.json"] = boxed.files["metadata.json"]
            XCTAssertEqual(boxed.files.keys.sorted(), expected.keys.sorted(), text)
            XCTAssertEqual(boxed.files, expected, text)
            XCTAssertEqual(boxed.report.input, first.report.input, text)
            let bounds = try XCTUnwrap(boxed.report.metadata.bounds)
            let data = try XCTUnwrap(first.report.metadata.bounds)
            if !box.crossesAntimeridian {
                XCTAssertGreaterThanOrEqual(bounds.west, box.west, text)
                XCTAssertLessThanOrEqual(bounds.east, box.east, text)
                XCTAssertGreaterThanOrEqual(bounds.south, box.south, text)
                XCTAssertLessThanOrEqual(bounds.north, box.north, text)
                for (got, want) in [(bounds.west, max(data.west, box.west)), (bounds.south, max(data.south, box.south)),
                                    (bounds.east, min(data.east, box.east)), (bounds.north, min(data.north, box.north))] {
                    XCTAssertEqual(got, want, accuracy: 1e-9, text)
                }
            }
        }
    }

    /// Decoded, every tile of a boxed run lies over the box, every vertex within the box (to a
    /// tile unit), shapes wholly outside are nowhere, and what lies inside is at the max zoom.
    func testEveryDecodedVertexLiesInTheBoxAndNothingOutsideIsTiled() throws {
        let all = try features()
        for text in boxes {
            let box = try GeographicBox(parsing: text)
            let boxed = try tile(all, box: box)
            var names = Set<String>()
            var tiles = 0
            for (path, bytes) in boxed.files {
                guard let id = tileID(path) else { continue }
                tiles += 1
                XCTAssertTrue(overlaps(id, box), "\(text): \(path) lies outside the box")
                let scale = Double(1 << id.z) / MapProjection.worldSize * 4096
                for layer in try MVTTileDecoder().decodeLayers([UInt8](bytes)) {
                    for feature in layer.features {
                        if case .string(let name)? = feature.properties?["name"] { names.insert(name) }
                        let xy = feature.xy
                        for index in stride(from: 0, to: xy.count, by: 2) {
                            let x = (Double(xy[index]) / scale) + Double(id.x) * 4096 / scale
                            let y = (Double(xy[index + 1]) / scale) + Double(id.y) * 4096 / scale
                            let slack = 1 / scale, world = MapProjection.worldSize
                            // A tile at the world's edge draws what lies across the antimeridian in its buffer, a world away.
                            XCTAssertTrue([x, x - world, x + world].contains { x in
                                box.worldRects.contains { rect in
                                    x >= rect.minX - slack && x <= rect.maxX + slack && y >= rect.minY - slack && y <= rect.maxY + slack
                                }
                            }, "\(text): \(path) has a vertex outside the box: \(x / world * 360 - 180), \(MapProjection.latitude(y: y)) of \(feature.properties?["name"] as Any)")
                        }
                    }
                }
            }
            XCTAssertGreaterThan(tiles, 5, text)
            XCTAssertTrue(names.allSatisfy { !$0.hasPrefix("outside") }, "\(text): \(names.sorted())")
            XCTAssertFalse(names.contains("no geometry"), text)
            if text == "-10,-8,12,9" {
                XCTAssertEqual(names, ["holed", "line across", "point in", "half in", "many points"], text)
            }
            if text == "170,-30,-170,30" { XCTAssertEqual(names, ["across the antimeridian"], text) }
        }
    }

    /// A box without area, or out of range (as a job file may hold one), is a setting problem.
    func testABoxWithoutAreaIsRefused() throws {
        var options = TileOptions.tileDefaults
        options.clipBox = try GeographicBox(parsing: "10,0,10,5")
        XCTAssertEqual(options.problems.map(\.setting), ["clipBox"])
        options.clipBox = try GeographicBox(parsing: "10,5,20,5")
        XCTAssertEqual(options.problems.map(\.setting), ["clipBox"])
        options.clipBox = GeographicBox(validWest: 10, south: 0, east: 200, north: 5)
        XCTAssertEqual(options.problems.map(\.setting), ["clipBox"])
        options.clipBox = try GeographicBox(parsing: "170,0,-170,5")
        XCTAssertEqual(options.problems, [])
    }

    /// GeoParquet: the box is pushed down (row groups and pages outside it skipped, counted by
    /// the reader), and the tiles are those of a read that skips nothing, and of the same
    /// features read as GeoJSONSeq, byte for byte.
    func testGeoParquetSkipsWhatLiesOutsideTheBoxAndTilesTheSameBytes() throws {
        let corpus = try GeoParquetScaleTests.corpus()
        let box = try GeographicBox(parsing: "-100,-70,-20,70")
        for (name, skippedGroups) in [("covering.parquet", 15), ("paged.parquet", 1)] {
            let path = corpus.appendingPathComponent(name).path
            func run(_ reader: inout some FeatureReader) throws -> Data {
                let output = folder.appendingPathComponent(UUID().uuidString + ".pmtiles")
                var tiler = Tiler(output: output.path, layer: "mixed")
                tiler.options.maxZoom = 6
                tiler.threads = 2
                tiler.options.clipBox = box
                _ = try tiler.run(reading: &reader)
                return try Data(contentsOf: output)
            }
            var hinted = Tiler(output: "", layer: "mixed")
            hinted.threads = 2
            hinted.options.clipBox = box
            XCTAssertEqual(hinted.readHints.extent, box)
            var pushed = try GeoParquetReader(path: path, hints: hinted.readHints)
            let pushedBytes = try run(&pushed)
            XCTAssertGreaterThanOrEqual(pushed.statistics.rowGroupsSkipped, skippedGroups, name)
            XCTAssertLessThan(pushed.statistics.rowGroupsRead, pushed.statistics.rowGroups, name)
            if name == "paged.parquet" { XCTAssertGreaterThan(pushed.statistics.pagesSkipped, 0, name) }
            var whole = try GeoParquetReader(path: path, hints: FeatureReadHints(threads: 2))
            XCTAssertEqual(try run(&whole), pushedBytes, "\(name): the skipped rows held nothing the box keeps")
            XCTAssertEqual(whole.statistics.rowGroupsSkipped, 0)
            let sequence = folder.appendingPathComponent(UUID().uuidString + ".geojsons")
            var all = try GeoParquetReader(path: path)
            try Data(try FeatureIO.encode(try all.readAll(), as: .geojsonseq, options: WriterOptions(precision: 17))).write(to: sequence)
            var text = try FeatureIO.reader(for: ByteInput(path: sequence.path))
            XCTAssertEqual(try run(&text), pushedBytes, "\(name): GeoJSONSeq of the same features, with the same box")
        }
    }
}
