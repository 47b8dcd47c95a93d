import Foundation
import OverlayModel
import XCTest
@testable import OverlayKit

/// Shared borders stay shared (`TileOptions.sharedBorders`): on coverages written here — a
/// Voronoi partition of a rectangle, a grid with enclaves, both across tile edges and the
/// antimeridian — every tile of every zoom has, exactly in integer tile units, no overlap
/// (Σ area = area of the union) and no gap (the union is the rectangle within the tile), on
/// the memory and the disk feature store; without shared borders the same tiles have both.
final class SharedBorderTests: XCTestCase {
    typealias Rectangle = (west: Double, south: Double, east: Double, north: Double)

    private final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var tiles = [VectorTile]()
        func add(_ tile: VectorTile) {
            lock.lock()
            tiles.append(tile)
            lock.unlock()
        }
    }

    private func options(maxZoom: Int, shared: Bool = true) -> TileOptions {
        var options = TileOptions()
        options.maxZoom = maxZoom
        options.sharedBorders = shared
        options.accumulatesTinyShapes = true
        return options
    }

    /// Every non-empty tile of `source`, z0 to its max zoom.
    private func tiles(_ source: TileSource) throws -> [VectorTile] {
        let collected = Collected()
        _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2, emit: { tile in
            collected.add(tile)
            return 0
        })
        return collected.tiles.sorted { ($0.id.z, $0.id.x, $0.id.y) < ($1.id.z, $1.id.x, $1.id.y) }
    }

    /// The rectangle (and its copy one world east or west when it crosses the antimeridian) in
    /// `tile`'s integer units, clipped to the buffered tile, as the tiles round its corners.
    private func region(_ rectangle: Rectangle, tile: TileID, options: TileOptions) -> [(Int64, Int64, Int64, Int64)] {
        let units = TileUnits(tile: tile, extent: options.extent)
        let world = MapProjection.worldSize
        let west = FeatureProjector.x(longitude: rectangle.west), east = FeatureProjector.x(longitude: rectangle.east)
        let top = MapPoint(Coordinate(latitude: rectangle.north, longitude: 0)).y
        let bottom = MapPoint(Coordinate(latitude: rectangle.south, longitude: 0)).y
        let low = Int64(-options.buffer), high = Int64(options.extent + options.buffer)
        var result = [(Int64, Int64, Int64, Int64)]()
        for shift in [-world, 0, world] {
            let x0 = max(Int64(TileUnits.round(units.x(west + shift))), low), x1 = min(Int64(TileUnits.round(units.x(east + shift))), high)
            let y0 = max(Int64(TileUnits.round(units.y(top))), low), y1 = min(Int64(TileUnits.round(units.y(bottom))), high)
            if x0 < x1 && y0 < y1 { result.append((x0, y0, x1, y1)) }
        }
        return result
    }

    /// Checks every tile: no crossing, no overlap, and (with `rectangle`) no gap and nothing outside it.
    private func assertCoverageKept(_ tiles: [VectorTile], rectangle: Rectangle?, options: TileOptions,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(tiles.isEmpty, file: file, line: line)
        var failures = 0
        for tile in tiles {
            let regions = rectangle.map { region($0, tile: tile.id, options: options) }
            let check = TileCoverageCheck(tile.features, regions: regions)
            let ok = check.crossings == 0 && check.overlapIsZero && (rectangle == nil || (check.gapIsZero && check.excessIsZero))
            if !ok {
                failures += 1
                if failures <= 5 { XCTFail("tile \(tile.id.z)/\(tile.id.x)/\(tile.id.y): \(check)", file: file, line: line) }
            }
        }
        XCTAssertEqual(failures, 0, "tiles with a gap or an overlap", file: file, line: line)
    }

    private let voronoiRectangle: Rectangle = (-31.3, -12.7, -8.1, 9.9)

    func testVoronoiPartitionKeepsNoGapAndNoOverlapInEveryTile() throws {
        let cells = CoverageFixtures.voronoi(west: voronoiRectangle.west, south: voronoiRectangle.south,
                                             east: voronoiRectangle.east, north: voronoiRectangle.north,
                                             columns: 7, rows: 6, seed: 11)
        let options = options(maxZoom: 7)
        let source = try TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options)
        let tiles = try tiles(source)
        XCTAssertEqual(Set(tiles.map(\.id.z)), Set(0...7))
        assertCoverageKept(tiles, rectangle: voronoiRectangle, options: options)
    }

    func testWithoutSharedBordersTheSameTilesHaveGapsAndOverlaps() throws {
        let cells = CoverageFixtures.voronoi(west: voronoiRectangle.west, south: voronoiRectangle.south,
                                             east: voronoiRectangle.east, north: voronoiRectangle.north,
                                             columns: 7, rows: 6, seed: 11)
        let options = options(maxZoom: 7, shared: false)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options))
        var overlapping = 0, gapped = 0
        for tile in tiles {
            let check = TileCoverageCheck(tile.features, regions: region(voronoiRectangle, tile: tile.id, options: options))
            if !check.overlapIsZero || check.crossings > 0 { overlapping += 1 }
            if !check.gapIsZero { gapped += 1 }
        }
        // The check sees what per-ring simplification does to shared borders.
        XCTAssertGreaterThan(overlapping, 0)
        XCTAssertGreaterThan(gapped, 0)
    }

    private let gridRectangle: Rectangle = (2.2, 40.1, 14.9, 49.3)

    func testGridWithEnclavesKeepsEnclavesFilled() throws {
        let polygons = CoverageFixtures.gridWithEnclaves(west: gridRectangle.west, south: gridRectangle.south,
                                                         east: gridRectangle.east, north: gridRectangle.north,
                                                         columns: 5, rows: 4, seed: 5)
        let options = options(maxZoom: 8)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(polygons), options: options))
        assertCoverageKept(tiles, rectangle: gridRectangle, options: options)
        // Low zooms draw every enclave (none is dropped as tiny or left as a hole).
        let z2 = tiles.filter { $0.id.z == 2 }
        let drawn = Set(z2.flatMap { $0.features.compactMap { $0.id } })
        XCTAssertEqual(drawn.count, polygons.count)
    }

    private let antimeridianRectangle: Rectangle = (166.6, -21.4, 193.7, -3.2)

    func testBordersAcrossTheAntimeridianStayShared() throws {
        let cells = CoverageFixtures.voronoi(west: antimeridianRectangle.west, south: antimeridianRectangle.south,
                                             east: antimeridianRectangle.east, north: antimeridianRectangle.north,
                                             columns: 6, rows: 5, seed: 3)
        let options = options(maxZoom: 7)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options))
        XCTAssertTrue(tiles.contains { $0.id.z == 7 && $0.id.x == 0 } && tiles.contains { $0.id.z == 7 && $0.id.x == 127 })
        assertCoverageKept(tiles, rectangle: antimeridianRectangle, options: options)
    }

    func testDiskStoreKeepsBordersSharedAndCutsTheSameTiles() throws {
        let polygons = CoverageFixtures.voronoi(west: antimeridianRectangle.west, south: antimeridianRectangle.south,
                                                east: antimeridianRectangle.east, north: antimeridianRectangle.north,
                                                columns: 5, rows: 4, seed: 8).map { [$0] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-borders-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cells.geojsons")
        try Data(CoverageFixtures.geoJSONSequence(polygons).utf8).write(to: input)
        let options = options(maxZoom: 6)
        var results = [[VectorTile]]()
        for spill in [nil, folder.path] {
            var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
            let source = try TileSource(reading: &reader, options: options, readThreads: 1, minimumPartBytes: 1,
                                        spillFolder: spill, onWarning: { _ in })
            XCTAssertEqual(source.spilled != nil, spill != nil)
            results.append(try tiles(source))
        }
        XCTAssertEqual(results[0].map(\.id), results[1].map(\.id))
        XCTAssertEqual(results[0].map(\.features), results[1].map(\.features))
        assertCoverageKept(results[1], rectangle: antimeridianRectangle, options: options)
    }
}

extension SharedBorderTests {
    /// Natural Earth's admin-1 states and provinces (the corpus copy: 100 polygons, 33k vertices,
    /// a valid coverage with islands, enclaves and lakes): no overlap, exactly, in any tile of z0–z6.
    func testAdminOneStatesHaveNoOverlapInAnyTile() throws {
        let url = try TestPaths.corpusFolder("real/ne_50m_admin_1_states_provinces.geojson")
        var reader = try FeatureIO.reader(for: ByteInput(path: url.path))
        let options = options(maxZoom: 6)
        let source = try TileSource(reading: &reader, options: options)
        let tiles = try tiles(source)
        XCTAssertEqual(Set(tiles.map(\.id.z)), Set(0...6))
        assertCoverageKept(tiles, rectangle: nil, options: options)
    }
}
