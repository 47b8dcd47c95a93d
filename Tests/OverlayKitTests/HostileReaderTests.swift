import Foundation
import OverlayModel
import XCTest
@testable import OverlayKit

/// Issue 52: what a command reads is hostile input, whoever wrote it. Each class the hostile
/// matrix found in the readers of tile sets, work files and profiles, with an input crafted
/// here: a clear error (or, where the input is legal, a result) within seconds, never a trap or
/// gigabytes.
final class HostileReaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-readers-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The diagnostic code `body` throws, failing when it throws none or takes over 60 s.
    private func code(_ what: String, _ body: () throws -> Void) -> Diagnostic.Code? {
        let start = Date()
        defer { XCTAssertLessThan(Date().timeIntervalSince(start), 60, what) }
        do {
            try body()
            XCTFail("\(what): no error")
            return nil
        } catch let diagnostic as Diagnostic {
            return diagnostic.code
        } catch {
            XCTFail("\(what): \(error)")
            return nil
        }
    }

    // MARK: 1 and 2. MLT: declared counts and runs bounded by the bytes behind them

    /// One MLT layer (tag 1, name `l`, extent 4096) whose columns are `columns` (their count
    /// first) followed by `data`.
    private func mltTile(columns: [UInt8], data: [UInt8]) -> [UInt8] {
        var body: [UInt8] = [1]
        MLTWire.appendString("l", to: &body)
        MLTWire.appendVarint(4096, to: &body)
        body += columns + data
        var tile = [UInt8]()
        MLTWire.appendVarint(UInt64(body.count), to: &tile)
        return tile + body
    }

    private func varint(_ value: UInt64) -> [UInt8] {
        var out = [UInt8]()
        MLTWire.appendVarint(value, to: &out)
        return out
    }

    func testMLTColumnAndChildCountsAreBoundedByTheirBytes() {
        // 2^31 − 1 columns in a 12-byte tile: a 64 GB allocation before.
        let columns = mltTile(columns: varint(UInt64(Int32.max)), data: [])
        XCTAssertLessThanOrEqual(columns.count, 12)
        XCTAssertEqual(code("columns") { _ = try MLTDecoder.decode(columns) }, .mltBadTile)
        // One struct column (type 30) declaring 2^31 − 1 children.
        var structColumn = varint(1) + varint(30)
        MLTWire.appendString("s", to: &structColumn)
        structColumn += varint(UInt64(Int32.max))
        XCTAssertEqual(code("struct children") { _ = try MLTDecoder.decode(mltTile(columns: structColumn, data: [])) }, .mltBadTile)
    }

    func testMLTRunLengthsAndPresentBitsAreBoundedByWhatATileHolds() {
        // A geometry column whose type stream is one RLE run of 2^28 (20 bytes): 4.2 GB before.
        var run = [UInt8]()
        MLTWire.appendVarint(1 << 28, to: &run)
        MLTWire.appendVarint(0, to: &run)
        var types = [UInt8]()
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: 0, logical1: .rle, physical: .varint, valueCount: 2,
                             byteLength: run.count, runs: 1, rleValueCount: 1 << 28).write(to: &types)
        let geometry = mltTile(columns: varint(1) + varint(4), data: varint(1) + types + run)
        XCTAssertLessThanOrEqual(geometry.count, 32)
        XCTAssertEqual(code("RLE run") { _ = try MLTDecoder.decode(geometry) }, .mltBadTile)

        // A nullable boolean column whose present stream claims 2^31 − 1 bits in two bytes.
        var present = [UInt8]()
        MLTWire.StreamHeader(physicalStream: .present, logicalStream: 0, valueCount: Int(Int32.max), byteLength: 2).write(to: &present)
        var column = varint(1) + varint(11)
        MLTWire.appendString("b", to: &column)
        let bits = mltTile(columns: column, data: present + [0x7F, 0x00])
        XCTAssertEqual(code("present bits") { _ = try MLTDecoder.decode(bits) }, .mltBadTile)

        // A plain integer stream declaring more values than it has bytes.
        var ids = [UInt8]()
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: 0, physical: .varint, valueCount: Int(Int32.max), byteLength: 1).write(to: &ids)
        XCTAssertEqual(code("values") { _ = try MLTDecoder.decode(mltTile(columns: varint(1) + varint(0), data: ids + [0])) }, .mltBadTile)
    }

    /// A tile the encoder writes still reads (the bounds refuse only what no tile holds).
    func testMLTTilesTheEncoderWritesStillRead() throws {
        let features = (0..<3).map { index in
            TileFeature(type: .point, xy: [Int32(index), Int32(2 * index)], ringLengths: [1], id: .integer(Int64(index)),
                        properties: ["n": .integer(Int64(index))])
        }
        let tile = VectorTile(id: TileID(z: 0, x: 0, y: 0), extent: 4096, features: features, statistics: TileStatistics(),
                              sourcePointCount: 0, pointCount: 0)
        let layers = try MLTDecoder.decode(MLTEncoder(layerName: "points").encode(tile).0)
        XCTAssertEqual(layers.map(\.features.count), [3])
    }

    // MARK: 2. PMTiles: directory bombs and runs

    /// A PMTiles file of `root` (gzipped when `gzipRoot`) and `data`, metadata `{}`.
    private func pmtiles(_ name: String, root: [UInt8], gzipRoot: Bool, tileType: UInt8 = PMTiles.tileTypeMVT,
                         data: [UInt8] = []) throws -> String {
        var header = PMTiles.Header()
        let rootBytes = gzipRoot ? try Gzip.compress(root) : root
        let metadata = gzipRoot ? try Gzip.compress(Array("{}".utf8)) : Array("{}".utf8)
        header.internalCompression = gzipRoot ? PMTiles.compressionGzip : PMTiles.compressionNone
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
        let path = folder.appendingPathComponent(name).path
        try Data(header.encode() + rootBytes + metadata + data).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAPMTilesDirectoryThatInflatesPastTheLimitStopsWhileInflating() throws {
        // 32 MB of zeros gzip to about 32 KB; the reader stops at 16 MB, before any entry is made.
        let path = try pmtiles("bomb.pmtiles", root: [UInt8](repeating: 0, count: 2 * PMTiles.maximumDirectoryBytes), gzipRoot: true)
        XCTAssertLessThan(try XCTUnwrap(POSIX.regularFileSize(path)), 200_000)
        XCTAssertEqual(code("directory bomb") { _ = try PMTilesReader(path: path) }, .tileArchiveTooLarge)
        // A count no directory's bytes can back.
        let counted = try pmtiles("count.pmtiles", root: varint(1 << 40) + [0, 0, 0, 0], gzipRoot: false)
        XCTAssertEqual(code("entry count") { _ = try PMTilesReader(path: counted) }, .tileArchivePmtiles)
    }

    func testRunsAreReadByRunsAndListedOnlyWhenTheyFit() throws {
        let tile = [UInt8]()                                              // an MVT tile of no layers
        // A run of 2^28 tiles in a 268-byte file: listing them was 8 GB for tile-join.
        let run = PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: 0, runLength: 1 << 28)])
        let path = try pmtiles("run.pmtiles", root: run, gzipRoot: false, data: tile)
        let reader = try PMTilesReader(path: path)
        XCTAssertEqual(try reader.tileRuns(), [TileRun(firstID: 0, count: 1 << 28, content: TileRun.Content(offset: 0, length: 0))])
        XCTAssertEqual(code("listing a run of 2^28") { _ = try reader.tileIDs() }, .tileArchiveTooLarge)
        // Every tile of zooms 0–14 in one run, as `tile` writes a world of one colour: read by runs.
        let world = PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: 0,
                                                           runLength: UInt32(PMTiles.firstID(ofZoom: 15)))])
        let worldPath = try pmtiles("world.pmtiles", root: world, gzipRoot: false, data: tile)
        let report = try TileSet(path: worldPath).inspect()
        XCTAssertEqual(report.zooms.last?.tiles, 1 << 28)
    }

    // MARK: 1 and 5. tile-join: the declared type decides; a bad tile leaves nothing behind

    /// A PMTiles of MLT tiles (type 6) holding `tile` as 0/0/0.
    private func mltArchive(_ name: String, _ tile: [UInt8]) throws -> String {
        let root = PMTiles.encodeDirectory([PMTiles.Entry(tileID: 0, offset: 0, length: UInt32(tile.count), runLength: 1)])
        return try pmtiles(name, root: root, gzipRoot: true, tileType: PMTiles.tileTypeMLT, data: tile)
    }

    func testTileJoinReadsAnMLTTileStartingWithABraceAsMLT() throws {
        // A layer of 123 bytes: the tile's first byte (its length) is 0x7B, `{`.
        var tile = [UInt8]()
        for nameLength in 1...120 where tile.first != 0x7B {
            let feature = TileFeature(type: .point, xy: [1, 2], ringLengths: [1], id: nil, properties: ["k": .string("v")])
            tile = MLTEncoder(layerName: String(repeating: "n", count: nameLength))
                .encode(VectorTile(id: TileID(z: 0, x: 0, y: 0), extent: 4096, features: [feature], statistics: TileStatistics(),
                                   sourcePointCount: 0, pointCount: 0)).0
        }
        XCTAssertEqual(tile.first, 0x7B)
        let input = try mltArchive("brace.pmtiles", tile)
        let output = folder.appendingPathComponent("joined.pmtiles").path
        let report = try TileJoin.join(TileJoin.Options(inputs: [input], output: output))
        XCTAssertEqual(report.counts.written.tiles, 1)
    }

    func testTileJoinOfAnUndecodableMLTTileNamesItAndLeavesNothing() throws {
        let input = try mltArchive("bad.pmtiles", mltTile(columns: varint(UInt64(Int32.max)), data: []))
        let output = folder.appendingPathComponent("joined.pmtiles").path
        do {
            _ = try TileJoin.join(TileJoin.Options(inputs: [input], output: output))
            XCTFail("joined")
        } catch let diagnostic as Diagnostic {
            XCTAssertEqual(diagnostic.code, .mltBadTile)
            XCTAssertTrue(diagnostic.message.contains("bad.pmtiles tile 0/0/0"), diagnostic.message)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["bad.pmtiles"], "no output, lock or temporary file")
        XCTAssertEqual(code("layers") { _ = try TileSet(path: input).layers(at: TileID(z: 0, x: 0, y: 0)) }, .mltBadTile)
    }

    // MARK: 2. MBTiles: the blob size checked before SQLite hands it over

    func testAnMBTilesBlobOverTheTileLimitIsRefusedUnread() throws {
        let path = folder.appendingPathComponent("view.mbtiles").path
        let database = try SQLiteDatabase(path: path, readOnly: false)
        try database.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT); INSERT INTO metadata VALUES ('format', 'pbf'), ('name', 'x');
            CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, zeroblob(1000000000) AS tile_data;
            """)
        database.close()
        let reader = try MBTilesReader(path: path)
        XCTAssertEqual(reader.metadata.name, "x")
        XCTAssertEqual(code("1 GB blob") { _ = try reader.storedTile(TileID(z: 0, x: 0, y: 0)) }, .tileArchiveMbtiles)
    }

    // MARK: 3. Work files

    func testATileLogIsCheckedRecordByRecordAndByItsChecksum() throws {
        let path = folder.appendingPathComponent("partition.tiles").path
        let log = try TileLogWriter(path: path, storesBlocksOnce: true)
        try log.write(TileID(z: 3, x: 2, y: 5), [1, 2, 3])
        try log.writeBlock(TileBlock(root: TileID(z: 4, x: 1, y: 1), zoom: 6), [4, 5])
        try log.commit()
        let good = try Data(contentsOf: URL(fileURLWithPath: path))

        final class Collector: TileArchiveWriter, @unchecked Sendable {
            let path = "collected"
            var tiles = [TileID]()
            var blocks = [TileBlock]()
            func write(_ id: TileID, _ tile: [UInt8]) throws { tiles.append(id) }
            func writeBlock(_ block: TileBlock, _ tile: [UInt8]) throws { blocks.append(block) }
            var storesBlocksOnce: Bool { true }
            func finish(metadata: TileSetMetadata) throws {}
            func abort() {}
        }
        let collector = Collector()
        try TileLogWriter.replay(path, maxZoom: 8, into: collector)
        XCTAssertEqual(collector.tiles, [TileID(z: 3, x: 2, y: 5)])
        XCTAssertEqual(collector.blocks.map(\.zoom), [6])

        func damaged(_ edit: (inout Data) -> Void) throws -> String {
            var bytes = good
            edit(&bytes)
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                try TileLogWriter.replay(path, maxZoom: 8, into: Collector())
                return "no error"
            } catch let diagnostic as Diagnostic {
                XCTAssertEqual(diagnostic.code, .tileBadWorkFile)
                XCTAssertTrue(diagnostic.message.contains(path), diagnostic.message)
                return diagnostic.message
            }
        }
        XCTAssertTrue(try damaged { $0[1] = 60 }.contains("byte 0"), "zoom 60")
        XCTAssertTrue(try damaged { $0[2...5] = Data([0xFF, 0xFF, 0xFF, 0xFF]) }.contains("not a tile"), "x = 0xFFFFFFFF")
        XCTAssertTrue(try damaged { $0[18 + 10] = 40 }.contains("byte 18"), "a block down to z40")
        XCTAssertTrue(try damaged { $0[16] ^= 0xFF }.contains("checksum"), "a tile's byte")
        XCTAssertTrue(try damaged { $0.removeLast(5) }.contains("without its checksum"), "cut short")
    }

    func testASectionedFileChecksEveryChunk() throws {
        let path = folder.appendingPathComponent("shard.records").path
        let writer = try SectionedFileWriter(path: path)
        try writer.append([UInt8](repeating: 7, count: 1000), to: 3)
        try writer.append([1, 2, 3], to: 5)
        try writer.finish()
        XCTAssertEqual(try SectionedFileReader(path: path).chunk(0, of: 3).count, 1000)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for offset in 100..<120 { bytes[offset] ^= 0x5A }               // 20 flipped bytes inside the first chunk
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try SectionedFileReader(path: path)
        XCTAssertEqual(code("flipped chunk") { _ = try reader.chunk(0, of: 3) }, .tileBadWorkFile)
        var index = try Data(contentsOf: URL(fileURLWithPath: path))
        index[index.count - 40] ^= 1                                     // inside the index
        try index.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(code("flipped index") { _ = try SectionedFileReader(path: path) }, .tileBadWorkFile)
    }

    func testJobSettingsTheCommandLineRefusesAreRefusedFromJobJSON() throws {
        let work = folder.appendingPathComponent("job").path
        var tiler = Tiler(output: folder.appendingPathComponent("out.pmtiles").path, layer: "l")
        tiler.options.maxZoom = 5
        _ = try TileJob.create(work: work, tiler: tiler, partitionZoom: 2)
        XCTAssertNoThrow(try TileJob(work: work))
        let jobPath = work + "/job.json"
        let original = try Data(contentsOf: URL(fileURLWithPath: jobPath))
        func edited(_ key: String, _ value: Any) throws -> String {
            var json = try XCTUnwrap(JSONSerialization.jsonObject(with: original) as? [String: Any])
            var tilerJSON = try XCTUnwrap(json["tiler"] as? [String: Any])
            var options = try XCTUnwrap(tilerJSON["options"] as? [String: Any])
            if key == "partitionZoom" { json[key] = value } else { options[key] = value }
            tilerJSON["options"] = options
            json["tiler"] = tilerJSON
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: jobPath))
            do {
                _ = try TileJob(work: work)
                return "no error"
            } catch let diagnostic as Diagnostic {
                XCTAssertEqual(diagnostic.code, .tileBadWorkFile)
                XCTAssertTrue(diagnostic.message.contains(jobPath), diagnostic.message)
                return diagnostic.message
            }
        }
        XCTAssertTrue(try edited("maxZoom", 99).contains("maxZoom must be 0…24"))
        XCTAssertTrue(try edited("extent", 0).contains("extent"))
        XCTAssertTrue(try edited("minZoom", 9).contains("minZoom"))
        XCTAssertTrue(try edited("buffer", -1000).contains("buffer"))
        XCTAssertTrue(try edited("partitionZoom", 7).contains("partitionZoom"))
    }

    /// A shard's summary and the plan are JSON: an edited one (bins cut short, counts past what
    /// adds up, layers that disagree, a partition off the grid) is refused by name before any
    /// number in it is used (the fuzzer's first finding trapped in `LongitudeExtent.merge`).
    func testEditedShardSummariesAndPlansAreRefusedByName() throws {
        let work = folder.appendingPathComponent("job").path
        var tiler = Tiler(output: folder.appendingPathComponent("out.pmtiles").path, layer: "l")
        tiler.options.maxZoom = 3
        let job = try TileJob.create(work: work, tiler: tiler, partitionZoom: 1)
        let input = #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"LineString","coordinates":[[-100,40],[100,-40]]}}"#
        var reader = GeoJSONReader(input: ByteInput(bytes: Array(input.utf8)))
        try job.split(shard: 0, reading: &reader)
        let summaryPath = work + "/shard-000000.json"
        let summary = try Data(contentsOf: URL(fileURLWithPath: summaryPath))
        XCTAssertNoThrow(try job.plan())
        let planPath = work + "/plan.json"
        let plan = try Data(contentsOf: URL(fileURLWithPath: planPath))

        func refused(_ path: String, _ original: Data, _ edit: (inout [String: Any]) throws -> Void,
                     file: StaticString = #filePath, line: UInt = #line) throws -> String {
            var json = try XCTUnwrap(JSONSerialization.jsonObject(with: original) as? [String: Any])
            try edit(&json)
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
            defer { try? original.write(to: URL(fileURLWithPath: path)) }
            do {
                if path == planPath { try job.cut(partition: 0) } else { try job.plan() }
                XCTFail("accepted", file: file, line: line)
                return ""
            } catch let diagnostic as Diagnostic {
                XCTAssertEqual(diagnostic.code, .tileBadWorkFile, file: file, line: line)
                XCTAssertTrue(diagnostic.message.contains(path), diagnostic.message, file: file, line: line)
                return diagnostic.message
            }
        }
        func projection(_ json: inout [String: Any], _ edit: (inout [String: Any]) throws -> Void) throws {
            var projection = try XCTUnwrap(json["projection"] as? [String: Any])
            try edit(&projection)
            json["projection"] = projection
        }
        func extent(_ json: inout [String: Any], _ key: String, _ edit: (inout [Any]) -> Void) throws {
            try projection(&json) { projection in
                var extent = try XCTUnwrap(projection["longitudeExtent"] as? [String: Any])
                var list = try XCTUnwrap(extent[key] as? [Any])
                edit(&list)
                extent[key] = list
                projection["longitudeExtent"] = extent
            }
        }
        _ = try refused(summaryPath, summary) { try extent(&$0, "minimum") { $0.removeLast(100) } }
        _ = try refused(summaryPath, summary) { try extent(&$0, "coverageDelta") { $0[7] = Int.max } }
        _ = try refused(summaryPath, summary) { try extent(&$0, "maximum") { $0[7] = 1e300 } }
        XCTAssertTrue(try refused(summaryPath, summary) { json in
            try projection(&json) { $0["filteredOut"] = Int.max - 1 }
        }.contains("filteredOut"))
        XCTAssertTrue(try refused(summaryPath, summary) { json in
            try projection(&json) { $0["counts"] = ["features": -5, "withoutGeometry": 0, "withoutPositions": 0] }
        }.contains("negative"))
        XCTAssertTrue(try refused(summaryPath, summary) { json in
            try projection(&json) { $0["layerSummaries"] = Array(repeating: $0["layerSummaries"].flatMap { ($0 as? [Any])?.first } as Any, count: 9) }
        }.contains("layer summaries"))
        XCTAssertTrue(try refused(summaryPath, summary) { json in
            json["owned"] = [["features": 1, "partition": 4, "points": 0]]
        }.contains("outside the grid"))
        XCTAssertTrue(try refused(planPath, plan) { json in
            var shards = try XCTUnwrap(json["shards"] as? [[String: Any]])
            shards[0]["layerMap"] = [7]
            json["shards"] = shards
        }.contains("layers do not fit"))
        // Untouched again, the job still runs to the end.
        XCTAssertNoThrow(try job.plan())
        for partition in try job.plan() { try job.cut(partition: partition) }
        XCTAssertNoThrow(try job.finish())
    }

    // MARK: 4. Validation inputs

    func testCoverageOfCornersAtTheEndsOfDoubleEndsWithoutATrap() {
        func square(_ low: Double, _ high: Double, line: Int) -> Feature {
            let ring = [(low, low), (high, low), (high, high), (low, high), (low, low)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
            return Feature(shape: .polygon(Polygon(coordinates: ring)), location: SourceLocation(file: "c.geojson", line: line, column: 1))
        }
        let start = Date()
        _ = CoverageCheck().findings([square(-1e308, 1e308, line: 1), square(0, 1, line: 2), square(-1e308, -1e307, line: 3)])
        XCTAssertLessThan(Date().timeIntervalSince(start), 60)
    }

    func testProfileYAMLNestingIsLimited() throws {
        // 10,000 nested sequences in 20 KB, and mappings 1,000 deep.
        for text in [String(repeating: "- ", count: 10_000) + "x\n",
                     (0..<1_000).map { String(repeating: " ", count: $0) + "k\($0):\n" }.joined()] {
            var parser = try ProfileYAML(text, file: "deep.yaml")
            XCTAssertEqual(code("nesting") { _ = try parser.value() }, .profileInvalid)
        }
        var shallow = try ProfileYAML("a:\n  - b: 1\n", file: "ok.yaml")
        XCTAssertEqual(try shallow.value(), .object(["a": .array([.object(["b": .integer(1)])])]))
    }

    func testALimitOfInt64MaxIsNeverPassed() throws {
        let profile = ValidationProfile(name: "p", title: "p", source: nil, formats: nil, limits: [
            ProfileLimit(id: "features", measure: .features, maximum: Int64.max, summary: "features"),
            ProfileLimit(id: "depth", measure: .elementDepth, maximum: Int64.max, summary: "depth"),
            ProfileLimit(id: "json-depth", measure: .jsonDepth, maximum: Int64.max, summary: "depth"),
        ])
        let geojson = Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null}]}"#.utf8)
        let kml = Array(#"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark/></kml>"#.utf8)
        let inputs = [ValidationInput(name: "a.geojson", result: ValidationResult(file: "a.geojson", format: .geojson, findings: []), bytes: geojson),
                      ValidationInput(name: "a.kml", result: ValidationResult(file: "a.kml", format: .kml, findings: []), bytes: kml)]
        let reports = ProfileCheck(profiles: [profile]).run(on: inputs)
        XCTAssertEqual(reports.flatMap(\.findings).filter { $0.diagnostic.code == .profileOverLimit }.count, 0)
    }
}
