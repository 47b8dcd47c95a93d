import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// Solid tiles: below a tile that polygons cover with only their corner rings, every tile of a
/// zoom is the same, so the pyramid cuts one per zoom and hands it over for the whole block.
/// The blocks must give exactly the tiles that clipping every tile gives, and a world polygon
/// to z14 must finish.
final class SolidTileTests: XCTestCase {
    /// Every tile, by id, as MVT bytes; with `blocks`, solid blocks are expanded tile by tile.
    func tiles(_ source: TileSource, minZoom: Int = 0, blocks: Bool) throws -> ([TileID: [UInt8]], [TileZoomCounts], Int) {
        let lock = NSLock()
        nonisolated(unsafe) var bytes = [TileID: [UInt8]]()
        nonisolated(unsafe) var blockCount = 0
        let encoder = MVTEncoder(layerName: "solid")
        let emit: @Sendable (inout VectorTile) throws -> Int = { tile in
            let (data, _) = encoder.encode(tile)
            lock.lock()
            XCTAssertNil(bytes[tile.id], "\(tile.id) written twice")
            bytes[tile.id] = data
            lock.unlock()
            return data.count
        }
        let emitBlock: @Sendable (inout VectorTile, TileBlock) throws -> Int = { tile, block in
            let (data, _) = encoder.encode(tile)
            lock.lock()
            blockCount += 1
            block.forEachTile { id in
                XCTAssertNil(bytes[id], "\(id) written twice")
                bytes[id] = data
            }
            lock.unlock()
            return data.count
        }
        let counts = try TilePyramid.build(source, minZoom: minZoom, parallelism: 2, emit: emit, emitBlock: blocks ? emitBlock : nil)
        return (bytes, counts, blockCount)
    }

    func source(_ geojson: String, maxZoom: Int, buffer: Int = 64) throws -> TileSource {
        var options = TileOptions()
        options.maxZoom = maxZoom
        options.buffer = buffer
        return try TileSource(features: readGeoJSON(geojson).features, options: options)
    }

    func assertBlocksEqualClipping(_ source: TileSource, minZoom: Int = 0, expectBlocks: Bool = true,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let (clipped, clippedCounts, _) = try tiles(source, minZoom: minZoom, blocks: false)
        let (blocked, blockedCounts, blockCount) = try tiles(source, minZoom: minZoom, blocks: true)
        XCTAssertEqual(expectBlocks, blockCount > 0, "solid blocks found", file: file, line: line)
        XCTAssertEqual(Set(clipped.keys), Set(blocked.keys), file: file, line: line)
        let differing = clipped.filter { blocked[$0.key] != $0.value }.map(\.key)
        XCTAssertEqual(differing, [], "tiles whose bytes differ", file: file, line: line)
        XCTAssertEqual(clippedCounts, blockedCounts, file: file, line: line)
    }

    let world = #"{"type":"Feature","id":7,"properties":{"name":"world"},"geometry":{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}}"#

    func testAWorldPolygonsBlocksAreTheClippedTiles() throws {
        try assertBlocksEqualClipping(source(world, maxZoom: 6))
        try assertBlocksEqualClipping(source(world, maxZoom: 6), minZoom: 4)
    }

    func testOverlappingPolygonsWithHolesAndABigCircle() throws {
        // Two overlapping polygons (one with a hole), and a circle of 3,000 km: interiors are solid,
        // the hole's and the edges' tiles are cut as usual.
        let text = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"a":1},"geometry":{"type":"Polygon","coordinates":[[[-100,-60],[100,-60],[100,70],[-100,70],[-100,-60]],[[10,10],[20,10],[20,20],[10,20],[10,10]]]}},
        {"type":"Feature","properties":{"b":"x"},"geometry":{"type":"Polygon","coordinates":[[[-20,-20],[60,-20],[60,50],[-20,50],[-20,-20]]]}},
        {"type":"Feature","properties":{"radius":3000000},"geometry":{"type":"Point","coordinates":[-60,0]}}
        ]}
        """#
        try assertBlocksEqualClipping(source(text, maxZoom: 7))
    }

    func testCountriesGiveTheSameTiles() throws {
        let url = TestLocations.packageRoot.appendingPathComponent("Examples/countries.geojson")
        try assertBlocksEqualClipping(source(String(contentsOf: url, encoding: .utf8), maxZoom: 8))
    }

    func testNoBufferMeansNoBlocks() throws {
        // Without a buffer a child's square shares its parent's edges: the symmetry does not hold.
        try assertBlocksEqualClipping(source(world, maxZoom: 4, buffer: 0), expectBlocks: false)
    }

    /// (To z12 here, quick in a debug build; the slow target's SolidTileCommandTests and the
    /// benchmark in docs/tile.md go to z14.)
    func testAWorldPolygonToZoom12Finishes() throws {
        let source = try source(world, maxZoom: 12)
        nonisolated(unsafe) var blocks = 0
        let lock = NSLock()
        let counts = try TilePyramid.build(source, minZoom: 0, parallelism: 2, emit: { _ in 1 },
                                           emitBlock: { _, block in lock.lock(); blocks += 1; lock.unlock(); return 1 })
        XCTAssertGreaterThan(blocks, 0)
        // Every tile reaching between ±85° is written: all but 6 rows at the top and at the
        // bottom of z12 (85° to 85.0511°), exactly.
        let z12 = try XCTUnwrap(counts.last)
        XCTAssertEqual(z12.zoom, 12)
        XCTAssertEqual(z12.tiles, (1 << 12) * ((1 << 12) - 12))
    }
}
