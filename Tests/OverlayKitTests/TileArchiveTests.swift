import Foundation
import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// PMTiles encoding (header, Hilbert ids, directories, leaves, run lengths), MBTiles and
/// directory round trips, metadata in every layout, and the atomic-output rules.
final class TileArchiveTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func sampleMetadata() -> TileSetMetadata {
        var zoom = TileZoomCounts(zoom: 3)
        zoom.tiles = 7
        zoom.statistics.droppedTinyRings = 2
        var input = TileInputCounts()
        input.features = 9
        let report = TileDropReport(extent: 4096, buffer: 64, tolerance: 3, input: input, notWritten: TileEncodingLosses(), zooms: [zoom])
        return TileSetMetadata(name: "parks", description: "test", format: "pbf",
                               bounds: .init(west: -10.5, south: 20.25, east: 30, north: 40.125),
                               center: .init(longitude: 9.75, latitude: 30.1875, zoom: 2), minZoom: 1, maxZoom: 5,
                               vectorLayers: [.init(id: "parks", fields: [.init(name: "name", type: "String"), .init(name: "area", type: "Number")],
                                                    minZoom: 1, maxZoom: 5)],
                               tileStats: .object(["layerCount": .integer(1)]), dropReport: report)
    }

    /// Distinct fake tiles (the archive does not parse them).
    func tileBytes(_ id: TileID) -> [UInt8] { Array("tile \(id) ".utf8) + [UInt8](repeating: UInt8(id.x & 0xff), count: 40) }

    // MARK: PMTiles parts

    /// Values the spec's reference implementations give (PyPI pmtiles `zxy_to_tileid`).
    func testHilbertTileIDsMatchTheSpec() {
        let known: [(TileID, UInt64)] = [(TileID(z: 0, x: 0, y: 0), 0), (TileID(z: 1, x: 0, y: 0), 1), (TileID(z: 1, x: 0, y: 1), 2),
                                         (TileID(z: 1, x: 1, y: 1), 3), (TileID(z: 1, x: 1, y: 0), 4), (TileID(z: 3, x: 3, y: 5), 49),
                                         (TileID(z: 12, x: 3423, y: 1763), 19_078_479)]
        for (tile, id) in known {
            XCTAssertEqual(PMTiles.tileID(tile), id, "\(tile)")
            XCTAssertEqual(PMTiles.tile(id), tile)
        }
        var seen = Set<UInt64>()
        for z in 0...5 { for x in 0..<(1 << z) { for y in 0..<(1 << z) {
            let id = PMTiles.tileID(TileID(z: z, x: x, y: y))
            XCTAssertEqual(PMTiles.tile(id), TileID(z: z, x: x, y: y))
            seen.insert(id)
        } } }
        let total: UInt64 = 1365
        XCTAssertEqual(seen, Set(0..<total), "ids are dense per zoom")
    }

    func testDirectoryEncodingIsTheSpecsVarintLayoutAndRoundTrips() throws {
        let entries = [PMTiles.Entry(tileID: 0, offset: 0, length: 10, runLength: 1),
                       PMTiles.Entry(tileID: 1, offset: 10, length: 5, runLength: 2),
                       PMTiles.Entry(tileID: 300, offset: 0, length: 10, runLength: 1)]
        let bytes = PMTiles.encodeDirectory(entries)
        // count; id deltas 0, 1, 299 (varint 0xAB 0x02); runs; lengths; offsets 0+1, contiguous 0, back-reference 0+1.
        XCTAssertEqual(bytes, [3, 0, 1, 0xAB, 0x02, 1, 2, 1, 10, 5, 10, 1, 0, 1])
        XCTAssertEqual(try PMTiles.decodeDirectory(bytes, source: "t"), entries)
        XCTAssertThrowsError(try PMTiles.decodeDirectory(Array(bytes.dropLast()), source: "t"))
        XCTAssertThrowsError(try PMTiles.decodeDirectory([200, 1], source: "t"), "a count larger than the bytes is refused")
    }

    func testPMTilesHeaderRunLengthsAndDeduplication() throws {
        let path = folder.appendingPathComponent("a.pmtiles").path
        let writer = try TileArchive.create(path)
        let ocean = Array("the same ocean tile".utf8)
        // The four z1 tiles are Hilbert ids 1…4: one run of 4 identical tiles; 0/0/0 differs.
        for x in 0...1 { for y in 0...1 { try writer.write(TileID(z: 1, x: x, y: y), ocean) } }
        try writer.write(TileID(z: 0, x: 0, y: 0), Array("root".utf8))
        try writer.write(TileID(z: 2, x: 3, y: 3), ocean)
        try writer.finish(metadata: sampleMetadata())

        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let header = try PMTiles.Header(Array(file.prefix(127)), source: path)
        XCTAssertEqual(Array(file.prefix(8)), Array("PMTiles".utf8) + [3])
        XCTAssertEqual(header.rootOffset, 127)
        XCTAssertEqual(header.metadataOffset, 127 + header.rootLength)
        XCTAssertEqual(header.leafLength, 0)
        XCTAssertEqual(header.dataOffset + header.dataLength, UInt64(file.count))
        XCTAssertEqual(header.addressedTiles, 6)
        XCTAssertEqual(header.tileEntries, 3, "0/0/0, one run of the four z1 tiles, and 2/3/3")
        XCTAssertEqual(header.tileContents, 2, "the ocean tile is stored once")
        XCTAssertTrue(header.clustered)
        XCTAssertEqual(header.internalCompression, 2)
        XCTAssertEqual(header.tileCompression, 2)
        XCTAssertEqual(header.tileType, 1)
        XCTAssertEqual([header.minZoom, header.maxZoom, header.centerZoom], [1, 5, 2])
        XCTAssertEqual([header.minLonE7, header.minLatE7, header.maxLonE7, header.maxLatE7], [-105_000_000, 202_500_000, 300_000_000, 401_250_000])

        let reader = try TileArchive.open(path)
        XCTAssertEqual(try reader.tileIDs(), [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 0, y: 1),
                                              TileID(z: 1, x: 1, y: 0), TileID(z: 1, x: 1, y: 1), TileID(z: 2, x: 3, y: 3)])
        XCTAssertEqual(try reader.tile(TileID(z: 1, x: 1, y: 0)), ocean)
        XCTAssertEqual(try reader.tile(TileID(z: 2, x: 3, y: 3)), ocean)
        XCTAssertEqual(try reader.tile(TileID(z: 0, x: 0, y: 0)), Array("root".utf8))
        XCTAssertNil(try reader.tile(TileID(z: 2, x: 0, y: 0)))
        XCTAssertEqual(reader.metadata, sampleMetadata(), "metadata reads back as written")
    }

    func testPMTilesSplitsIntoLeafDirectoriesWhenTheRootIsTooBig() throws {
        let path = folder.appendingPathComponent("leaves.pmtiles").path
        let writer = try XCTUnwrap(try TileArchive.create(path) as? PMTilesWriter)
        // Below what the 1365 entries compress to whatever the write order (about 100 bytes).
        writer.rootLimit = 48
        var ids = [TileID]()
        for z in 0...5 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { ids.append(TileID(z: z, x: x, y: y)) } } }
        for id in ids.shuffled() { try writer.write(id, tileBytes(id)) }
        try writer.finish(metadata: sampleMetadata())
        let reader = try XCTUnwrap(try TileArchive.open(path) as? PMTilesReader)
        XCTAssertGreaterThan(reader.header.leafLength, 0)
        XCTAssertLessThanOrEqual(reader.header.rootLength, 48)
        XCTAssertEqual(try reader.tileIDs(), ids.sorted())
        for id in ids { XCTAssertEqual(try reader.tile(id), tileBytes(id), "\(id)") }

        // The default limit keeps 1365 entries in the root (they compress below 16 KiB).
        let whole = try PMTilesWriter.directories(try reader.tileRuns().map {
            PMTiles.Entry(tileID: $0.firstID, offset: $0.content.offset, length: $0.content.length, runLength: UInt32($0.count))
        }, rootLimit: PMTiles.rootLimit)
        XCTAssertTrue(whole.leaves.isEmpty)
    }

    // MARK: MBTiles and directories

    func testMBTilesRoundTripUsesTMSRowsAndGzip() throws {
        let path = folder.appendingPathComponent("a.mbtiles").path
        let writer = try TileArchive.create(path)
        let ids = [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 2, y: 1), TileID(z: 3, x: 7, y: 7)]
        for id in ids { try writer.write(id, tileBytes(id)) }
        try writer.write(TileID(z: 4, x: 0, y: 0), tileBytes(ids[1]))   // same bytes as 3/2/1: stored once
        try writer.finish(metadata: sampleMetadata())
        let reader = try TileArchive.open(path)
        XCTAssertEqual(try reader.tileIDs(), ids + [TileID(z: 4, x: 0, y: 0)])
        for id in ids { XCTAssertEqual(try reader.tile(id), tileBytes(id)) }
        XCTAssertEqual(try reader.tile(TileID(z: 4, x: 0, y: 0)), tileBytes(ids[1]))
        XCTAssertEqual(reader.metadata, sampleMetadata())

        let sqlite = try Prerequisite.executable("sqlite3", install: "Debian: sqlite3")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite)
        process.arguments = [path, "SELECT zoom_level, tile_column, tile_row, hex(substr(tile_data, 1, 2)) FROM tiles ORDER BY zoom_level, tile_column; SELECT value FROM metadata WHERE name = 'bounds'; SELECT count(*) FROM images;"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(text, "0|0|0|1F8B\n3|2|6|1F8B\n3|7|0|1F8B\n4|0|15|1F8B\n-10.5,20.25,30,40.125\n3\n",
                       "TMS rows (y flipped), gzip data, 4 tiles in 3 images")
    }

    func testDirectoryRoundTripAndMetadataLayouts() throws {
        let path = folder.appendingPathComponent("dir").path
        let writer = try TileArchive.create(path)
        let ids = [TileID(z: 0, x: 0, y: 0), TileID(z: 2, x: 1, y: 3)]
        for id in ids { try writer.write(id, tileBytes(id)) }
        try writer.finish(metadata: sampleMetadata())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "/2/1/3.mvt"))
        let reader = try TileArchive.open(path)
        XCTAssertEqual(try reader.tileIDs(), ids)
        XCTAssertEqual(try reader.tile(ids[1]), tileBytes(ids[1]))
        XCTAssertEqual(reader.metadata, sampleMetadata())

        let metadata = sampleMetadata()
        XCTAssertEqual(try TileSetMetadata.fromMBTilesRows(metadata.mbtilesRows(), source: "rows"), metadata)
        let json = try JSONSerialization.jsonObject(with: Data(metadata.directoryJSON())) as! [String: Any]
        XCTAssertEqual(json["bounds"] as? String, "-10.5,20.25,30,40.125")
        XCTAssertEqual(json["center"] as? String, "9.75,30.1875,2")
        XCTAssertNotNil(json["overlaykit"] as? [String: Any])
    }

    /// metadata.json as tippecanoe 2.x writes it (keys it has that we do not are kept).
    func testReadsTippecanoeMetadata() throws {
        let text = #"""
            {"name": "countries", "description": "countries", "version": "2", "minzoom": "0", "maxzoom": "4",
             "center": "0.000000,0.000000,4", "bounds": "-180.000000,-85.051129,180.000000,83.634101", "type": "overlay",
             "format": "pbf", "generator": "tippecanoe v2.53.0",
             "json": "{\"vector_layers\":[{\"id\":\"countries\",\"description\":\"\",\"minzoom\":0,\"maxzoom\":4,\"fields\":{\"NAME\":\"String\",\"POP_EST\":\"Number\"}}],\"tilestats\":{\"layerCount\":1}}"}
            """#
        let metadata = try TileSetMetadata.fromDirectoryJSON(Array(text.utf8), source: "metadata.json")
        XCTAssertEqual(metadata.name, "countries")
        XCTAssertEqual(metadata.maxZoom, 4)
        XCTAssertEqual(metadata.bounds, .init(west: -180, south: -85.051129, east: 180, north: 83.634101))
        XCTAssertEqual(metadata.center, .init(longitude: 0, latitude: 0, zoom: 4))
        XCTAssertEqual(metadata.vectorLayers.first?.fields, [.init(name: "NAME", type: "String"), .init(name: "POP_EST", type: "Number")])
        XCTAssertEqual(metadata.other["generator"], .string("tippecanoe v2.53.0"))
        XCTAssertNil(metadata.dropReport)
        XCTAssertThrowsError(try TileSetMetadata.fromMBTilesRows([("bounds", "1,2,x,4")], source: "m")) { error in
            XCTAssertTrue((error as? Diagnostic)?.message.contains("bounds") ?? false)
        }
    }

    // MARK: Atomic output

    func testOutputAppearsOnlyWhenFinishedAndAbortLeavesTheOldOne() throws {
        for name in ["x.pmtiles", "x.mbtiles", "xdir"] {
            let path = folder.appendingPathComponent(name).path
            let first = try TileArchive.create(path)
            try first.write(TileID(z: 0, x: 0, y: 0), Array("old".utf8))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(name): nothing at the path before finish")
            XCTAssertThrowsError(try TileArchive.create(path)) { error in
                XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.output-locked", name)
            }
            try first.finish(metadata: sampleMetadata())

            XCTAssertThrowsError(try TileArchive.create(path)) { error in
                XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.output-exists", name)
            }
            var options = TileArchive.CreateOptions()
            options.replaceExisting = true
            let second = try TileArchive.create(path, options: options)
            try second.write(TileID(z: 0, x: 0, y: 0), Array("new".utf8))
            XCTAssertThrowsError(try second.write(TileID(z: 0, x: 0, y: 0), Array("again".utf8)), "\(name): duplicate tile")
            second.abort()
            XCTAssertEqual(try TileArchive.open(path).tile(TileID(z: 0, x: 0, y: 0)), Array("old".utf8), "\(name): old output kept")

            let third = try TileArchive.create(path, options: options)
            try third.write(TileID(z: 0, x: 0, y: 0), Array("new".utf8))
            try third.finish(metadata: sampleMetadata())
            XCTAssertEqual(try TileArchive.open(path).tile(TileID(z: 0, x: 0, y: 0)), Array("new".utf8), "\(name): replaced")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(leftovers, ["x.mbtiles", "x.pmtiles", "xdir"], "no locks or temporaries left")
    }

    func testGzipRoundTripAndDecompressionLimit() throws {
        let text = Array(String(repeating: "ocean ", count: 10_000).utf8)
        let packed = try Gzip.compress(text)
        XCTAssertTrue(Gzip.isCompressed(packed))
        XCTAssertLessThan(packed.count, text.count / 50)
        XCTAssertEqual(try Gzip.decompress(packed, limit: text.count, source: "t"), text)
        XCTAssertThrowsError(try Gzip.decompress(packed, limit: text.count - 1, source: "t"), "a gzip bomb is refused")
        XCTAssertThrowsError(try Gzip.decompress(Array(packed.prefix(packed.count / 2)), limit: 1 << 20, source: "t"), "truncated")
    }
}
