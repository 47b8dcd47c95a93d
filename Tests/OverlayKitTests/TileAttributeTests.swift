import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// tippecanoe's `-y`/`-x`/`-X` (``AttributeSelection``) and `-T` (``AttributeCoercion``) applied
/// when the source is projected: the same properties on one and on two read threads, in the
/// tiles' property table, the `vector_layers` fields and tilestats; and the metadata's attribution.
final class TileAttributeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-attributes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// 40 points with `name`, `pop` (text or a number), `ok` and `rank`, one per line.
    private func writeSequence() throws -> String {
        let lines = (0..<40).map { index in
            let pop = index % 4 == 0 ? #""\#(index * 10)""# : index % 4 == 1 ? #""many""# : "\(Double(index) + 0.5)"
            return #"{"type":"Feature","id":\#(index),"properties":{"name":"p\#(index)","pop":\#(pop),"ok":\#(index % 2 == 0),"rank":\#(index)},"geometry":{"type":"Point","coordinates":[\#(index),\#(index % 30)]}}"#
        }
        let url = folder.appendingPathComponent("points-\(UUID().uuidString).geojsonseq")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// The source read on `threads` threads, cut into parts as small as one record.
    private func source(_ path: String, threads: Int, options: TileOptions) throws -> TileSource {
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        return try TileSource(reading: &reader, options: options, readThreads: threads, minimumPartBytes: 1, onWarning: { _ in })
    }

    /// Reads on 1 and 2 threads, checks both agree (attributes, MVT table, uncoercible counts) and returns the one-thread source.
    private func readOnOneAndTwoThreads(_ options: TileOptions, file: StaticString = #filePath, line: UInt = #line) throws -> TileSource {
        let path = try writeSequence()
        let one = try source(path, threads: 1, options: options)
        let two = try source(path, threads: 2, options: options)
        XCTAssertEqual(two.attributes, one.attributes, file: file, line: line)
        XCTAssertEqual(two.propertyTable!.keyFields, one.propertyTable!.keyFields, file: file, line: line)
        XCTAssertEqual(two.propertyTable!.valueFields, one.propertyTable!.valueFields, file: file, line: line)
        XCTAssertEqual(two.propertyTable!.entries.map(\.tags), one.propertyTable!.entries.map(\.tags), file: file, line: line)
        XCTAssertEqual(two.uncoercibleValues, one.uncoercibleValues, file: file, line: line)
        XCTAssertEqual(two.unmatchedPropertyNames, one.unmatchedPropertyNames, file: file, line: line)
        return one
    }

    private func keys(_ source: TileSource) -> Set<String> {
        Set(source.attributes.flatMap { $0.properties?.keys ?? [] })
    }

    func testIncludeKeepsOnlyTheNamedPropertiesOnOneAndTwoThreads() throws {
        var options = TileOptions()
        options.attributes = AttributeSelection(included: ["name", "rank", "absent"])
        let source = try readOnOneAndTwoThreads(options)
        XCTAssertEqual(keys(source), ["name", "rank"])
        XCTAssertEqual(source.attributes[3].properties, ["name": .string("p3"), "rank": .integer(3)], "order kept")
        XCTAssertEqual(source.attributes[3].id, .integer(3), "ids are not properties")
    }

    func testNamesNoFeatureHasAreReported() throws {
        var options = TileOptions()
        options.attributes = AttributeSelection(included: ["name", "nmae"], excluded: ["rnak"])
        options.attributeTypes = AttributeCoercion(["pop": .int, "ppo": .int])
        XCTAssertEqual(try readOnOneAndTwoThreads(options).unmatchedPropertyNames, ["nmae", "ppo", "rnak"])

        var tiler = Tiler(output: folder.appendingPathComponent("typo").path, layer: "points")
        tiler.options.maxZoom = 0
        tiler.options.attributes = AttributeSelection(included: ["nmae"])
        var warnings = [Diagnostic]()
        var reader = try FeatureIO.reader(for: ByteInput(path: try writeSequence()))
        _ = try tiler.run(reading: &reader, onWarning: { warnings.append($0) })
        XCTAssertEqual(warnings.filter { $0.code == .tileAttributeNotFound }.map(\.message),
                       ["no tiled feature has a property named \"nmae\" (given to --include, --exclude or --attribute-type)"])
    }

    func testExcludeLeavesOutTheNamedPropertiesOnOneAndTwoThreads() throws {
        var options = TileOptions()
        options.attributes = AttributeSelection(excluded: ["pop", "ok"])
        let source = try readOnOneAndTwoThreads(options)
        XCTAssertEqual(keys(source), ["name", "rank"])
    }

    func testExcludeAllLeavesNoPropertiesButKeepsIdsOnOneAndTwoThreads() throws {
        var options = TileOptions()
        options.attributes = AttributeSelection(included: [])
        options.promoteID = "rank"
        let source = try readOnOneAndTwoThreads(options)
        XCTAssertEqual(keys(source), [])
        XCTAssertEqual(source.attributes[7].id, .integer(7), "the id is taken before the selection")
        XCTAssertTrue(source.propertyTable!.keyFields.isEmpty)
    }

    func testIncludeWithExcludeKeepsTheIncludedNotExcluded() {
        let selection = AttributeSelection(included: ["a", "b"], excluded: ["b"])
        XCTAssertEqual(selection.applied(to: ["a": .integer(1), "b": .integer(2), "c": .integer(3)]), ["a": .integer(1)])
        XCTAssertNil(selection.applied(to: nil), "null properties stay null")
        XCTAssertTrue(AttributeSelection().keepsEverything)
    }

    func testSelectionShowsInVectorLayersAndTileStats() throws {
        var tiler = Tiler(output: folder.appendingPathComponent("points.pmtiles").path, layer: "points")
        tiler.options.maxZoom = 1
        tiler.options.attributes = AttributeSelection(excluded: ["pop"])
        tiler.threads = 1
        var reader = try FeatureIO.reader(for: ByteInput(path: try writeSequence()))
        let report = try tiler.run(reading: &reader)
        let metadata = try TileArchive.open(tiler.output).metadata
        XCTAssertEqual(metadata.vectorLayers.first?.fields.map(\.name), ["name", "ok", "rank"])
        XCTAssertEqual(report.metadata.vectorLayers, metadata.vectorLayers)
        let stats = try XCTUnwrap(metadata.tileStats?.objectValue?["layers"])
        guard case .array(let layers) = stats, let attributes = layers.first?.objectValue?["attributes"],
              case .array(let entries) = attributes else { return XCTFail("no tilestats attributes") }
        XCTAssertEqual(entries.compactMap { $0.objectValue?["attribute"]?.stringValue }, ["name", "ok", "rank"])
        // The tiles carry what the metadata says.
        let tile = try XCTUnwrap(try TileArchive.open(tiler.output).tile(TileID(z: 0, x: 0, y: 0)))
        let layer = try XCTUnwrap(try MVTDecoder().decode(tile).first)
        XCTAssertEqual(Set(layer.keys), ["name", "ok", "rank"])
    }

    func testCoercionGivesOneTypeAndCountsValuesWithoutAReadingOnOneAndTwoThreads() throws {
        var options = TileOptions()
        options.attributeTypes = AttributeCoercion(["pop": .int, "ok": .string, "rank": .float])
        let source = try readOnOneAndTwoThreads(options)
        // pop: "0" → 0, "many" → left out, 2.5 → 3 (halves away from zero), "30" → 30.
        XCTAssertEqual(source.attributes[0].properties?["pop"], .integer(0))
        XCTAssertNil(source.attributes[1].properties?["pop"])
        XCTAssertEqual(source.attributes[2].properties?["pop"], .integer(3))
        XCTAssertEqual(source.attributes[4].properties?["pop"], .integer(40))
        XCTAssertEqual(source.attributes[0].properties?["ok"], .string("true"))
        XCTAssertEqual(source.attributes[5].properties?["rank"], .number(5))
        XCTAssertEqual(source.uncoercibleValues, ["pop": 10])
        let fields = TileSetMetadata.VectorLayer.Field.fields(of: source.attributes.map(\.properties))
        XCTAssertEqual(fields.map(\.type), ["String", "Number", "String", "Number"], "one type per field, none Mixed")
    }

    func testTilerWarnsOnceWithTheCount() throws {
        var tiler = Tiler(output: folder.appendingPathComponent("points").path, layer: "points")
        tiler.options.maxZoom = 0
        tiler.options.attributeTypes = AttributeCoercion(["pop": .float])
        var warnings = [Diagnostic]()
        var reader = try FeatureIO.reader(for: ByteInput(path: try writeSequence()))
        _ = try tiler.run(reading: &reader, onWarning: { warnings.append($0) })
        let coercion = warnings.filter { $0.code == .tileAttributeType }
        XCTAssertEqual(coercion.count, 1, "\(warnings)")
        XCTAssertTrue(coercion.first?.message.contains("10 of \"pop\" (not float)") ?? false, "\(coercion)")
    }

    func testCoercionRules() {
        func coerce(_ value: JSONValue, _ type: AttributeType) -> JSONValue? { AttributeCoercion.coerce(value, to: type) }
        XCTAssertEqual(coerce(.string(" 12 "), .int), .integer(12))
        XCTAssertEqual(coerce(.string("-2.5"), .int), .integer(-3))
        XCTAssertEqual(coerce(.string("1e3"), .int), .integer(1000))
        XCTAssertEqual(coerce(.string("+7"), .float), .number(7))
        for text in ["nan", "inf", "0x10", "1e999", "", "-", "1.", ".5", "1e", "12abc"] {
            XCTAssertNil(coerce(.string(text), .float), text)
        }
        XCTAssertNil(coerce(.number(1e19), .int), "beyond Int64")
        XCTAssertNil(coerce(.array([]), .int))
        XCTAssertEqual(coerce(.bool(true), .int), .integer(1))
        XCTAssertEqual(coerce(.integer(3), .float), .number(3))
        XCTAssertEqual(coerce(.null, .int), .null)
        XCTAssertEqual(coerce(.number(1.5), .string), .string("1.5"))
        XCTAssertEqual(coerce(.integer(42), .string), .string("42"))
        XCTAssertEqual(coerce(.array([.integer(1)]), .string), .string("[1]"))
        XCTAssertEqual(coerce(.null, .string), .null)
        for falsy: JSONValue in [.integer(0), .number(0), .bool(false), .null, .string("")] {
            XCTAssertEqual(coerce(falsy, .bool), .bool(false), "\(falsy)")
        }
        for truthy: JSONValue in [.integer(2), .string("false"), .string("0"), .array([])] {
            XCTAssertEqual(coerce(truthy, .bool), .bool(true), "\(truthy)")
        }
    }

    func testNameDescriptionAndAttributionInEveryFormat() throws {
        for name in ["a.pmtiles", "a.mbtiles", "a"] {
            var tiler = Tiler(output: folder.appendingPathComponent(name).path, layer: "points")
            tiler.options.maxZoom = 0
            tiler.name = "Points"
            tiler.description = "Forty points"
            tiler.attribution = "<a href=\"https://example.org\">© Example</a>"
            var reader = try FeatureIO.reader(for: ByteInput(path: try writeSequence()))
            let report = try tiler.run(reading: &reader)
            let metadata = try TileArchive.open(tiler.output).metadata
            XCTAssertEqual(metadata.name, "Points", name)
            XCTAssertEqual(metadata.description, "Forty points", name)
            XCTAssertEqual(metadata.attribution, tiler.attribution, name)
            XCTAssertEqual(report.metadata.attribution, tiler.attribution, name)
        }
        var empty = TileSetMetadata(name: "", bounds: nil, center: nil, minZoom: 0, maxZoom: 0, vectorLayers: [])
        XCTAssertNil(empty.attribution)
        empty.attribution = "x"
        empty.attribution = nil
        XCTAssertTrue(empty.other.isEmpty)
    }
}
