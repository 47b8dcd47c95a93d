import Foundation
import OverlayKit
import TestSupport
import XCTest

/// GeoParquet files written in set-up by the real writers (pyarrow with every codec, page v2,
/// dictionary off, BYTE_STREAM_SPLIT and DELTA_* encodings, small row groups; geopandas 1.0,
/// 1.1 with covering, GeoArrow; DuckDB spatial's 2.0), each read by GeoParquetReader and
/// compared, feature by feature, with what geopandas / pyarrow read (Tests/Scripts/geoparquet_corpus.py).
final class GeoParquetReaderTests: XCTestCase {
    nonisolated(unsafe) private static var corpusFolder: URL?

    /// The corpus, written once per run; a skip when pyarrow or shapely is missing.
    static func corpus() throws -> URL {
        if let folder = corpusFolder { return folder }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-geoparquet-\(UUID().uuidString)")
        try Prerequisite.writeScriptCorpus("geoparquet_corpus.py", into: folder, modules: ["pyarrow", "shapely"],
                                           install: "pip install pyarrow shapely geopandas")
        corpusFolder = folder
        return folder
    }

    /// The names the writer made (those whose writer was present).
    static func names(_ folder: URL) throws -> [String] {
        let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }

    func testEveryWrittenFileReadsAsGeopandasReadsIt() throws {
        let folder = try Self.corpus()
        let names = try Self.names(folder)
        XCTAssertGreaterThanOrEqual(names.count, 11, "pyarrow's files at least")
        for name in names {
            var reader = try GeoParquetReader(input: ByteInput(path: folder.appendingPathComponent(name + ".parquet").path))
            let features = try reader.readAll()
            let data = try Data(contentsOf: folder.appendingPathComponent(name + ".expected.json"))
            let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            XCTAssertEqual(features.count, expected.count, name)
            for (index, (feature, want)) in zip(features, expected).enumerated() {
                let where_ = "\(name) feature \(index)"
                Self.assertSame(Self.geometry(feature.shape), want["geometry"] ?? NSNull(), where_ + " geometry")
                Self.assertSame(Self.foundation(.object(feature.properties ?? JSONObject())), want["properties"] ?? NSNull(), where_ + " properties")
            }
        }
    }

    func testFormatIsRecognisedByExtensionAndBytes() throws {
        let folder = try Self.corpus()
        let path = folder.appendingPathComponent("codec_zstd.parquet").path
        XCTAssertEqual(FileFormat(pathExtensionOf: "x.parquet"), .geoparquet)
        XCTAssertEqual(FileFormat(pathExtensionOf: "x.GeoParquet"), .geoparquet)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(FileFormat(sniffing: Array(bytes.prefix(16))), .geoparquet)
        var reader = try FeatureIO.reader(for: ByteInput(bytes: bytes))
        XCTAssertEqual(try reader.readAll().count, 400)
    }

    func testGeometryColumnPicksAnotherGeometryColumn() throws {
        let folder = try Self.corpus()
        let path = folder.appendingPathComponent("two_geometries.parquet").path
        try Prerequisite.require(FileManager.default.fileExists(atPath: path), "geopandas missing: no file with two geometry columns")
        var reader = try GeoParquetReader(input: ByteInput(path: path), geometryColumn: "centroid")
        let features = try reader.readAll()
        let data = try Data(contentsOf: folder.appendingPathComponent("two_geometries.centroid.json"))
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [Any])
        XCTAssertEqual(features.count, expected.count)
        for (index, (feature, want)) in zip(features, expected).enumerated() {
            Self.assertSame(Self.geometry(feature.shape), want, "centroid \(index)")
            XCTAssertNil(feature.properties?["geometry"], "the other geometry column is not a property")
        }
        XCTAssertThrowsError(try GeoParquetReader(input: ByteInput(path: path), geometryColumn: "name")) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .geoparquetGeometryColumn)
        }
        XCTAssertThrowsError(try FeatureIO.reader(for: ByteInput(string: "{}", name: "x.geojson"), geometryColumn: "centroid")) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .geoparquetGeometryColumn)
        }
    }

    func testAProjectedCRSIsRefusedByName() throws {
        let folder = try Self.corpus()
        let path = folder.appendingPathComponent("refuse_utm.parquet").path
        try Prerequisite.require(FileManager.default.fileExists(atPath: path), "geopandas missing: no projected file written")
        XCTAssertThrowsError(try GeoParquetReader(input: ByteInput(path: path))) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code, .geoparquetUnsupportedCRS)
            XCTAssertTrue(diagnostic?.message.contains("EPSG:32633") == true, diagnostic?.message ?? "\(error)")
        }
    }

    func testDamagedFilesAreClearErrors() throws {
        let folder = try Self.corpus()
        let good = try Array(Data(contentsOf: folder.appendingPathComponent("codec_none.parquet")))
        func failure(_ bytes: [UInt8]) -> Diagnostic? {
            do {
                var reader = try GeoParquetReader(input: ByteInput(bytes: bytes, name: "damaged.parquet"))
                _ = try reader.readAll()
                return nil
            } catch {
                return error as? Diagnostic
            }
        }
        // A wrong magic, a truncated footer, a footer length past the file.
        XCTAssertEqual(failure(Array("PAR2".utf8) + good.dropFirst(4))?.code, .geoparquetBadFile)
        XCTAssertEqual(failure(Array(good.dropLast(100)))?.code, .geoparquetBadFile)
        var lying = good
        lying[good.count - 5] = 0x7F
        XCTAssertEqual(failure(lying)?.code, .geoparquetBadFile)
        // Every truncation and a byte flipped at many places: an error or the same rows, never a crash.
        for cut in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            var flipped = good
            flipped[cut] ^= 0xFF
            _ = failure(flipped)
            _ = failure(Array(good.prefix(cut)))
        }
    }

    func testInvalidWKBNamesRowGroupColumnAndRow() throws {
        let python = try Prerequisite.python(modules: ["pyarrow"], install: "pip install pyarrow")
        let folder = try Self.corpus()
        let path = folder.appendingPathComponent("bad_wkb.parquet").path
        let script = """
        import json, sys, pyarrow as pa, pyarrow.parquet as pq
        geo = {"version": "1.1.0", "primary_column": "geometry", "columns": {"geometry": {"encoding": "WKB", "geometry_types": []}}}
        good = bytes.fromhex("0101000000000000000000f03f0000000000000040")
        t = pa.table({"geometry": pa.array([good, good, good, bytes.fromhex("0102000000ffffff7f")], pa.binary())})
        pq.write_table(t.replace_schema_metadata({"geo": json.dumps(geo)}), sys.argv[1], row_group_size=2)
        """
        let run = try ToolRun.run(python, ["-c", script, path], mergingErrors: true)
        XCTAssertEqual(run.status, 0, run.text)
        var reader = try GeoParquetReader(input: ByteInput(path: path))
        XCTAssertThrowsError(try reader.readAll()) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code, .geoparquetInvalidGeometry)
            XCTAssertTrue(diagnostic?.message.contains("row group 1, column geometry, row 1") == true, diagnostic?.message ?? "\(error)")
        }
    }

    // MARK: comparison

    /// A shape as GeoJSON's geometry object (Foundation values), as shapely's `mapping` gives it.
    static func geometry(_ shape: Shape?) -> Any {
        func position(_ c: Coordinate) -> [Double] { [c.longitude, c.latitude] + (c.altitude.map { [$0] } ?? []) }
        func ring(_ polygon: Polygon) -> [[[Double]]] {
            [polygon.coordinates.map(position)] + polygon.interiorPolygons.map { $0.coordinates.map(position) }
        }
        guard let shape else { return NSNull() }
        switch shape {
        case .annotation(let point): return ["type": "Point", "coordinates": position(point.coordinate)]
        case .polyline(let line): return ["type": "LineString", "coordinates": line.coordinates.map(position)]
        case .polygon(let polygon): return ["type": "Polygon", "coordinates": ring(polygon)]
        case .multiPolyline(let multi): return ["type": "MultiLineString", "coordinates": multi.polylines.map { $0.coordinates.map(position) }]
        case .multiPolygon(let multi): return ["type": "MultiPolygon", "coordinates": multi.polygons.map(ring)]
        case .collection(let collection):
            if collection.origin == .multiPoint {
                return ["type": "MultiPoint", "coordinates": collection.members.compactMap { member -> [Double]? in
                    if case .annotation(let point) = member { return position(point.coordinate) }
                    return nil
                }]
            }
            return ["type": "GeometryCollection", "geometries": collection.members.map { geometry($0) }]
        case .circle: return ["type": "Circle"]
        }
    }

    /// A JSON value as Foundation values.
    static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .integer(let number): return Double(number)
        case .number(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map(foundation)
        case .object(let object): return Dictionary(object.members.map { ($0.key, foundation($0.value)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Deep equality; numbers within 1e-9 relative (Float columns are compared as written).
    static func assertSame(_ got: Any, _ want: Any, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        switch (got, want) {
        case (is NSNull, is NSNull): return
        case (let a as [String: Any], let b as [String: Any]):
            XCTAssertEqual(Set(a.keys), Set(b.keys), context, file: file, line: line)
            for (key, value) in b { if let mine = a[key] { assertSame(mine, value, context + "." + key, file: file, line: line) } }
        case (let a as [Any], let b as [Any]):
            XCTAssertEqual(a.count, b.count, context, file: file, line: line)
            for (index, (x, y)) in zip(a, b).enumerated() { assertSame(x, y, context + "[\(index)]", file: file, line: line) }
        case (let a as String, let b as String):
            XCTAssertEqual(a, b, context, file: file, line: line)
        case (let a as Bool, let b as NSNumber):
            XCTAssertEqual(a, b.boolValue, context, file: file, line: line)
        case (let a as Double, let b as NSNumber):
            XCTAssertEqual(a, b.doubleValue, accuracy: max(1e-9, abs(b.doubleValue) * 1e-9), context, file: file, line: line)
        case (let a as [Double], let b as [Any]):
            assertSame(a as [Any], b, context, file: file, line: line)
        default:
            XCTFail("\(context): \(got) is not \(want)", file: file, line: line)
        }
    }
}
