import Foundation
@testable import OverlayKit
import XCTest

/// What keeps `serve`'s memory bounded: gzip inflated a chunk at a time, a cache bounded by
/// bytes, and noncharacter glyph ranges answered empty.
final class ServedTileBoundsTests: XCTestCase {
    func testGzipChunksInflateAPieceAtATime() throws {
        var plain = [UInt8]()
        for index in 0..<(3 << 20) { plain.append(UInt8(truncatingIfNeeded: index &* 31 >> 7)) }
        let gzip = try Gzip.compress(plain)
        let chunks = try GzipChunks(gzip, limit: 64 << 20, source: "test")
        var joined = [UInt8](), largest = 0, count = 0
        while let chunk = try chunks.next() {
            largest = max(largest, chunk.count)
            joined += chunk
            count += 1
        }
        XCTAssertEqual(joined, plain)
        XCTAssertGreaterThan(count, 20, "3 MiB in chunks of about 64 KiB")
        XCTAssertLessThanOrEqual(largest, (64 << 10) + 64 * 1032 + 1)
        XCTAssertNil(try chunks.next(), "stays at the end")
        // Past the limit, and cut short: errors, not hangs.
        let limited = try GzipChunks(gzip, limit: 1 << 20, source: "test")
        XCTAssertThrowsError(try { while try limited.next() != nil {} }())
        let truncated = try GzipChunks(Array(gzip.prefix(gzip.count / 2)), limit: 64 << 20, source: "test")
        XCTAssertThrowsError(try { while try truncated.next() != nil {} }())
    }

    func testTheTileCacheIsBoundedByBytes() {
        let cache = StoredTileCache(byteLimit: 10_000)
        let tile = StoredTile(bytes: [UInt8](repeating: 1, count: 1000), compression: .none)
        for x in 0..<100 { cache.keep(tile, as: TileID(z: 7, x: x, y: 0)) }
        XCTAssertLessThanOrEqual(cache.bytesKept, 10_000)
        XCTAssertEqual(cache.count, 10_000 / (1000 + StoredTileCache.entryOverhead))
        XCTAssertTrue(cache.tile(TileID(z: 7, x: 99, y: 0)) != nil, "the newest is kept")
        XCTAssertTrue(cache.tile(TileID(z: 7, x: 0, y: 0)) == nil, "the oldest is forgotten")
        // A tile larger than the whole cache is not kept, and nothing else is lost for it.
        cache.keep(StoredTile(bytes: [UInt8](repeating: 2, count: 20_000), compression: .none), as: TileID(z: 0, x: 0, y: 0))
        XCTAssertTrue(cache.tile(TileID(z: 0, x: 0, y: 0)) == nil)
        XCTAssertTrue(cache.tile(TileID(z: 7, x: 99, y: 0)) != nil)
    }

    func testNoncharacterGlyphRangesAreEmpty() throws {
        let font = try SDFGlyphFont()
        for start in [64768, 65280, 131_072 - 256] {
            let range = try XCTUnwrap(GlyphRange(parsing: "\(start)-\(start + 255)"))
            XCTAssertNoThrow(try font.pbf(fontStack: "DejaVu Sans", range: range), "\(start)")
        }
        XCTAssertTrue(SDFGlyphFont.isNoncharacter(0xFDD0) && SDFGlyphFont.isNoncharacter(0xFFFE) && SDFGlyphFont.isNoncharacter(0x10FFFF))
        XCTAssertFalse(SDFGlyphFont.isNoncharacter(0xFDCF) || SDFGlyphFont.isNoncharacter(0xFFFD) || SDFGlyphFont.isNoncharacter(0x41))
    }
}
