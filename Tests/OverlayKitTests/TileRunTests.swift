import Foundation
import OverlayModel
import TestSupport
import XCTest
@testable import OverlayKit

/// Runs of tiles (`TileRun`): counted per zoom by arithmetic, cut into square blocks, swept
/// together, and joined, compared and inspected without being expanded — the world to z14 (358
/// million tiles in a run) as fast as one tile, and a join of runs equal to the join of the same
/// tiles one by one.
final class TileRunTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Every tile id of a range, one by one (small ranges only).
    private func tiles(_ first: UInt64, _ count: UInt64) -> Set<TileID> {
        Set((first..<(first + count)).compactMap { PMTiles.tile($0) })
    }

    func testZoomSpansSplitARangeWhereEachZoomsIDsEnd() {
        let world = TileRun.zoomSpans(from: 0, to: PMTiles.firstID(ofZoom: 15))
        XCTAssertEqual(world.map(\.zoom), Array(0...14))
        XCTAssertEqual(world.map(\.count), (0...14).map { UInt64(1) << (2 * UInt64($0)) }, "4^z tiles at zoom z")
        // From the middle of z2 into z4: the rest of z2, all of z3, the start of z4.
        let middle = TileRun.zoomSpans(from: PMTiles.firstID(ofZoom: 2) + 5, to: PMTiles.firstID(ofZoom: 4) + 7)
        XCTAssertEqual(middle.map(\.zoom), [2, 3, 4])
        XCTAssertEqual(middle.map(\.count), [11, 64, 7])
        XCTAssertEqual(TileRun(firstID: 0, count: 1 << 28, content: .init(offset: 0, length: 0)).zoomSpans.reduce(0) { $0 + $1.count }, 1 << 28)
        XCTAssertEqual(TileRun.zoomSpans(from: TileRun.endOfIDs, to: TileRun.endOfIDs + 5), [], "beyond zoom 26")
        for id: UInt64 in [0, 1, 4, 5, 20, 21, 84, 85] {
            XCTAssertEqual(TileRun.zoom(ofID: id), PMTiles.tile(id)?.z, "\(id)")
        }
    }

    func testBlocksCoverASpanExactlyWithFewSquares() {
        var generator = SystemRandomNumberGenerator()
        for zoom in 0...6 {
            let start = PMTiles.firstID(ofZoom: zoom), size = UInt64(1) << (2 * UInt64(zoom))
            for _ in 0..<40 {
                let a = UInt64.random(in: 0..<size, using: &generator), b = UInt64.random(in: a..<size, using: &generator) + 1
                let span = TileRun.ZoomSpan(zoom: zoom, firstID: start + a, count: b - a)
                let blocks = span.blocks
                var covered = [TileID]()
                for block in blocks { block.forEachTile { covered.append($0) } }
                XCTAssertEqual(covered.count, Int(b - a), "no tile twice")
                XCTAssertEqual(Set(covered), tiles(start + a, b - a), "zoom \(zoom) \(a)..<\(b)")
                XCTAssertLessThanOrEqual(blocks.count, 6 * max(1, zoom), "zoom \(zoom) \(a)..<\(b)")
            }
        }
        let world = TileRun.ZoomSpan(zoom: 14, firstID: PMTiles.firstID(ofZoom: 14), count: 1 << 28)
        XCTAssertEqual(world.blocks, [TileBlock(root: TileID(z: 0, x: 0, y: 0), zoom: 14)], "a whole zoom is one block")
    }

    func testNormalizedRunsAreOrderedAndCutWhereALaterOneStarts() {
        func run(_ first: UInt64, _ count: UInt64, _ offset: UInt64) -> TileRun {
            TileRun(firstID: first, count: count, content: .init(offset: offset, length: 1))
        }
        XCTAssertEqual(TileRun.normalized([run(5, 2, 1), run(0, 10, 0), run(20, 1, 2)]), [run(0, 5, 0), run(5, 2, 1), run(20, 1, 2)])
        XCTAssertEqual(TileRun.normalized([run(3, 4, 0), run(3, 1, 1)]), [run(3, 1, 1)], "the later of two at one id stands")
        XCTAssertEqual(TileRun.normalized([run(0, 1, 0), run(1, 1, 0)]), [run(0, 1, 0), run(1, 1, 0)])
    }

    func testTheSweepCutsAtRunEndsAndZoomEnds() {
        let content = TileRun.Content(offset: 0, length: 1)
        // Set A: all of z0–z2 in one run; set B: ids 3..<8 in one run.
        let a = [TileRun(firstID: 0, count: 21, content: content)], b = [TileRun(firstID: 3, count: 5, content: content)]
        var segments = [(Int, UInt64, UInt64, [Int?])]()
        TileRunSweep(sets: [a, b]).forEachSegment { segments.append(($0.span.zoom, $0.span.firstID, $0.span.count, $0.runs)) }
        XCTAssertEqual(segments.map(\.0), [0, 1, 1, 2, 2])
        XCTAssertEqual(segments.map(\.1), [0, 1, 3, 5, 8])
        XCTAssertEqual(segments.map(\.2), [1, 2, 2, 3, 13])
        XCTAssertEqual(segments.map(\.3), [[0, nil], [0, nil], [0, 0], [0, 0], [0, nil]])
        var none = 0
        TileRunSweep(sets: [[], []]).forEachSegment { _ in none += 1 }
        XCTAssertEqual(none, 0)
    }

    func testTheSmallestTilesOfBlocksAreKeptInTileOrder() {
        var all = [TileID]()
        var smallest = SmallestTiles(limit: 10)
        let blocks = [TileBlock(root: TileID(z: 1, x: 1, y: 1), zoom: 3), TileBlock(root: TileID(z: 2, x: 0, y: 3), zoom: 3),
                      TileBlock(root: TileID(z: 3, x: 0, y: 0), zoom: 3), TileBlock(root: TileID(z: 1, x: 0, y: 0), zoom: 4)]
        for block in blocks {
            block.forEachTile { all.append($0) }
            smallest.offer(block)
        }
        XCTAssertEqual(smallest.tiles, Array(all.sorted().prefix(10)))
        var world = SmallestTiles(limit: 3)
        world.offer(TileBlock(root: TileID(z: 0, x: 0, y: 0), zoom: 14))
        XCTAssertEqual(world.tiles, [TileID(z: 14, x: 0, y: 0), TileID(z: 14, x: 0, y: 1), TileID(z: 14, x: 0, y: 2)])
    }

    // MARK: Archives read by their runs

    /// An MVT tile of one layer `name` with one point feature `id`.
    private func tile(_ name: String, id: UInt64) -> [UInt8] {
        VectorTileMerger.encode([MVTLayer(name: name, version: 2, extent: 4096,
                                          features: [MVTFeature(id: id, type: 1, tags: [], geometryBytes: [9, 50, 34])])])
    }

    private func metadata(_ layer: String, maxZoom: Int) -> TileSetMetadata {
        TileSetMetadata(name: layer, bounds: .init(west: -180, south: -85, east: 180, north: 85), center: nil, minZoom: 0,
                        maxZoom: maxZoom, vectorLayers: [.init(id: layer, fields: [], minZoom: 0, maxZoom: maxZoom)])
    }

    /// An ocean to `maxZoom` (one tile everywhere) but a land tile under 1/1/0 from z1 on,
    /// written as blocks: a few runs in PMTiles, every tile apart in a folder.
    private func writeOcean(_ output: String, maxZoom: Int) throws {
        let writer = try TileArchive.create(output)
        let ocean = tile("water", id: 1), land = tile("water", id: 2)
        try writer.write(TileID(z: 0, x: 0, y: 0), ocean)
        for zoom in 1...maxZoom {
            for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                try writer.writeBlock(TileBlock(root: TileID(z: 1, x: x, y: y), zoom: zoom), (x, y) == (1, 0) ? land : ocean)
            }
        }
        try writer.finish(metadata: metadata("water", maxZoom: maxZoom))
    }

    private func writePlaces(_ output: String) throws {
        let writer = try TileArchive.create(output)
        for id in [TileID(z: 0, x: 0, y: 0), TileID(z: 2, x: 3, y: 1), TileID(z: 4, x: 9, y: 4), TileID(z: 5, x: 2, y: 30)] {
            try writer.write(id, tile("places", id: UInt64(id.z + 10)))
        }
        try writer.finish(metadata: metadata("places", maxZoom: 5))
    }

    func testAJoinOfRunsEqualsTheJoinOfTheSameTilesOneByOne() throws {
        try writeOcean(path("ocean.pmtiles"), maxZoom: 4)
        try writeOcean(path("ocean-tiles"), maxZoom: 4)           // the same tiles, one file each
        try writePlaces(path("places.pmtiles"))
        XCTAssertLessThan(try TileArchive.open(path("ocean.pmtiles")).tileRuns().count, 40, "runs, not 341 tiles")
        XCTAssertEqual(try TileArchive.open(path("ocean-tiles")).tileRuns().count, 341)
        for output in ["by-runs.pmtiles", "one-by-one.pmtiles", "by-runs-folder", "by-runs.mbtiles"] {
            let ocean = output == "one-by-one.pmtiles" ? path("ocean-tiles") : path("ocean.pmtiles")
            let report = try TileJoin.join(TileJoin.Options(inputs: [ocean, path("places.pmtiles")], output: path(output)))
            XCTAssertEqual(report.tiles, 342, output)
            XCTAssertEqual(report.counts.mergedTiles, 3, output)
            XCTAssertEqual(report.counts.copiedTiles, 339, output)
            XCTAssertEqual(report.counts.written.zooms.prefix(6).map(\.tiles), [1, 4, 16, 64, 256, 1], output)
            XCTAssertEqual(report.counts.written.zooms.prefix(6).map(\.statistics.features), [2, 4, 17, 64, 257, 1], output)
        }
        let byRuns = try TileArchive.open(path("by-runs.pmtiles")), oneByOne = try TileArchive.open(path("one-by-one.pmtiles"))
        let folder = try TileArchive.open(path("by-runs-folder")), rows = try TileArchive.open(path("by-runs.mbtiles"))
        XCTAssertEqual(try byRuns.tileRuns(), try oneByOne.tileRuns(), "the same directory entries")
        XCTAssertEqual(try byRuns.tileIDs(), try folder.tileIDs())
        XCTAssertEqual(try byRuns.tileIDs(), try rows.tileIDs())
        for id in try folder.tileIDs() {
            XCTAssertEqual(try byRuns.tile(id), try folder.tile(id), "\(id)")
            XCTAssertEqual(try byRuns.tile(id), try oneByOne.tile(id), "\(id)")
            XCTAssertEqual(try byRuns.tile(id), try rows.tile(id), "\(id)")
        }
        let merged = try MVTDecoder().decode(try XCTUnwrap(try byRuns.tile(TileID(z: 4, x: 9, y: 4))))
        XCTAssertEqual(merged.map(\.name), ["water", "places"])
        XCTAssertEqual(merged[0].features.map(\.id), [2], "the land tile under 1/1/0")

        // Zooms left out are counted from the runs, not read.
        var options = TileJoin.Options(inputs: [path("ocean.pmtiles"), path("places.pmtiles")], output: path("low.pmtiles"))
        options.maxZoom = 2
        let low = try TileJoin.join(options)
        XCTAssertEqual(low.tiles, 21)
        XCTAssertEqual(low.dropped.tilesOutsideZooms, 321)
    }

    /// Every tile of z0–z14 in one run and a small set beside it: `info`, `tile-join` and `diff`
    /// read them by their runs, in well under a second.
    func testTheWorldToZ14InOneRunIsInspectedJoinedAndComparedByItsRuns() throws {
        let ocean = tile("water", id: 1)
        var header = PMTiles.Header()
        let world = PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: UInt32(ocean.count),
                                                           runLength: UInt32(PMTiles.firstID(ofZoom: 15)))])
        let root = try Gzip.compress(world), json = try Gzip.compress(Array(#"{"vector_layers":[{"id":"water","fields":{}}]}"#.utf8))
        header.tileCompression = PMTiles.compressionNone
        header.rootOffset = UInt64(PMTiles.headerLength)
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(json.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.dataOffset = header.leafOffset
        header.dataLength = UInt64(ocean.count)
        header.maxZoom = 14
        try Data(header.encode() + root + json + ocean).write(to: URL(fileURLWithPath: path("world.pmtiles")))
        try writePlaces(path("places.pmtiles"))

        let start = Date()
        let report = try TileSet(path: path("world.pmtiles")).inspect()
        XCTAssertEqual(report.zooms.map(\.tiles), (0...14).map { 1 << (2 * $0) })
        XCTAssertEqual(report.tileCount, 357_913_941)
        XCTAssertEqual(report.zooms.last?.featuresByLayer, [TileSetReport.LayerCount(layer: "water", features: 1 << 28)])

        let joined = try TileJoin.join(TileJoin.Options(inputs: [path("world.pmtiles"), path("places.pmtiles")], output: path("joined.pmtiles")))
        XCTAssertEqual(joined.tiles, 357_913_941)
        XCTAssertEqual(joined.counts.mergedTiles, 4)
        let output = try TileArchive.open(path("joined.pmtiles"))
        let runs = try output.tileRuns()
        XCTAssertLessThan(runs.count, 20, "the ocean stays a few runs around the 4 merged tiles")
        XCTAssertEqual(runs.reduce(0) { $0 + $1.count }, 357_913_941)
        XCTAssertEqual(Set(runs.map(\.content)).count, 5, "the ocean stored once, and the 4 merged tiles")
        XCTAssertEqual(try output.tile(TileID(z: 14, x: 16383, y: 16383)), ocean)
        XCTAssertEqual(try MVTDecoder().decode(try XCTUnwrap(try output.tile(TileID(z: 5, x: 2, y: 30)))).map(\.name), ["water", "places"])
        let big = try TileSet(path: path("joined.pmtiles")).inspect()
        XCTAssertEqual(big.tileCount, 357_913_941)

        // Into a folder, one file a tile: refused before the first is written.
        XCTAssertThrowsError(try TileJoin.join(TileJoin.Options(inputs: [path("world.pmtiles")], output: path("folder")))) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .tileTooManyTiles, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("folder")))

        let diff = try TileSetDiff.compare(oldPath: path("world.pmtiles"), newPath: path("joined.pmtiles"), maximumListedTiles: 2)
        XCTAssertEqual(diff.zooms.map(\.changed), [1, 0, 1, 0, 1, 1] + Array(repeating: 0, count: 9))
        XCTAssertEqual(diff.zooms.last?.unchanged, 1 << 28)
        XCTAssertEqual(diff.changedTiles.map(\.id), [TileID(z: 0, x: 0, y: 0), TileID(z: 2, x: 3, y: 1)])
        XCTAssertEqual(diff.unlistedChangedTiles, 2)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "runs, never tiles")
    }
}
