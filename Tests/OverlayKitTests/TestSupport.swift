import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// Paths shared by tests: the package root and the peer corpus beside it.
enum TestPaths {
    static let packageRoot = TestLocations.packageRoot
    static let corpus = TestLocations.corpus

    /// A file or folder of the corpus, or an XCTSkip naming where it was looked for.
    static func corpusFolder(_ name: String) throws -> URL {
        try Prerequisite.corpus(name)
    }

}

/// Reads every feature of a GeoJSON text, with warnings.
func readGeoJSON(_ text: String, bufferSize: Int? = nil) throws -> (features: [Feature], warnings: [Diagnostic]) {
    let input = ByteInput(string: text, name: "test.geojson")
    var reader = bufferSize.map { GeoJSONReader(input: input, initialBufferSize: $0) } ?? GeoJSONReader(input: input)
    var features: [Feature] = []
    var warnings: [Diagnostic] = []
    while let feature = try reader.next() {
        features.append(feature)
        warnings += reader.takeWarnings()
    }
    warnings += reader.takeWarnings()
    return (features, warnings)
}

/// The diagnostic a GeoJSON text fails with.
func geoJSONError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
    do {
        _ = try readGeoJSON(text)
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch let diagnostic as Diagnostic {
        return diagnostic
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
        return nil
    }
}

/// Writes features with a GeoJSON writer into memory and returns the text.
func writeGeoJSON(_ features: [Feature], sequence: Bool = false, precision: Int = 7) throws -> String {
    let output = ByteOutput()
    var writer = GeoJSONWriter(output: output, options: WriterOptions(precision: precision), sequence: sequence)
    for feature in features { try writer.write(feature) }
    try writer.finish()
    return String(decoding: output.bytes, as: UTF8.self)
}

/// `xmllint --schema` with the OGC KML 2.2 schema of the corpus: made first in a test (it
/// skips without the corpus or xmllint), then asked about files.
struct KMLSchemaCheck {
    let xmllint: String
    let schema: URL

    /// The check, or a skip naming what is missing.
    init() throws {
        schema = try Prerequisite.corpus("schemas/kml22-offline/ogckml22.xsd")
        xmllint = try Prerequisite.executable("xmllint", install: "Debian: libxml2-utils")
    }

    /// xmllint's status and output for one file.
    func run(_ file: URL) throws -> (Int32, String) {
        try KMLTestSupport.run(xmllint, ["--noout", "--schema", schema.path, file.path])
    }

    /// The lines of xmllint's output about files that do not validate (empty when all do).
    func failures(_ files: [URL]) throws -> [String] {
        guard !files.isEmpty else { return [] }
        let (_, output) = try KMLTestSupport.run(xmllint, ["--noout", "--schema", schema.path] + files.map(\.path))
        let validated = output.split(separator: "\n").filter { $0.hasSuffix(" validates") }.count
        return validated == files.count ? [] : output.split(separator: "\n").filter { !$0.hasSuffix(" validates") }.map(String.init)
    }
}
