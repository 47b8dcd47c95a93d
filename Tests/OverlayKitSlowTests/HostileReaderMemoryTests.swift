import Foundation
import OverlayModel
import TestSupport
import XCTest
@testable import OverlayKit

/// Issue 52's crafted archives through the built binary: each command ends with its exit code
/// and diagnostic within 60 s and 1.5 GB of peak memory (`CLI.runMeasuringPeakMemory`), and a
/// failed `tile-join` leaves nothing beside its input.
final class HostileReaderMemoryTests: XCTestCase {
    private static let peakLimitKilobytes = 1_500_000

    private func varint(_ value: UInt64) -> [UInt8] {
        var out = [UInt8]()
        MLTWire.appendVarint(value, to: &out)
        return out
    }

    /// One MLT layer named `l` of `columns` and `data`.
    private func mltTile(columns: [UInt8], data: [UInt8]) -> [UInt8] {
        var body: [UInt8] = [1]
        MLTWire.appendString("l", to: &body)
        MLTWire.appendVarint(4096, to: &body)
        body += columns + data
        return varint(UInt64(body.count)) + body
    }

    /// A PMTiles file at `path`: `root` (gzipped), metadata `{}`, `data` (uncompressed tiles).
    private func writePMTiles(_ path: String, root: [UInt8], tileType: UInt8, data: [UInt8]) throws {
        var header = PMTiles.Header()
        let rootBytes = try Gzip.compress(root), metadata = try Gzip.compress(Array("{}".utf8))
        header.tileCompression = PMTiles.compressionNone
        header.tileType = tileType
        header.rootOffset = UInt64(PMTiles.headerLength)
        header.rootLength = UInt64(rootBytes.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadata.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.dataOffset = header.leafOffset
        header.dataLength = UInt64(data.count)
        header.maxZoom = 14
        try Data(header.encode() + rootBytes + metadata + data).write(to: URL(fileURLWithPath: path))
    }

    /// An MLT archive holding `tile` as 0/0/0.
    private func writeMLTArchive(_ path: String, _ tile: [UInt8]) throws {
        let root = PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: UInt32(tile.count), runLength: 1)])
        try writePMTiles(path, root: root, tileType: PMTiles.tileTypeMLT, data: tile)
    }

    /// Runs `arguments`, checking time and peak memory; the result.
    private func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let start = Date()
        let result = try CLI.runMeasuringPeakMemory(arguments, seconds: 120)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertLessThan(seconds, 60, "\(arguments)")
        XCTAssertLessThan(result.peak, Self.peakLimitKilobytes, "\(arguments): peak \(result.peak) KB")
        print("hostile: \(arguments.prefix(2).joined(separator: " ")) \(URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "").lastPathComponent): "
              + "exit \(result.status), \(String(format: "%.1f", seconds)) s, peak \(result.peak / 1024) MB")
        return (result.status, result.stderr)
    }

    func testCraftedMLTTilesEndIn65NamingTheTileEverywhere() throws {
        let folder = try CLI.temporaryFolder(self)
        // 2^31 − 1 columns; one RLE run of 2^28 geometry types; a present stream of 2^31 − 1 bits.
        var rleStream = varint(1 << 28) + varint(0), types = [UInt8]()
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: 0, logical1: .rle, physical: .varint, valueCount: 2,
                             byteLength: rleStream.count, runs: 1, rleValueCount: 1 << 28).write(to: &types)
        rleStream = types + rleStream
        var present = [UInt8]()
        MLTWire.StreamHeader(physicalStream: .present, logicalStream: 0, valueCount: Int(Int32.max), byteLength: 2).write(to: &present)
        var boolColumn = varint(1) + varint(11)
        MLTWire.appendString("b", to: &boolColumn)
        let tiles = ["columns": mltTile(columns: varint(UInt64(Int32.max)), data: []),
                     "rle": mltTile(columns: varint(1) + varint(4), data: varint(1) + rleStream),
                     "present": mltTile(columns: boolColumn, data: present + [0x7F, 0x00])]
        for (name, tile) in tiles.sorted(by: { $0.key < $1.key }) {
            let input = folder.appendingPathComponent("\(name).pmtiles").path
            try writeMLTArchive(input, tile)
            let output = folder.appendingPathComponent("\(name)-out")
            for arguments in [["info", input], ["info", input, "--json"], ["info", input, "0/0/0"],
                              ["render", input, "-f", "-o", output.path + ".png", "--center", "0,0", "--zoom", "0"],
                              ["tile-join", input, "-o", output.path + ".pmtiles"]] {
                let result = try run(arguments)
                XCTAssertEqual(result.status, 65, "\(name) \(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("mlt.bad-tile"), "\(name) \(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("0/0/0"), "\(name) \(arguments): \(result.stderr)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".pmtiles") || $0.contains("-out") }
        XCTAssertEqual(left, [], "no output, .lock or .tmp- file left")
    }

    func testArchiveBombsAndRunsEndWithinTheLimits() throws {
        let folder = try CLI.temporaryFolder(self)
        // A root directory inflating to 255 MB (a 261 KB file): 6.6 GB before.
        let bomb = folder.appendingPathComponent("bomb.pmtiles").path
        try writePMTiles(bomb, root: [UInt8](repeating: 0, count: 255 << 20), tileType: PMTiles.tileTypeMVT, data: [])
        for arguments in [["info", bomb], ["tile-join", bomb, "-o", folder.appendingPathComponent("bomb-out.pmtiles").path]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("tile.archive-too-large"), result.stderr)
        }
        // A run of 2^28 tiles in a 268-byte file: read, joined and compared by runs, never listed.
        let run = folder.appendingPathComponent("run.pmtiles").path
        try writePMTiles(run, root: PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: 0, runLength: 1 << 28)]),
                         tileType: PMTiles.tileTypeMVT, data: [])
        XCTAssertEqual(try self.run(["info", run]).status, 0)
        let joined = try self.run(["tile-join", run, "-o", folder.appendingPathComponent("run-out.pmtiles").path])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertEqual(try self.run(["diff", run, folder.appendingPathComponent("run-out.pmtiles").path]).status, 0, "the same tiles")
        // Into a folder, one file a tile: refused before the first file.
        let files = try self.run(["tile-join", run, "-o", folder.appendingPathComponent("run-out").path])
        XCTAssertEqual(files.status, 65, files.stderr)
        XCTAssertTrue(files.stderr.contains("tile.too-many-tiles"), files.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("run-out").path))
        // An MBTiles whose `tiles` view hands over a 1 GB blob: 3.0 GB before.
        let mbtiles = folder.appendingPathComponent("view.mbtiles").path
        let database = try SQLiteDatabase(path: mbtiles, readOnly: false)
        try database.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT); INSERT INTO metadata VALUES ('format', 'pbf'), ('name', 'x');
            CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, zeroblob(1000000000) AS tile_data;
            """)
        database.close()
        for arguments in [["info", mbtiles], ["tile-join", mbtiles, "-o", folder.appendingPathComponent("view-out.pmtiles").path]] {
            let result = try self.run(arguments)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("tile.archive-mbtiles"), result.stderr)
        }
    }

    /// The world to z14, as `tile` writes it (356,785,493 tiles in 151,064 runs): `info`,
    /// `tile-join` with a point's tiles and `diff` read it by its runs; the PyPI `pmtiles` reader
    /// counts the joined archive's tiles per zoom from its directory and finds the point's tile
    /// merged and the ocean's copied.
    func testInfoJoinAndDiffReadTheWorldToZ14ThatTileWrites() throws {
        let folder = try CLI.temporaryFolder(self)
        let world = folder.appendingPathComponent("world.geojson"), point = folder.appendingPathComponent("point.geojson")
        try Data(#"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-180,-85.0511],[180,-85.0511],[180,85.0511],[-180,85.0511],[-180,-85.0511]]]}}"#.utf8)
            .write(to: world)
        try Data(#"{"type":"Feature","properties":{"name":"p"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}"#.utf8).write(to: point)
        let archive = folder.appendingPathComponent("world.pmtiles").path, places = folder.appendingPathComponent("places.pmtiles").path
        let joined = folder.appendingPathComponent("joined.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", world.path, "-o", archive, "-z", "14"]).status, 0)
        XCTAssertEqual(try CLI.run(["tile", point.path, "-o", places, "-z", "14", "-l", "places"]).status, 0)
        let info = try run(["info", archive])
        XCTAssertEqual(info.status, 0, info.stderr)
        let join = try run(["tile-join", archive, places, "-o", joined])
        XCTAssertEqual(join.status, 0, join.stderr)
        let diff = try run(["diff", archive, joined])
        XCTAssertEqual(diff.status, 1, "the point's tiles changed: \(diff.stderr)")

        let python = URL(fileURLWithPath: try Prerequisite.python(modules: ["pmtiles.reader"], install: "pip install pmtiles"))
        let script = """
            import gzip, json, sys
            from pmtiles.reader import Reader, MmapSource
            from pmtiles.tile import deserialize_directory, zxy_to_tileid
            with open(sys.argv[1], 'rb') as f:
                r = Reader(MmapSource(f))
                h = r.header()
                starts = [zxy_to_tileid(z, 0, 0) for z in range(16)]
                zooms, entries = [0] * 15, 0
                def walk(offset, length):
                    global entries
                    for e in deserialize_directory(r.get_bytes(offset, length)):
                        if e.run_length == 0:
                            walk(h['leaf_directory_offset'] + e.offset, e.length)
                            continue
                        entries += 1
                        first, end = e.tile_id, e.tile_id + e.run_length
                        for z in range(15):
                            zooms[z] += max(0, min(end, starts[z + 1]) - max(first, starts[z]))
                walk(h['root_offset'], h['root_length'])
                def layers(z, x, y):
                    data = gzip.decompress(r.get(z, x, y))
                    return [name for name in ('world', 'places') if name.encode() in data]
                print(json.dumps({'addressed': h['addressed_tiles_count'], 'zooms': zooms, 'entries': entries,
                                  'paris': layers(14, 8298, 5637), 'ocean': layers(14, 100, 8000)}))
            """
        let result = try CLI.runTool(python, ["-c", script, joined])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        let zooms = try XCTUnwrap(report["zooms"] as? [Int])
        XCTAssertEqual(zooms.reduce(0, +), report["addressed"] as? Int)
        XCTAssertEqual(zooms.prefix(9), [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536], "every tile down to z8")
        XCTAssertGreaterThan(zooms[14], 260_000_000)
        XCTAssertLessThan(report["entries"] as? Int ?? .max, 200_000, "runs, as the input's")
        XCTAssertEqual(report["paris"] as? [String], ["world", "places"])
        XCTAssertEqual(report["ocean"] as? [String], ["world"])
        // info's per-zoom tiles are the Python reader's.
        let text = try XCTUnwrap(try CLI.run(["info", joined, "--json"]).stdoutText.data(using: .utf8))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        let perZoom = try XCTUnwrap(json["zooms"] as? [[String: Any]]).compactMap { $0["tiles"] as? Int }
        XCTAssertEqual(perZoom, zooms)
    }
}
