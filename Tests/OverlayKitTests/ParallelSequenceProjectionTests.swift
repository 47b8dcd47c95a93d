import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// The parallel read of a GeoJSON text sequence gives what one reader gives: the same projected
/// features, attributes, counts and extents, the same warnings in the same order with the same
/// lines and JSON Pointers, and the same first error.
final class ParallelSequenceProjectionTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// What a read gave, in comparable form.
    private struct Result: Equatable {
        var attributes: [TileAttributes] = []
        var features: [ProjectedFeature] = []
        var counts = TileInputCounts()
        var bounds = MapRect.null
        var westEast: [Double] = []
        /// The MVT property table: key and value fields, and per feature its tags and losses.
        var keyFields: [[UInt8]] = []
        var valueFields: [[UInt8]] = []
        var tags: [[UInt32]] = []
        var losses: [[Int]] = []
        var warnings: [String] = []
        var error: String?
    }

    private func read(_ path: String, threads: Int, options: TileOptions) -> Result {
        var result = Result()
        do {
            var reader = try FeatureIO.reader(for: ByteInput(path: path))
            let source = try TileSource(reading: &reader, options: options, readThreads: threads, minimumPartBytes: 1,
                                        onWarning: { result.warnings.append($0.description) })
            result.attributes = source.attributes
            result.features = source.features
            result.counts = source.inputCounts
            result.bounds = source.boundingMapRect
            if let extent = source.longitudeExtent.westEast { result.westEast = [extent.west, extent.east] }
            result.keyFields = source.propertyTable!.keyFields
            result.valueFields = source.propertyTable!.valueFields
            result.tags = source.propertyTable!.entries.map(\.tags)
            result.losses = source.propertyTable!.entries.map { [$0.nullValues, $0.jsonValues] }
        } catch {
            result.error = "\(error)"
        }
        return result
    }

    /// Writes `text`, checks it is cut into several parts, and compares 1 thread with 2, 3 and 5.
    @discardableResult
    private func assertSameAsOneThread(_ text: String, options: TileOptions = TileOptions(),
                                       file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let url = folder.appendingPathComponent("input-\(UUID().uuidString).geojsonseq")
        try Data(text.utf8).write(to: url)
        let size = text.utf8.count
        let parts = try SequenceRecordBoundaries.ranges(of: ByteInput(path: url.path), size: size, parts: 3, minimumBytes: 1)
        XCTAssertGreaterThan(parts.count, 1, "the input must be cut for the test to mean anything", file: file, line: line)
        let one = read(url.path, threads: 1, options: options)
        for threads in [2, 3, 5] {
            let many = read(url.path, threads: threads, options: options)
            XCTAssertEqual(many, one, "\(threads) threads", file: file, line: line)
        }
        return one
    }

    /// Records of every kind, with warnings (a one-position line, a polar latitude, a duplicate
    /// member) spread over the file, and a FeatureCollection on four lines among them.
    private func records(count: Int) -> [String] {
        (0..<count).map { index in
            switch index % 5 {
            case 0: return #"{"type":"Feature","id":\#(index),"properties":{"n":\#(index),"name":"a\#(index)"},"geometry":{"type":"Polygon","coordinates":[[[\#(index % 170),1],[\#(index % 170 + 1),1],[\#(index % 170 + 1),2],[\#(index % 170),1]]]}}"#
            case 1: return #"{"type":"Feature","properties":{"n":\#(index)},"geometry":{"type":"LineString","coordinates":[[179,\#(index % 80)]]}}"#
            case 2: return #"{"type":"Feature","id":"s\#(index)","properties":{"n":\#(index),"n":1},"geometry":{"type":"Point","coordinates":[-179.5,89.5]}}"#
            case 3: return "{\"type\":\"FeatureCollection\",\"features\":[\n {\"type\":\"Feature\",\"properties\":null,\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[170,\(index % 60)],[-170,1],[5,6]]}},\n {\"type\":\"Feature\",\"properties\":{\"k\":[1,{\"x\":null}]},\"geometry\":null}\n]}"
            default: return #"{"type":"Point","coordinates":[\#(Double(index) / 7),-3]}"#
            }
        }
    }

    func testNewlineDelimitedSequenceMatchesOneThread() throws {
        let result = try assertSameAsOneThread(records(count: 60).joined(separator: "\n") + "\n")
        XCTAssertNil(result.error)
        XCTAssertEqual(result.warnings.count, 24)
        XCTAssertEqual(result.keyFields.count, 3)
        XCTAssertGreaterThan(result.valueFields.count, 30)
        // Located in the whole file: record 57 is on line 91 (eleven 4-line collections before it).
        XCTAssertTrue(result.warnings.contains { $0.contains(":91:43:") && $0.contains("(/57/properties/n)") }, "\(result.warnings)")
    }

    func testCRLFAndRecordSeparatorSequencesMatchOneThread() throws {
        try assertSameAsOneThread(records(count: 40).joined(separator: "\r\n") + "\r\n")
        try assertSameAsOneThread(records(count: 40).map { "\u{1E}" + $0 + "\n" }.joined())
        try assertSameAsOneThread(records(count: 40).map { "\u{1E}" + $0 + "\r\n\r\n" }.joined())
    }

    func testGeneratedAndPromotedIdsMatchOneThread() throws {
        var generated = TileOptions()
        generated.generateID = true
        let result = try assertSameAsOneThread(records(count: 30).joined(separator: "\n"), options: generated)
        XCTAssertEqual(result.attributes.last?.id, .integer(Int64(result.attributes.count - 1)))
        var promoted = TileOptions()
        promoted.promoteID = "n"
        try assertSameAsOneThread(records(count: 30).joined(separator: "\n"), options: promoted)
    }

    func testBadRecordInTheMiddleGivesTheSameErrorAndWarnings() throws {
        var lines = records(count: 50)
        lines[31] = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2],[3,"x"]]}}"#
        let result = try assertSameAsOneThread(lines.joined(separator: "\n") + "\n")
        let error = try XCTUnwrap(result.error)
        // Six FeatureCollections of four lines before record 31: line 32 + 18 = 50.
        XCTAssertTrue(error.contains(":50:91:"), error)
        XCTAssertTrue(error.contains("(/31/geometry/coordinates/1/1)"), error)
    }

    /// Invalid text whose cut falls inside a value: the part before it fails at its end, and the
    /// error must still be the one a single reader finds further on.
    func testCutInsideInvalidTextGivesTheSingleReaderError() throws {
        var lines = records(count: 30)
        lines[12] = "{\"type\":\"Feature\",\"properties\":{\"a\":{\"b\":1}\n}\n{\"c\":2},\"geometry\":null}"
        let text = lines.joined(separator: "\n")
        try assertSameAsOneThread(text)
        // Cut exactly inside record 12, where `}` newline `{` looks like a boundary.
        let url = folder.appendingPathComponent("cut.geojsonseq")
        try Data(text.utf8).write(to: url)
        let recordStart = lines.prefix(12).reduce(0) { $0 + $1.utf8.count + 1 }
        let one = read(url.path, threads: 1, options: TileOptions())
        let file = try ByteInput(path: url.path)
        let cut = try XCTUnwrap(SequenceRecordBoundaries.boundary(in: file, from: recordStart + 1, to: text.utf8.count))
        XCTAssertLessThan(cut, recordStart + lines[12].utf8.count, "the cut must fall inside the bad record")
        var warnings = [String]()
        var error: String?
        do {
            _ = try ParallelSequenceProjection.project(file, parts: [0..<cut, cut..<text.utf8.count], options: TileOptions(),
                                                       onWarning: { warnings.append($0.description) })
        } catch let thrown {
            error = "\(thrown)"
        }
        XCTAssertEqual(warnings, one.warnings)
        XCTAssertEqual(error, one.error)
        XCTAssertNotNil(error)
    }

    func testDocumentThatIsNotASequenceIsNotCut() throws {
        let collection = "{\"type\":\"FeatureCollection\",\"features\":[\n" + (0..<20).map { _ in
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        }.joined(separator: ",\n") + "\n]}\n"
        let url = folder.appendingPathComponent("collection.geojson")
        try Data(collection.utf8).write(to: url)
        let parts = try SequenceRecordBoundaries.ranges(of: ByteInput(path: url.path), size: collection.utf8.count,
                                                        parts: 4, minimumBytes: 1)
        XCTAssertEqual(parts, [0..<collection.utf8.count])
        XCTAssertEqual(read(url.path, threads: 4, options: TileOptions()), read(url.path, threads: 1, options: TileOptions()))
    }

    func testMergedLongitudeExtentEqualsOneExtent() {
        let shapes: [Shape] = [
            .polyline(Polyline(coordinates: [Coordinate(latitude: 0, longitude: 170), Coordinate(latitude: 1, longitude: -170)])),
            .annotation(PointAnnotation(coordinate: Coordinate(latitude: 0, longitude: -0.0))),
            .annotation(PointAnnotation(coordinate: Coordinate(latitude: 0, longitude: 0))),
            .polyline(Polyline(coordinates: [Coordinate(latitude: 0, longitude: 10), Coordinate(latitude: 1, longitude: 60)])),
        ]
        var whole = LongitudeExtent()
        shapes.forEach { whole.add($0) }
        var first = LongitudeExtent(), second = LongitudeExtent()
        shapes.prefix(2).forEach { first.add($0) }
        shapes.dropFirst(2).forEach { second.add($0) }
        first.merge(second)
        XCTAssertEqual(first.westEast?.west, whole.westEast?.west)
        XCTAssertEqual(first.westEast?.east, whole.westEast?.east)
        XCTAssertNotNil(whole.westEast)
    }
}
