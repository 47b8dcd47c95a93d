import Foundation
import OverlayModel
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit
import TestSupport

/// The disk feature store (`Tiler.FeatureStore.disk`, `TilePyramid` over records) against the memory
/// one: the same tiles and metadata byte for byte, with every option that changes what a tile
/// holds, and no temporary file left in the folder on any exit.
final class TileFeatureStoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("feature-store-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func writeMixedInput() throws -> String { try TileFixtures.writeMixedInput(in: folder) }

    private func files(_ url: URL) throws -> [String: Data] { try TileFixtures.files(url) }

    /// Runs `configure`d tilers with each store into directories; returns both outputs.
    private func tileWithBothStores(_ input: String, threads: Int = 2, suffix: String = ".pmtiles",
                                    _ configure: (inout Tiler) -> Void) throws -> (memory: [String: Data], disk: [String: Data]) {
        var outputs = [[String: Data]]()
        let name = UUID().uuidString
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        for store in [Tiler.FeatureStore.memory, .disk] {
            // A PMTiles archive is compared byte for byte (quick); a directory file for file.
            let output = folder.appendingPathComponent("out-\(store)").appendingPathComponent(name + suffix)
            try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            var tiler = Tiler(output: output.path, layer: "mixed")
            tiler.threads = threads
            tiler.featureStore = store
            tiler.temporaryDirectory = temporary.path
            configure(&tiler)
            var reader = try FeatureIO.reader(for: ByteInput(path: input))
            let report = try tiler.run(reading: &reader, onProgress: { _ in
                // The store's files have no name while the run is going on.
                XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? ["?"], [])
            })
            if store == .disk {
                XCTAssertGreaterThan(report.temporaryBytes ?? 0, 0, "the disk store counts its files")
            } else {
                XCTAssertNil(report.temporaryBytes)
            }
            outputs.append(try files(output))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "nothing left behind")
        }
        return (outputs[0], outputs[1])
    }

    private func assertSame(_ outputs: (memory: [String: Data], disk: [String: Data]), _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(outputs.memory.isEmpty, label, file: file, line: line)
        XCTAssertEqual(outputs.memory.keys.sorted(), outputs.disk.keys.sorted(), "\(label): the same tiles", file: file, line: line)
        for (path, bytes) in outputs.memory where outputs.disk[path] != bytes {
            XCTFail("\(label): \(path) differs between the memory and the disk store", file: file, line: line)
        }
    }

    func testDiskStoreWritesTheSameTilesAsMemoryWithEveryDensityOption() throws {
        let input = try writeMixedInput()
        assertSame(try tileWithBothStores(input) { $0.options.maxZoom = 8 }, "tippecanoe defaults")
        assertSame(try tileWithBothStores(input, suffix: "") { $0.options.maxZoom = 4 }, "tippecanoe defaults, a directory")
        assertSame(try tileWithBothStores(input, threads: 1) { tiler in
            tiler.options = TileOptions()
            tiler.options.maxZoom = 6
        }, "geojson-vt options, one thread")
        assertSame(try tileWithBothStores(input) { tiler in
            tiler.options.maxZoom = 6
            tiler.options.clusterDistance = 40
            tiler.options.generateID = true
            tiler.options.lineMetrics = true
        }, "clusters, generated ids, line metrics")
        assertSame(try tileWithBothStores(input) { tiler in
            tiler.options.maxZoom = 5
            tiler.options.budget.maxBytes = 2_000
            tiler.options.promoteID = "v"
        }, "a small byte budget, promoted ids")
        assertSame(try tileWithBothStores(input, suffix: "") { tiler in
            tiler.options.maxZoom = 5
            tiler.options.minZoom = 3
            tiler.encoding = .geojson
        }, "GeoJSON tiles from z3")
    }

    /// The corpus: geojson-vt's fixture inputs with geojson-vt's options (line metrics for the
    /// dateline one, generated and promoted ids), and Natural Earth with tippecanoe's defaults.
    func testCorpusInputsGiveTheSameTilesOnDisk() throws {
        let fixtures = try Prerequisite.corpus("geojson-vt/fixtures")
        for name in ["us-states.json", "dateline.json", "ids.json", "feature.json", "collection.json", "single-geom.json"] {
            let input = fixtures.appendingPathComponent(name).path
            for lineMetrics in name == "dateline.json" ? [false, true] : [false] {
                let outputs = try tileWithBothStores(input) { tiler in
                    tiler.options = TileOptions()
                    tiler.options.maxZoom = 7
                    tiler.options.lineMetrics = lineMetrics
                    tiler.options.generateID = name == "ids.json"
                }
                XCTAssertEqual(outputs.memory, outputs.disk, "\(name), line metrics \(lineMetrics)")
                XCTAssertFalse(outputs.memory.isEmpty, name)
            }
        }
        let countries = try Prerequisite.corpus("real/ne_50m_admin_0_countries.geojson").path
        assertSame(try tileWithBothStores(countries) { $0.options.maxZoom = 5 }, "Natural Earth countries")
    }

    func testSeveralInputsAndLayersGiveTheSameTilesAndMetadata() throws {
        let first = try writeMixedInput(), second = try writeMixedInput()
        var outputs = [[String: Data]]()
        for store in [Tiler.FeatureStore.memory, .disk] {
            let output = folder.appendingPathComponent("layers-\(store)").appendingPathComponent("layers.pmtiles")
            try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            var tiler = Tiler(output: output.path, layer: "a")
            tiler.featureStore = store
            tiler.temporaryDirectory = folder.path
            tiler.options.maxZoom = 6
            var inputs = [TileInput(layer: "a", reader: try FeatureIO.reader(for: ByteInput(path: first))),
                          TileInput(layer: "b", reader: try FeatureIO.reader(for: ByteInput(path: second)))]
            _ = try tiler.run(reading: &inputs)
            outputs.append(try files(output))
        }
        assertSame((outputs[0], outputs[1]), "two inputs, two layers")
    }

    /// Every tile cut while its records are read (as a tile too large to hold is), children
    /// written straight to the next level's files and taken back below solid tiles.
    func testTilesCutWhileReadEqualTilesCutWhole() throws {
        let input = try writeMixedInput()
        var options = TileOptions()
        options.maxZoom = 8
        options.pointDropRate = 2.5
        options.accumulatesTinyShapes = true
        func tiles(diskFolder: String?, loadBytes: Int) throws -> [TileID: [UInt8]] {
            var reader = try FeatureIO.reader(for: ByteInput(path: input))
            let source = try TileSource(reading: &reader, options: options, readThreads: 2, minimumPartBytes: 1,
                                        diskFolder: diskFolder, onWarning: { _ in })
            let collected = TileCollector()
            _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2, loadBytes: loadBytes,
                                      emit: { collected.add($0) }, emitBlock: { collected.add($0, block: $1) })
            return collected.tiles
        }
        let memory = try tiles(diskFolder: nil, loadBytes: 0)
        XCTAssertGreaterThan(memory.count, 100)
        XCTAssertEqual(try tiles(diskFolder: folder.path, loadBytes: 0), memory, "every tile cut while read")
        XCTAssertEqual(try tiles(diskFolder: folder.path, loadBytes: 1 << 14), memory, "small subtrees read into memory")
        XCTAssertEqual(try tiles(diskFolder: folder.path, loadBytes: 1 << 30), memory, "the whole input read into memory")
    }

    func testAttributeBytesReadBackExactly() {
        let values: [JSONValue] = [.null, .bool(true), .bool(false), .integer(-5), .integer(.max), .number(1.0), .number(-0.0),
                                   .number(1e300), .string(""), .string("e\u{301}"), .string("é"),
                                   .array([.integer(1), .array([]), .object(JSONObject())]),
                                   .object(JSONObject([.init(key: "k", value: .integer(1)), .init(key: "k", value: .integer(2))]))]
        for (index, value) in values.enumerated() {
            for attributes in [TileAttributes(id: value, properties: JSONObject([.init(key: "v", value: value)])),
                               TileAttributes(id: nil, properties: nil)] {
                var bytes = [UInt8]()
                AttributeCodec.append(attributes, generatedID: false, to: &bytes)
                let back = bytes.withUnsafeBytes { AttributeCodec.attributes($0, at: 0, source: index) }
                XCTAssertEqual(back, attributes, "\(value)")
                if case .number(let number) = value, case .number(let read)? = back.id {
                    XCTAssertEqual(read.bitPattern, number.bitPattern, "doubles keep their bits")
                }
            }
        }
        var bytes = [UInt8]()
        AttributeCodec.append(TileAttributes(id: .integer(99), properties: nil), generatedID: true, to: &bytes)
        XCTAssertEqual(bytes.withUnsafeBytes { AttributeCodec.attributes($0, at: 0, source: 12) }.id, .integer(12),
                       "a generated id is the input position")
    }

    func testTooLittleTemporarySpaceIsRefusedBeforeReading() throws {
        XCTAssertThrowsError(try Tiler.checkFreeSpace(folder.path, needed: Int.max / 2)) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code, .ioWriteFailed)
            XCTAssertTrue(diagnostic?.message.contains("temporary space in \(self.folder.path)") == true, "\(error)")
            XCTAssertTrue(diagnostic?.message.contains("--tmpdir") == true, "\(error)")
        }
        XCTAssertThrowsError(try Tiler.checkFreeSpace(folder.appendingPathComponent("missing").path, needed: 1)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .ioCreateFailed)
        }
        XCTAssertNoThrow(try Tiler.checkFreeSpace(folder.path, needed: 1))
    }

    func testPlanCountsTheDiskStoresFilesAndMemory() throws {
        let input = try writeMixedInput()
        let inputBytes = try FileManager.default.attributesOfItem(atPath: input)[.size] as! Int
        var plans = [TilePlan]()
        for store in [Tiler.FeatureStore.memory, .disk] {
            var tiler = Tiler(output: folder.appendingPathComponent("plan.pmtiles").path, layer: "mixed")
            tiler.options.maxZoom = 5
            // Every tile cut (a sample walks the stores' sizes differently: features, record bytes).
            tiler.planSampleTiles = 4_096
            tiler.featureStore = store
            var reader = try FeatureIO.reader(for: ByteInput(path: input))
            plans.append(try tiler.plan(reading: &reader))
        }
        XCTAssertEqual(plans[1].temporaryDiskBytes - plans[0].temporaryDiskBytes, 4 * inputBytes, "the spill: 4× the input")
        XCTAssertEqual(plans[1].peakMemoryBytes, Tiler.diskStoreBaseMemory + plans[1].features * Tiler.diskStoreBytesPerFeature)
        XCTAssertEqual(plans[0].tiles, plans[1].tiles)
    }

    /// A reader that holds no feature but says how much GeoJSON text its features would make.
    private struct SizedReader: FeatureReader {
        var featureTextBytes: Int?
        var documentContext: DocumentContext { DocumentContext() }
        mutating func next() throws -> Feature? { nil }
        mutating func takeWarnings() -> [Diagnostic] { [] }
    }

    func testAutomaticStoreGoesByTheFeaturesTextNotTheFileBytes() throws {
        let tiler = Tiler(output: folder.appendingPathComponent("auto.pmtiles").path, layer: "sized")
        func plan(_ bytes: Int?...) -> Tiler.FeatureStorePlan {
            tiler.featureStorePlan(for: bytes.map { TileInput(layer: "sized", reader: SizedReader(featureTextBytes: $0)) })
        }
        XCTAssertTrue(plan(Tiler.automaticDiskBytes).onDisk)
        XCTAssertFalse(plan(Tiler.automaticDiskBytes - 1).onDisk)
        XCTAssertTrue(plan(Tiler.automaticDiskBytes / 2, Tiler.automaticDiskBytes / 2).onDisk, "the inputs in all")
        XCTAssertFalse(plan(Tiler.automaticDiskBytes, nil).onDisk, "an input of unknown size (standard input) keeps memory")
        XCTAssertEqual(plan(1_000).temporaryBytes, 4_000)

        // A file's readers say its size; a GeoParquet file says its estimate (GeoParquetScaleTests).
        let input = try writeMixedInput()
        let inputBytes = try FileManager.default.attributesOfItem(atPath: input)[.size] as! Int
        let reader = try FeatureIO.reader(for: ByteInput(path: input))
        XCTAssertEqual(tiler.featureStorePlan(for: [TileInput(layer: "mixed", reader: reader)]).inputBytes, inputBytes)
    }

    func testAFailedRunLeavesNoTemporaryFile() throws {
        let input = folder.appendingPathComponent("bad.geojsons")
        try Data(("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n"
                  + "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,]}}\n").utf8).write(to: input)
        let temporary = folder.appendingPathComponent("tmp-failed")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var tiler = Tiler(output: folder.appendingPathComponent("failed.pmtiles").path, layer: "bad")
        tiler.featureStore = .disk
        tiler.temporaryDirectory = temporary.path
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        XCTAssertThrowsError(try tiler.run(reading: &reader))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
        tiler.temporaryDirectory = folder.appendingPathComponent("no-such-folder").path
        reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        XCTAssertThrowsError(try tiler.run(reading: &reader)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .ioCreateFailed, "\(error)")
        }
    }
}

/// Encoded tiles by id, from several threads; a block's tile stands for each of its tiles.
private final class TileCollector: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var tiles = [TileID: [UInt8]]()

    func add(_ tile: VectorTile, block: TileBlock? = nil) -> Int {
        let bytes = MVTEncoder(layerName: "t").encode(tile).0
        lock.lock()
        defer { lock.unlock() }
        XCTAssertNil(tiles[tile.id], "\(tile.id) cut twice")
        tiles[tile.id] = bytes + (block.map { Array("block \($0.root) z\($0.zoom)".utf8) } ?? [])
        return bytes.count
    }
}
