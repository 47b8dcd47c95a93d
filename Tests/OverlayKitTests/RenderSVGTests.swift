import XCTest
@testable import OverlayKit
import OverlayModel

final class RenderSVGTests: XCTestCase {
    private func svg(_ geoJSON: String, styleSheet: StyleSheet = StyleSheet()) throws -> String {
        let features = try RenderFixtures.features(geoJSON)
        let options = RenderOptions(width: 400, height: 300, styleSheet: styleSheet)
        return String(decoding: MapSnapshot(features: features, options: options).svg(), as: UTF8.self)
    }

    func testOneGroupPerLevelAndATitlePerFeature() throws {
        let text = try svg(RenderFixtures.collection([
            RenderFixtures.polygon([[(0, 0), (10, 0), (10, 10), (0, 0)]], properties: #"{"name":"A & <B>"}"#),
            #"{"type":"Feature","id":7,"properties":{"up":1},"geometry":{"type":"LineString","coordinates":[[0,0],[10,10]]}}"#,
            #"{"type":"Feature","properties":{"name":"Pin \"one\""},"geometry":{"type":"Point","coordinates":[5,5]}}"#,
        ]), styleSheet: try RenderFixtures.sheet(#"{"rules":[{"where":{"up":1},"style":{"level":"aboveLabels"}}]}"#))
        XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"300\""))
        let roads = try XCTUnwrap(text.range(of: "<g id=\"aboveRoads\">"))
        let labels = try XCTUnwrap(text.range(of: "<g id=\"aboveLabels\">"))
        let annotations = try XCTUnwrap(text.range(of: "<g id=\"annotations\">"))
        XCTAssertTrue(roads.lowerBound < labels.lowerBound && labels.lowerBound < annotations.lowerBound)
        let polygonTitle = try XCTUnwrap(text.range(of: "<title>A &amp; &lt;B&gt;</title>"))
        let lineTitle = try XCTUnwrap(text.range(of: "<title>7</title>"))
        XCTAssertTrue(polygonTitle.lowerBound < labels.lowerBound, "polygon in aboveRoads")
        XCTAssertTrue(lineTitle.lowerBound > labels.lowerBound && lineTitle.lowerBound < annotations.lowerBound)
        XCTAssertTrue(text.contains(">Pin &quot;one&quot;</text>"))
        XCTAssertEqual(text.components(separatedBy: "<title>").count - 1, 3)
        XCTAssertTrue(text.contains("fill-rule=\"nonzero\""))
        XCTAssertTrue(text.hasSuffix("</svg>\n"))
    }

    func testSVGIsDeterministicAndUsesTwoDecimals() throws {
        let geoJSON = RenderFixtures.polygon([[(0.123456, 0), (10, 0.5), (10, 10), (0.123456, 0)]])
        let first = try svg(geoJSON), second = try svg(geoJSON)
        XCTAssertEqual(first, second)
        let path = try XCTUnwrap(first.split(separator: "\n").first { $0.hasPrefix("<path d=\"M") })
        let numbers = path.split(separator: "\"")[1].split(whereSeparator: { "MLZ ".contains($0) })
        XCTAssertFalse(numbers.isEmpty)
        for number in numbers { XCTAssertLessThanOrEqual(number.split(separator: ".").dropFirst().first?.count ?? 0, 2) }
    }
}
