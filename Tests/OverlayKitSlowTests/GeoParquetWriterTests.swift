import Foundation
@testable import OverlayKit
import TestSupport
import XCTest

/// GeoParquetWriter: files written here are read back by GeoParquetReader (equal features), by
/// pyarrow/geopandas and DuckDB spatial (Tests/Scripts/geoparquet_check.py) and checked by
/// geoparquet-validator; the pieces (levels, Thrift, spill, Hilbert order) against their readers.
final class GeoParquetWriterTests: XCTestCase {
    /// Features of every shape and property type the writer maps.
    static func sampleFeatures() -> [Feature] {
        func c(_ lon: Double, _ lat: Double, _ alt: Double? = nil) -> Coordinate { Coordinate(latitude: lat, longitude: lon, altitude: alt) }
        let square = Polygon(coordinates: [c(0, 0), c(4, 0), c(4, 4), c(0, 4), c(0, 0)],
                             interiorPolygons: [Polygon(coordinates: [c(1, 1), c(1, 2), c(2, 2), c(2, 1), c(1, 1)])])
        let shapes: [Shape?] = [
            .annotation(PointAnnotation(coordinate: c(13.4, 52.5))),
            .circle(Circle(center: c(2.35, 48.85), radius: 250)),
            .polyline(Polyline(coordinates: [c(0, 0), c(1, 1), c(2, 0.5)])),
            .polygon(square),
            .multiPolygon(MultiPolygon([square, Polygon(coordinates: [c(10, 10), c(11, 10), c(11, 11), c(10, 10)])])),
            .multiPolyline(MultiPolyline([Polyline(coordinates: [c(5, 5), c(6, 6)]), Polyline(coordinates: [c(7, 7), c(8, 8)])])),
            .collection(ShapeCollection(members: [.annotation(PointAnnotation(coordinate: c(1, 2))), .annotation(PointAnnotation(coordinate: c(3, 4)))], origin: .multiPoint)),
            .collection(ShapeCollection(members: [.annotation(PointAnnotation(coordinate: c(1, 2))), .polyline(Polyline(coordinates: [c(0, 0), c(1, 1)]))], origin: .geometryCollection)),
            .annotation(PointAnnotation(coordinate: c(-70.5, -33.4, 520))),
            nil,
        ]
        return shapes.enumerated().map { index, shape in
            var properties: JSONObject = ["n": .integer(Int64(index)), "label": .string("f\(index)"), "ok": .bool(index % 2 == 0)]
            properties["ratio"] = index % 3 == 0 ? .integer(Int64(index)) : .number(Double(index) + 0.5)
            properties["mixed"] = index % 2 == 0 ? .string("s") : .integer(7)
            properties["nested"] = .object(["a": .array([.integer(1), .null, .string("x")])])
            // Columns come back in the order keys were first seen.
            properties["explicit"] = index == 6 ? .number(1.5) : .null
            if index % 4 == 1 { properties["sometimes"] = .string("here") }
            return Feature(id: .integer(Int64(100 + index)), properties: properties, shape: shape,
                           folderPath: index < 3 ? ["Trips", "2024"] : [])
        }
    }

    /// `features` written as GeoParquet.
    static func parquet(_ features: [Feature], _ options: GeoParquetWriteOptions = GeoParquetWriteOptions(),
                        members: JSONObject = JSONObject()) throws -> (bytes: [UInt8], warnings: [Diagnostic]) {
        let output = ByteOutput()
        var writer = GeoParquetWriter(output: output, options: WriterOptions(geoParquet: options))
        var warnings: [Diagnostic] = []
        for feature in features {
            try writer.write(feature)
            warnings += writer.takeWarnings()
        }
        warnings += writer.carry(DocumentContext(collectionMembers: members))
        try writer.finish()
        return (output.bytes, warnings + writer.takeWarnings())
    }

    /// The sample features as they read back: `ratio` mixes integers and doubles, so its
    /// column is DOUBLE.
    static func widened(_ features: [Feature]) -> [Feature] {
        features.map { feature in
            var feature = feature
            if let ratio = feature.properties?["ratio"]?.doubleValue { feature.properties?["ratio"] = .number(ratio) }
            return feature
        }
    }

    /// A feature as the GeoJSON writer writes it (17 decimals): what two readings must share.
    static func json(_ feature: Feature) -> String {
        String(decoding: GeoJSONWriter.encode(feature, options: WriterOptions(precision: 17)), as: UTF8.self)
    }

    func testEveryShapeAndTypeReadsBackEqual() throws {
        let features = Self.sampleFeatures()
        for version in GeoParquetWriteOptions.Version.allCases {
            for compression in GeoParquetWriteOptions.Compression.allCases {
                let options = GeoParquetWriteOptions(version: version, compression: compression, rowGroupRows: 3)
                let (bytes, warnings) = try Self.parquet(features, options, members: ["name": .string("Sample")])
                XCTAssertEqual(warnings, [], "\(version) \(compression)")
                var reader = try GeoParquetReader(input: ByteInput(bytes: bytes))
                let read = try reader.readAll()
                for (got, want) in zip(read.map(Self.json), Self.widened(features).map(Self.json)) {
                    XCTAssertEqual(got, want, "\(version) \(compression)")
                }
                XCTAssertEqual(read.map(\.folderPath), features.map(\.folderPath))
                XCTAssertEqual(reader.documentContext.collectionMembers, ["name": .string("Sample")])
                if case .circle(let circle)? = read[1].shape { XCTAssertEqual(circle.radius, 250) } else { XCTFail("the circle reads back as \(String(describing: read[1].shape))") }
                let footer = try Self.footer(bytes)
                XCTAssertEqual(footer.rowGroups.count, 4, "10 rows in groups of 3")
                XCTAssertEqual(footer.rowGroups.first?.columns.first?.codec, options.codec.rawValue)
                let geometry = try XCTUnwrap(footer.schema.first { $0.name == "geometry" })
                XCTAssertEqual(geometry.logicalType, version == .v2_0 ? .geometry(crs: nil) : nil)
            }
        }
    }

    func testColumnTypesAreUnifiedPerKey() throws {
        let footer = try Self.footer(try Self.parquet(Self.sampleFeatures()).bytes)
        func element(_ name: String) throws -> ParquetFooter.SchemaElement { try XCTUnwrap(footer.schema.first { $0.name == name }, name) }
        XCTAssertEqual(try element("id").physicalType, .int64)
        XCTAssertEqual(try element("n").physicalType, .int64)
        XCTAssertEqual(try element("ratio").physicalType, .double, "integers and doubles")
        XCTAssertEqual(try element("label").logicalType, .string)
        XCTAssertEqual(try element("ok").physicalType, .boolean)
        XCTAssertEqual(try element("mixed").logicalType, .json, "strings and integers")
        XCTAssertEqual(try element("nested").logicalType, .json, "objects")
        XCTAssertEqual(try element("folders").logicalType, .list)
        XCTAssertEqual(try element("xmin").physicalType, .double)
        let geo = try XCTUnwrap(footer.keyValues.first { $0.key == "geo" }?.value)
        XCTAssertTrue(geo.contains("\"version\":\"1.1.0\""), geo)
        XCTAssertTrue(geo.contains("\"geometry_types\":[\"Point\",\"LineString\",\"Polygon\",\"MultiPoint\",\"MultiLineString\",\"MultiPolygon\",\"GeometryCollection\",\"Point Z\"]"), geo)
        XCTAssertTrue(geo.contains("\"bbox\":[-70.5,-33.4,13.4,52.5]"), geo)
        XCTAssertTrue(geo.contains("\"covering\":{\"bbox\":{\"xmin\":[\"bbox\",\"xmin\"]"), geo)
        XCTAssertFalse(geo.contains("crs"), "absent crs is OGC:CRS84")
    }

    func testPropertiesThatClashWithTheWritersColumnsAreRenamed() throws {
        let feature = Feature(id: .string("a"), properties: ["id": .integer(1), "geometry": .string("g"), "bbox": .null], shape: nil)
        let (bytes, warnings) = try Self.parquet([feature])
        XCTAssertEqual(warnings.map(\.code), [.outputDuplicateNameRenamed, .outputDuplicateNameRenamed, .outputDuplicateNameRenamed])
        var reader = try GeoParquetReader(input: ByteInput(bytes: bytes))
        let read = try XCTUnwrap(try reader.next())
        XCTAssertEqual(read.id, .string("a"))
        XCTAssertEqual(read.properties, ["id_2": .integer(1), "geometry_2": .string("g"), "bbox_2": .null])
    }

    func testKMLStylesTravelAsSimplestyleAndWhatCannotIsNamed() throws {
        var style = Style()
        style.strokeColor = RGBAColor(red: 255, green: 0, blue: 0)
        style.icon = IconStyle(href: "pin.png")
        let feature = Feature(properties: ["name": .string("x")], shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 1, longitude: 2))),
                              style: style, highlightStyle: style, foreignMembers: ["bbox": .array([])])
        let (bytes, warnings) = try Self.parquet([feature])
        XCTAssertEqual(warnings.map(\.code), [.outputStyleDropped, .outputStyleDropped, .convertDroppedMembers])
        XCTAssertTrue(warnings[0].message.contains("highlight"), warnings[0].message)
        XCTAssertTrue(warnings[2].message.contains("bbox"), warnings[2].message)
        var reader = try GeoParquetReader(input: ByteInput(bytes: bytes))
        let read = try XCTUnwrap(try reader.next())
        XCTAssertEqual(read.properties?["stroke"], .string("#ff0000"))
        XCTAssertEqual(read.style?.strokeColor, style.strokeColor)
    }

    func testBBoxColumnCarriesMinMaxStatisticsPerRowGroup() throws {
        let python = try Prerequisite.python(modules: ["pyarrow"], install: "pip install pyarrow")
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("stats.parquet").path
        try Data(try Self.parquet(Self.sampleFeatures(), GeoParquetWriteOptions(rowGroupRows: 4)).bytes).write(to: URL(fileURLWithPath: path))
        let script = """
            import sys, pyarrow.parquet as pq
            m = pq.ParquetFile(sys.argv[1]).metadata
            names = [m.schema.column(i).path for i in range(m.num_columns)]
            for g in range(m.num_row_groups):
                s = m.row_group(g).column(names.index("bbox.xmin")).statistics
                print(g, s.has_min_max, s.min, m.row_group(g).column(names.index("bbox.ymax")).statistics.max)
            """
        let run = try ToolRun.run(python, ["-c", script, path], mergingErrors: true)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(run.text.split(separator: "\n").map(String.init), ["0 True -0.0 52.5", "1 True -0.0 11.0", "2 True -70.5 -33.4"])
    }

    func testPyArrowGeopandasAndDuckDBReadTheSameFeatures() throws {
        let python = try Prerequisite.python(modules: ["pyarrow", "shapely", "geopandas"], install: "pip install pyarrow shapely geopandas")
        let duckDB = (try? Prerequisite.python(modules: ["duckdb", "duckdb_extension_spatial"], install: "pip install duckdb duckdb-extension-spatial")) != nil
        let folder = try temporaryFolder()
        let features = Self.widened(Self.sampleFeatures())
        let expected = folder.appendingPathComponent("expected.geojsonl")
        try Data((features.map(Self.json).joined(separator: "\n") + "\n").utf8).write(to: expected)
        let script = TestLocations.packageRoot.appendingPathComponent("Tests/Scripts/geoparquet_check.py").path
        for (name, options) in [("v11", GeoParquetWriteOptions(rowGroupRows: 3)),
                                ("v20", GeoParquetWriteOptions(version: .v2_0, compression: .snappy)),
                                ("hilbert", GeoParquetWriteOptions(compression: .gzip, rowGroupRows: 2, order: .hilbert))] {
            let path = folder.appendingPathComponent(name + ".parquet").path
            try Data(try Self.parquet(features, options).bytes).write(to: URL(fileURLWithPath: path))
            var arguments = [script, path, expected.path]
            if options.version == .v2_0, duckDB { arguments.append("--duckdb") }
            if options.order == .hilbert { arguments.append("--any-order") }
            let run = try ToolRun.run(python, arguments, mergingErrors: true)
            XCTAssertEqual(run.status, 0, "\(name): \(run.text)")
            XCTAssertEqual(run.text, "ok 10\n", name)
        }
    }

    func testValidatorFindsVersion11AndVersion20Conformant() throws {
        let validator = try Prerequisite.executable("geoparquet-validator", install: "pip install geoparquet-validator")
        let folder = try temporaryFolder()
        for version in GeoParquetWriteOptions.Version.allCases {
            let path = folder.appendingPathComponent("v\(version.rawValue).parquet").path
            try Data(try Self.parquet(Self.sampleFeatures(), GeoParquetWriteOptions(version: version, rowGroupRows: 4, order: .hilbert)).bytes)
                .write(to: URL(fileURLWithPath: path))
            let run = try ToolRun.run(validator, ["check", path], mergingErrors: true)
            XCTAssertEqual(run.status, 0, run.text)
            XCTAssertFalse(run.text.contains("FAIL"), run.text)
            XCTAssertEqual(run.text.components(separatedBy: ", 0 fail,").count - 1, 3, "core, covering, distribution: \(run.text)")
        }
    }

    func testSpillMergesSortedRunsFromDiskInKeyThenInputOrder() throws {
        for sorted in [false, true] {
            let spill = GeoParquetSpill(sorted: sorted, memoryBudget: 64)
            var keys: [UInt64] = []
            for index in 0..<500 {
                let key = UInt64((index * 7919) % 37)
                keys.append(key)
                try spill.append(Array("record \(index)".utf8), key: key)
            }
            var read: [Int] = []
            try spill.forEach { read.append(Int(String(decoding: $0.dropFirst(7), as: UTF8.self))!) }
            let expected = sorted ? Array(0..<500).sorted { (keys[$0], $0) < (keys[$1], $1) } : Array(0..<500)
            XCTAssertEqual(read, expected, sorted ? "key order, ties in input order" : "input order")
        }
    }

    func testHilbertOrderMakesRowGroupsCompact() throws {
        // A grid of points visited row by row: in input order each row group of 16 spans the
        // whole width; in Hilbert order each is a small block.
        var features: [Feature] = []
        for y in 0..<16 {
            for x in 0..<16 {
                features.append(Feature(properties: nil, shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 20 + Double(y), longitude: 20 + Double(x))))))
            }
        }
        func meanGroupSpan(_ order: GeoParquetWriteOptions.Order) throws -> Double {
            var reader = try GeoParquetReader(input: ByteInput(bytes: try Self.parquet(features, GeoParquetWriteOptions(rowGroupRows: 16, order: order)).bytes))
            let read = try reader.readAll()
            // The groups' mean width + height in degrees.
            let spans = stride(from: 0, to: read.count, by: 16).map { start in
                let points = read[start..<(start + 16)].compactMap { feature -> Coordinate? in
                    if case .annotation(let point)? = feature.shape { point.coordinate } else { nil }
                }
                let longitudes = points.map(\.longitude), latitudes = points.map(\.latitude)
                return longitudes.max()! - longitudes.min()! + latitudes.max()! - latitudes.min()!
            }
            return spans.reduce(0, +) / Double(spans.count)
        }
        XCTAssertEqual(try meanGroupSpan(.input), 15, "a row of the grid")
        XCTAssertLessThanOrEqual(try meanGroupSpan(.hilbert), 9, "blocks of the grid (4 + 4 for a block of 4 × 4)")
    }

    func testLevelsAndThriftReadBackThroughTheReadersDecoders() throws {
        var values: [UInt32] = []
        for index in 0..<1000 { values.append(index < 300 ? 1 : (index < 333 ? UInt32(index % 2) : (index % 17 == 0 ? 0 : 1))) }
        for width in [1, 2] {
            var encoder = RLEHybridEncoder(bitWidth: width)
            for value in values { encoder.append(value) }
            encoder.finish()
            XCTAssertEqual(try RLEHybridDecoder.decode(encoder.bytes[...], bitWidth: width, count: values.count), values.map { Int32($0) })
        }
        var thrift = CompactThriftEncoder()
        thrift.field(1, i32: -5)
        thrift.field(3, string: "abc")
        thrift.field(20, i64: 1 << 40)
        thrift.beginStruct(21)
        thrift.field(1, double: 2.5)
        thrift.field(2, bool: true)
        thrift.endStruct()
        thrift.field(22, stringList: (0..<20).map(String.init))
        thrift.endStruct()
        var decoder = CompactThriftDecoder(thrift.bytes)
        let decoded = try decoder.readStruct()
        XCTAssertEqual(decoded.int(1), -5)
        XCTAssertEqual(decoded[3]?.string, "abc")
        XCTAssertEqual(decoded[20]?.integer, 1 << 40)
        XCTAssertEqual(decoded[21]?.structure?.int(2), 1)
        XCTAssertEqual(decoded[22]?.list?.count, 20)
    }

    func testNoFeaturesIsAValidEmptyFile() throws {
        var reader = try GeoParquetReader(input: ByteInput(bytes: try Self.parquet([]).bytes))
        XCTAssertNil(try reader.next())
    }

    /// The footer of a file in memory.
    static func footer(_ bytes: [UInt8]) throws -> ParquetFooter {
        let length = Int(bytes[bytes.count - 8]) | Int(bytes[bytes.count - 7]) << 8 | Int(bytes[bytes.count - 6]) << 16 | Int(bytes[bytes.count - 5]) << 24
        return try ParquetFooter(thrift: Array(bytes[(bytes.count - 8 - length)..<(bytes.count - 8)]), fileSize: Int64(bytes.count - 8 - length))
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-gpq-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}
