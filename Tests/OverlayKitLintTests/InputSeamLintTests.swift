import Foundation
import TestSupport
import XCTest

/// One input seam (issue 47): no source asks which reader it holds; what differs between
/// formats is a ``FeatureReader`` requirement every reader answers.
final class InputSeamLintTests: XCTestCase {
    func testNoSourceDowncastsAFeatureReader() throws {
        let sources = TestLocations.packageRoot.appendingPathComponent("Sources")
        let readers = "(GeoJSONReader|GeoParquetReader|KMLReader|ReadAheadFeatureReader|FeatureArrayReader|TileSetFeatureReader)"
        let downcast = try NSRegularExpression(pattern: #"\bas[?!]\s*"# + readers + #"\b|\bis\s+"# + readers + #"\b"#)
        var found = [String]()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if downcast.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append("\(file.path.dropFirst(sources.path.count + 1)):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(found, [], "ask the reader (FeatureReader's requirements), not its type")
    }
}
