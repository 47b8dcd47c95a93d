import Foundation
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// The plan (`tile --plan`) against the run it plans, on inputs of every kind: points in memory
/// and on disk, sampled squares into PMTiles and MBTiles, a world polygon, a long border, and a
/// large sequence whose records are sampled. Slow (30 s in CI): each case runs the plan and the
/// whole tile run it estimates.
final class TilePlanAccuracyTests: XCTestCase {
    /// Per zoom: tiles in `path` and the bytes it stores for them (each distinct tile once, at
    /// its first zoom), as an archive holds them.
    func storedZooms(_ path: String) throws -> [Int: (tiles: Int, stored: Int)] {
        let archive = try TileArchive.open(path)
        var zooms = [Int: (tiles: Int, stored: Int)]()
        var seen = Set<[UInt8]>()
        for id in try archive.tileIDs() {
            guard let stored = try archive.storedTile(id) else { continue }
            let first = seen.insert(stored.bytes).inserted
            zooms[id.z, default: (0, 0)].tiles += 1
            if first { zooms[id.z, default: (0, 0)].stored += stored.bytes.count }
        }
        return zooms
    }

    /// The plan against the run it plans: tiles per zoom within ±25% (exact when every tile is
    /// cut), stored (gzip, deduplicated) bytes per zoom within ±25% where the run stores 16 KiB
    /// or more, and the file's size within ±25%; a sampled plan cuts under half the tiles.
    func assertPlan(_ tiler: Tiler, input: String, onDisk: Bool, sampled: Bool, checksFile: Bool = true, label: String) throws {
        var reader = try FeatureIO.reader(for: ByteInput(path: input))
        let plan = try tiler.plan(reading: &reader)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tiler.output), "a plan writes nothing")
        XCTAssertEqual(plan.onDisk, onDisk, label)
        XCTAssertEqual(plan.exact, !sampled, label)
        var again = try FeatureIO.reader(for: ByteInput(path: input))
        let report = try tiler.run(reading: &again)
        let written = try storedZooms(tiler.output)
        XCTAssertEqual(plan.zooms.map(\.zoom), report.zooms.map(\.zoom), label)
        for (estimate, real) in zip(plan.zooms, report.zooms) {
            XCTAssertEqual(Double(estimate.tiles), Double(real.tiles), accuracy: max(1, Double(real.tiles) / 4),
                           "\(label) tiles z\(real.zoom)")
            let stored = written[real.zoom]?.stored ?? 0
            if stored >= 16 << 10 {
                XCTAssertEqual(Double(estimate.storedBytes), Double(stored), accuracy: Double(stored) / 4,
                               "\(label) stored bytes z\(real.zoom)")
            }
        }
        if checksFile {
            XCTAssertEqual(Double(plan.outputBytes), Double(report.fileBytes ?? 0), accuracy: Double(report.fileBytes ?? 0) / 4, label)
        }
        let cut = plan.zooms.reduce(0) { $0 + $1.tilesCut }
        if sampled {
            // A sample of the tiles, or of the records.
            if plan.recordStride == 1 { XCTAssertLessThan(cut, report.tiles / 2, "\(label): a sample is cut") }
        } else {
            XCTAssertEqual(plan.zooms.map(\.tiles), report.zooms.map(\.tiles), "\(label): every tile cut, the run's count")
        }
        try FileManager.default.removeItem(atPath: tiler.output)
    }

    func testPlanIsWithinAQuarterOfTheRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Points, fewer tiles a zoom than the sample: every tile cut, in memory and on disk.
        let input = folder.appendingPathComponent("points.geojsons")
        try (TileFixtures.clusteredPoints(5_000) + "\n").write(to: input, atomically: true, encoding: .utf8)
        var points = Tiler(output: folder.appendingPathComponent("p.pmtiles").path, layer: "points")
        points.options.maxZoom = 8
        try assertPlan(points, input: input.path, onDisk: false, sampled: false, label: "points")
        points.featureStore = .disk
        points.temporaryDirectory = folder.path
        try assertPlan(points, input: input.path, onDisk: true, sampled: false, label: "points on disk")

        // 3,000 squares of 0.4° over the world to z6, 150 tiles cut a zoom: sampled, into
        // PMTiles and MBTiles, in memory and on disk.
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
        let squares = (0..<3000).map { index -> String in
            let x = -180 + next() * 359.5, y = -60 + next() * 120
            let ring = [(x, y), (x + 0.4, y), (x + 0.4, y + 0.4), (x, y + 0.4), (x, y)].map { "[\($0.0),\($0.1)]" }
            return #"{"type":"Feature","properties":{"n":\#(index),"kind":"k\#(index % 7)"},"geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]}}"#
        }
        let squaresInput = folder.appendingPathComponent("squares.geojsons")
        try (squares.joined(separator: "\n") + "\n").write(to: squaresInput, atomically: true, encoding: .utf8)
        var polygons = Tiler(output: folder.appendingPathComponent("s.pmtiles").path, layer: "squares")
        polygons.options.maxZoom = 6
        polygons.planSampleTiles = 150
        try assertPlan(polygons, input: squaresInput.path, onDisk: false, sampled: true, label: "squares")
        polygons.output = folder.appendingPathComponent("s.mbtiles").path
        polygons.featureStore = .disk
        polygons.temporaryDirectory = folder.path
        try assertPlan(polygons, input: squaresInput.path, onDisk: true, sampled: true, label: "squares in MBTiles, on disk")

        // A world polygon to z10: solid below its top and bottom rows, cut along them only. Its
        // file is mostly directory: a row's tiles are alike and stored once, but every run of
        // them along the archive's curve is an entry, and so is every block inside.
        let world = folder.appendingPathComponent("world.geojson")
        try #"{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}"#
            .write(to: world, atomically: true, encoding: .utf8)
        var whole = Tiler(output: folder.appendingPathComponent("w.pmtiles").path, layer: "world")
        whole.options.maxZoom = 10
        try assertPlan(whole, input: world.path, onDisk: false, sampled: true, label: "world")

        // Two countries meeting along one long slanted border, to z12: past the data's detail
        // two vertices cross thousands of tiles, each written; a sample that weighed tiles by
        // their vertices would reach them too rarely.
        let border = folder.appendingPathComponent("border.geojsons")
        try ([#"{"type":"Feature","properties":{"name":"west","pop":1},"geometry":{"type":"Polygon","coordinates":[[[-20,-30],[10,30],[-20,30],[-20,-30]]]}}"#,
              #"{"type":"Feature","properties":{"name":"east","pop":2},"geometry":{"type":"Polygon","coordinates":[[[-20,-30],[20,-30],[20,30],[10,30],[-20,-30]]]}}"#]
            .joined(separator: "\n") + "\n").write(to: border, atomically: true, encoding: .utf8)
        var countries = Tiler(output: folder.appendingPathComponent("b.pmtiles").path, layer: "countries")
        countries.options.maxZoom = 12
        countries.planSampleTiles = 64
        try assertPlan(countries, input: border.path, onDisk: false, sampled: true, label: "border")
    }

    func testPlanOfALargeSequenceParsesASampleOfItsRecords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plan-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 40,000 clustered points with a unique name, a shared kind and a repeating number,
        // z0–9, about 4,000 records asked for: 1 in 2.5³ parsed (the thinning rate's power
        // nearest 10), thinned from z6 so z0–z6 hold what the run's do; the tiles and bytes of
        // every zoom within a quarter of the run's, as on the points of bench_tile_plan.py.
        let input = folder.appendingPathComponent("points.geojsons")
        let text = TileFixtures.clusteredPoints(40_000) { #"{"name":"place \#($0)","kind":"k\#($0 % 5)","height":\#(Double($0 % 300) / 10)}"# }
        try (text + "\n").write(to: input, atomically: true, encoding: .utf8)
        var points = Tiler(output: folder.appendingPathComponent("p.pmtiles").path, layer: "points")
        points.options.maxZoom = 9
        points.planSampleRecords = 4_000
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        let plan = try points.plan(reading: &reader)
        XCTAssertEqual(plan.recordStride, 16)
        XCTAssertEqual(Double(plan.features), 40_000, accuracy: 4_000)
        try assertPlan(points, input: input.path, onDisk: false, sampled: true, label: "sampled points")
        // Every record parsed when asked: exact again.
        points.planSampleRecords = 0
        try assertPlan(points, input: input.path, onDisk: false, sampled: false, label: "every record")
        // The same points as one FeatureCollection: its features are sampled as well.
        let collection = folder.appendingPathComponent("points.geojson")
        let features = text.split(separator: "\n").joined(separator: ",\n")
        try #"{"type":"FeatureCollection","name":"points [1]","features":[\#(features)]}"#.write(to: collection, atomically: true, encoding: .utf8)
        points.planSampleRecords = 4_000
        var collectionReader = try FeatureIO.reader(for: ByteInput(path: collection.path))
        XCTAssertEqual(try points.plan(reading: &collectionReader).recordStride, 16)
        try assertPlan(points, input: collection.path, onDisk: false, sampled: true, label: "sampled FeatureCollection")
    }
}
