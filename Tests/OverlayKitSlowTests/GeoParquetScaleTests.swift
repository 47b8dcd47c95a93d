import Foundation
@testable import OverlayKit
import OverlayKitTestFixtures
import TestSupport
import XCTest

/// What `FeatureReadHints` and folders change in a GeoParquet read, and what they must not:
/// row groups skipped by their declared box (observable in `statistics`) with the filtered
/// features equal to a full read's; properties left out; parallel row groups equal to serial
/// ones byte for byte; slices that join into the whole; a Hive-partitioned folder read in path
/// order (files written by Tests/Scripts/geoparquet_scale_corpus.py with pyarrow and DuckDB).
final class GeoParquetScaleTests: XCTestCase {
    nonisolated(unsafe) private static var corpusFolder: URL?

    /// The files, written once per run; a skip when pyarrow is missing.
    static func corpus() throws -> URL {
        if let folder = corpusFolder { return folder }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-geoparquet-scale-\(UUID().uuidString)")
        try Prerequisite.writeScriptCorpus("geoparquet_scale_corpus.py", into: folder, modules: ["pyarrow"], install: "pip install pyarrow")
        corpusFolder = folder
        return folder
    }

    private func covering() throws -> String { try Self.corpus().appendingPathComponent("covering.parquet").path }

    private func read(_ path: String, hints: FeatureReadHints = FeatureReadHints(),
                      slice: GeoParquetRowGroupSlice? = nil) throws -> (features: [Feature], statistics: GeoParquetReader.Statistics) {
        var reader = try GeoParquetReader(path: path, hints: hints, slice: slice)
        return (try reader.readAll(), reader.statistics)
    }

    private func text(_ features: [Feature]) throws -> String {
        String(decoding: try FeatureIO.encode(features, as: .geojsonseq), as: UTF8.self)
    }

    func testRowGroupsOutsideTheBoxAreSkippedAndTheFilteredFeaturesAreTheSame() throws {
        let path = try covering()
        let all = try read(path)
        XCTAssertEqual(all.statistics.rowGroups, 24)
        XCTAssertEqual(all.statistics.rowGroupsSkipped, 0)
        for box in ["0,-90,10,90", "100,0,120,30", "-180,-90,180,90", "170,-90,-170,90", "-20,-5,-19,5"] {
            var filter = FeatureFilter()
            filter.intersecting = try GeographicBox(parsing: box)
            let pushed = try read(path, hints: FeatureReadHints(extent: filter.intersecting))
            let expected = try all.features.filter { try filter.matches($0) }
            let got = try pushed.features.filter { try filter.matches($0) }
            XCTAssertEqual(try text(got), try text(expected), box)
            XCTAssertEqual(pushed.statistics.rowGroupsRead + pushed.statistics.rowGroupsSkipped, 24, box)
            if box == "0,-90,10,90" || box == "100,0,120,30" {
                XCTAssertGreaterThanOrEqual(pushed.statistics.rowGroupsSkipped, 20, "\(box): the file is sorted west to east")
                XCTAssertFalse(expected.isEmpty, box)
            }
        }
    }

    /// GeoParquet 2.0: DuckDB's geospatial statistics (native.parquet: points (i/100 − 60,
    /// i/1000) in six row groups of 2,048, each 20.48° wide).
    func testGeospatialStatisticsSkipRowGroups() throws {
        let path = try Self.corpus().appendingPathComponent("native.parquet").path
        try Prerequisite.require(FileManager.default.fileExists(atPath: path), "DuckDB spatial missing: no 2.0 file written")
        let box = try GeographicBox(west: 2, south: 0, east: 5, north: 90)
        let pushed = try read(path, hints: FeatureReadHints(extent: box))
        XCTAssertEqual(pushed.statistics.rowGroups, 6)
        XCTAssertEqual(pushed.statistics.rowGroupsSkipped, 5)
        var filter = FeatureFilter()
        filter.intersecting = box
        let expected = try read(path).features.filter { try filter.matches($0) }
        XCTAssertEqual(expected.count, 301)
        XCTAssertEqual(try text(try pushed.features.filter { try filter.matches($0) }), try text(expected))
    }

    func testFeatureTextEstimateIsNearTheGeoJSONSeqTwin() throws {
        // Points and small buildings as the scale generator makes them (id, kind, height,
        // name), in GeoParquet by our writer and by pyarrow; the estimate the automatic feature
        // store goes by must be the features' text, not the compressed file's bytes.
        var random = SeededGenerator(seed: 7)
        let kinds = ["house", "apartments", "garage", "shed", "school"]
        func properties(_ index: Int) -> JSONObject {
            ["id": .integer(Int64(index)), "kind": .string(kinds[index % kinds.count]),
             "height": .number((Double(Int.random(in: 30...600, using: &random)) / 10)), "name": .string("feature \(index)")]
        }
        func coordinate() -> Coordinate {
            // Six decimals, as the generator writes them.
            Coordinate(latitude: (Double.random(in: -60...60, using: &random) * 1e6).rounded() / 1e6,
                       longitude: (Double.random(in: -170...170, using: &random) * 1e6).rounded() / 1e6)
        }
        let points = (0..<20_000).map { Feature(properties: properties($0), shape: .annotation(PointAnnotation(coordinate: coordinate()))) }
        let buildings = (0..<20_000).map { index -> Feature in
            let corner = coordinate(), side = 0.0002
            let ring = [(0.0, 0.0), (side, 0), (side, side), (0, side), (0, 0)].map {
                Coordinate(latitude: corner.latitude + $0.1, longitude: corner.longitude + $0.0)
            }
            return Feature(properties: properties(index), shape: .polygon(Polygon(coordinates: ring)))
        }
        var files = [(String, [UInt8], Int)]()
        for (name, features) in [("points", points), ("buildings", buildings)] {
            let text = try FeatureIO.encode(features, as: .geojsonseq).count
            files.append((name, try GeoParquetWriterTests.parquet(features).bytes, text))
        }
        let pyarrow = try covering()
        let pyarrowText = try FeatureIO.encode(try read(pyarrow).features, as: .geojsonseq).count
        files.append(("pyarrow covering", Array(try Data(contentsOf: URL(fileURLWithPath: pyarrow))), pyarrowText))
        for (name, bytes, text) in files {
            let reader = try GeoParquetReader(input: ByteInput(bytes: bytes))
            let estimate = try XCTUnwrap(reader.featureTextBytes)
            let ratio = Double(estimate) / Double(text)
            XCTAssertTrue((0.75...1.25).contains(ratio), "\(name): estimate \(estimate) for \(text) bytes of text (\(ratio)×)")
            XCTAssertGreaterThan(estimate, bytes.count, "\(name): more than the file itself")
        }
        // Row groups skipped by the box do not count.
        var boxed = try GeoParquetReader(path: pyarrow, hints: FeatureReadHints(extent: try GeographicBox(parsing: "0,-90,10,90")))
        let whole = try GeoParquetReader(path: pyarrow).featureTextBytes ?? 0
        XCTAssertLessThan(boxed.featureTextBytes ?? .max, whole)
        _ = try boxed.readAll()
        XCTAssertEqual(boxed.featureTextBytes, 0, "nothing left to read")
    }

    func testPropertiesNotAskedForAreLeftOut() throws {
        let path = try covering()
        let all = try read(path).features
        let some = try read(path, hints: FeatureReadHints(properties: ["v", "name", "absent"])).features
        XCTAssertEqual(some.count, all.count)
        let expected = all.map { feature -> Feature in
            var copy = feature
            copy.properties = JSONObject(feature.properties!.members.filter { $0.key == "name" || $0.key == "v" })
            return copy
        }
        XCTAssertEqual(try text(some), try text(expected))
        XCTAssertEqual(some.first?.properties?.members.map(\.key), ["name", "v"], "schema order")
        let none = try read(path, hints: FeatureReadHints(properties: [])).features
        // The geometry is the same; only what properties give a shape (a point's title from `name`) is left out too.
        XCTAssertEqual(none.map { $0.shape?.boundingMapRect }, all.map { $0.shape?.boundingMapRect })
        XCTAssertTrue(none.allSatisfy { $0.properties?.members.isEmpty ?? true })
    }

    func testParallelRowGroupsGiveTheSerialBytes() throws {
        let path = try covering()
        let serial = try text(try read(path).features)
        for threads in [2, 3, 8] {
            XCTAssertEqual(try text(try read(path, hints: FeatureReadHints(threads: threads)).features), serial, "\(threads) threads")
        }
        // A reader dropped halfway stops its workers (nothing to assert but no crash or hang).
        var reader = try GeoParquetReader(path: path, hints: FeatureReadHints(threads: 4))
        for _ in 0..<150 { _ = try reader.next() }
    }

    /// Every row group `next()` used up is let go (and counted toward a trim of freed memory)
    /// before the next is read, serial or with workers: 24 row groups, 24 trims at 1 byte a trim.
    func testEachUsedUpRowGroupIsLetGoAndCountedTowardATrim() throws {
        let path = try covering()
        for threads in [1, 2] {
            var reader = try GeoParquetReader(path: path, hints: FeatureReadHints(threads: threads))
            reader.trimmer = FreedMemoryTrimmer(bytesPerTrim: 1)
            let features = try reader.readAll()
            XCTAssertFalse(features.isEmpty)
            XCTAssertEqual(reader.statistics.rowGroupsRead, 24)
            XCTAssertEqual(reader.trimmer.trimCount, 24, "\(threads) threads")
        }
    }

    /// The row-group workers never take a task more than `window` past the one the caller has
    /// taken, however fast they decode: what bounds the memory read ahead.
    func testRowGroupWorkersStayWithinTheirWindow() throws {
        final class Taken: @unchecked Sendable {
            let lock = NSLock()
            var handed = 0
            var furthest = 0
        }
        let taken = Taken()
        let window = 3
        let decoder = try OrderedRowGroupDecoder<Int>(count: 60, threads: 3, window: window) { task in
            taken.lock.lock()
            taken.furthest = max(taken.furthest, task - taken.handed)
            taken.lock.unlock()
            return .success(task)
        }
        var order = [Int]()
        while let outcome = decoder.next() {
            order.append(try outcome.get())
            taken.lock.lock()
            taken.handed += 1
            taken.lock.unlock()
        }
        XCTAssertEqual(order, Array(0..<60))
        // The caller counts a task handed just after the decoder does: one of slack.
        XCTAssertLessThanOrEqual(taken.furthest, window)
    }

    /// `info`'s read: each row group summarized where it is decoded, the parts merged in order,
    /// gives the report of the features `next()` returns, on 24 row groups and on a folder, with
    /// any number of threads, and after `next()` has begun a row group.
    func testRowGroupSummariesMergeIntoTheSerialReport() throws {
        for path in [try covering(), try Self.corpus().appendingPathComponent("hive").path] {
            var serial = DatasetSummary()
            try read(path).features.forEach { serial.add($0) }
            let expected = [InfoReport.text(serial, source: nil), InfoReport.json(serial, source: nil)]
            XCTAssertGreaterThan(serial.featureCount, 1000)
            for (threads, begun) in [(1, 0), (2, 0), (3, 0), (8, 0), (1, 150), (3, 150), (2, 2350), (2, 5000)] {
                var reader = try GeoParquetReader(path: path, hints: FeatureReadHints(threads: threads))
                var summary = DatasetSummary()
                for _ in 0..<begun { if let feature = try reader.next() { summary.add(feature) } }
                var parts = 0
                try reader.forEachPart({ (features: [Feature]) -> DatasetSummary in
                    var part = DatasetSummary()
                    features.forEach { part.add($0) }
                    return part
                }, consume: { part in
                    summary.merge(part)
                    parts += 1
                })
                XCTAssertEqual([InfoReport.text(summary, source: nil), InfoReport.json(summary, source: nil)], expected,
                               "\(path), \(threads) threads, \(begun) read first")
                if begun == 0 { XCTAssertGreaterThan(parts, 1) }
                XCTAssertNil(try reader.next(), "everything was read")
            }
        }
    }

    func testSlicesJoinIntoTheWholeRead() throws {
        let path = try covering()
        let whole = try read(path).features
        for count in [1, 2, 5, 24, 30] {
            var joined = [Feature]()
            for index in 0..<count {
                let part = try read(path, slice: GeoParquetRowGroupSlice(index: index, count: count))
                XCTAssertEqual(part.statistics.rowGroupsRead + part.statistics.rowGroupsOutsideSlice, 24)
                joined += part.features
            }
            XCTAssertEqual(try text(joined), try text(whole), "\(count) slices")
        }
        XCTAssertNil(GeoParquetRowGroupSlice(parsing: "3/3"))
        XCTAssertNil(GeoParquetRowGroupSlice(parsing: "-1/3"))
        XCTAssertEqual(GeoParquetRowGroupSlice(parsing: "2/3"), GeoParquetRowGroupSlice(index: 2, count: 3))
    }

    func testAHiveFolderIsReadInPathOrderWithItsPartitionValues() throws {
        let folder = try Self.corpus()
        let hive = folder.appendingPathComponent("hive").path
        XCTAssertTrue(GeoParquetReader.isDataSetFolder(hive))
        let read = try self.read(hive, hints: FeatureReadHints(threads: 3))
        XCTAssertEqual(read.statistics.files, 3, "_SUCCESS and .crc files are not read")
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("hive.json"))) as? [[Any]] ?? []
        XCTAssertEqual(read.features.count, expected.count)
        for (feature, pair) in zip(read.features, expected) {
            XCTAssertEqual(feature.properties?["name"], .string(pair[0] as? String ?? ""))
            XCTAssertEqual(feature.properties?["region"], (pair[1] as? String).map(JSONValue.string) ?? .null)
            XCTAssertEqual(feature.properties?.members.last?.key, "region", "partition values come after the file's columns")
        }
        // The same through the command seam, and a folder without Parquet files is refused.
        let (_, reader) = try FeatureIO.reader(atPath: hive, geometryColumn: nil, hints: FeatureReadHints())
        var opened = reader
        XCTAssertEqual(try opened.readAll().count, expected.count)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        XCTAssertThrowsError(try GeoParquetReader(folder: empty.path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .geoparquetEmptyFolder)
        }
    }
}
