import XCTest
@testable import OverlayKit
import OverlayModel

final class RenderStyleTests: XCTestCase {
    private func feature(_ properties: JSONObject, shape: Shape = .polyline(Polyline(coordinates: [])),
                         style: Style? = nil) -> Feature {
        Feature(properties: properties, shape: shape, style: style)
    }

    func testDefaultsApplyWhenNothingIsSet() {
        let style = RenderStyle.resolve(feature([:]))
        XCTAssertEqual(style, RenderStyle.standard)
        XCTAssertEqual(style.strokeColor, RGBAColor(hex: "#3366cc"))
        XCTAssertEqual(style.fillColor.alpha, 64)
    }

    func testSimplestylePropertiesAreUsedWhenTheReaderLeftNoStyle() {
        let style = RenderStyle.resolve(feature(["stroke": .string("#ff0000"), "stroke-width": .integer(5),
                                                 "fill": .string("#00ff00"), "fill-opacity": .number(0.5)]))
        XCTAssertEqual(style.strokeColor, RGBAColor(red: 255, green: 0, blue: 0))
        XCTAssertEqual(style.strokeWidth, 5)
        XCTAssertEqual(style.fillColor, RGBAColor(red: 0, green: 255, blue: 0, alpha: 128))
    }

    func testFeatureStyleWinsOverPropertiesAndKMLFlagsHold() {
        let kml = Style(strokeColor: RGBAColor(red: 1, green: 2, blue: 3), lineDash: [4, 2], fill: false, outline: false,
                        icon: IconStyle(scale: 2, color: RGBAColor(red: 9, green: 9, blue: 9)),
                        label: LabelStyle(color: RGBAColor(red: 7, green: 7, blue: 7), scale: 1.5))
        let style = RenderStyle.resolve(feature(["stroke": .string("#ff0000")], style: kml))
        XCTAssertEqual(style.strokeColor, RGBAColor(red: 1, green: 2, blue: 3))
        XCTAssertEqual(style.lineDash, [4, 2])
        XCTAssertEqual(style.fillColor.alpha, 0, "fill false paints no fill")
        XCTAssertFalse(style.outline)
        XCTAssertEqual(style.markerScale, 2)
        XCTAssertEqual(style.markerColor, RGBAColor(red: 9, green: 9, blue: 9))
        XCTAssertEqual(style.labelSize, 18)
    }

    func testStyleSheetDefaultsSitUnderRulesOver() throws {
        let sheet = try RenderFixtures.sheet("""
            {"default": {"stroke": "#111111", "stroke-width": 7},
             "rules": [
               {"where": {"kind": ["lake", "pond"]}, "style": {"fill": "#0000ff", "fill-opacity": 0.5}},
               {"where": {"kind": "lake", "$kind": "polygon"}, "style": {"stroke-dasharray": [3, 1], "level": "aboveLabels"}},
               {"where": {"depth": 10}, "style": {"stroke": "none"}}
             ]}
            """)
        let polygon = Shape.polygon(Polygon(coordinates: []))
        // The feature's own width (simplestyle) beats the sheet default; rules beat both.
        let lake = RenderStyle.resolve(feature(["kind": .string("lake"), "stroke-width": .integer(2), "depth": .number(10.0)],
                                               shape: polygon), styleSheet: sheet)
        XCTAssertEqual(lake.strokeWidth, 2)
        XCTAssertEqual(lake.fillColor, RGBAColor(red: 0, green: 0, blue: 255, alpha: 128))
        XCTAssertEqual(lake.lineDash, [3, 1])
        XCTAssertEqual(lake.level, .aboveLabels)
        XCTAssertEqual(lake.strokeColor.alpha, 0, "depth 10 (written 10.0) matches 10")
        let pond = RenderStyle.resolve(feature(["kind": .string("pond")]), styleSheet: sheet)
        XCTAssertEqual(pond.strokeColor, RGBAColor(hex: "#111111"))
        XCTAssertEqual(pond.strokeWidth, 7)
        XCTAssertEqual(pond.lineDash, [], "$kind polygon does not match a polyline")
        XCTAssertNil(pond.level)
        let river = RenderStyle.resolve(feature(["kind": .string("river")]), styleSheet: sheet)
        XCTAssertEqual(river.fillColor, RenderStyle.standard.fillColor)
    }

    func testStyleSheetErrorsPointAtTheValue() {
        let cases: [(String, String, String, Int, Int)] = [
            (#"{"rules": [{"style": {"stroke": "blue"}}]}"#, "style.bad-value", "/rules/0/style/stroke", 1, 33),
            ("{\n  \"default\": {\n    \"stroke-wdith\": 2\n  }\n}", "style.unknown-key", "/default/stroke-wdith", 3, 21),
            (#"{"rules": [{"where": {"a": 1}}]}"#, "style.missing-style", "/rules/0", 1, 12),
            (#"{"rules": [{"style": {"stroke-dasharray": [1, -2]}}]}"#, "style.bad-value", "/rules/0/style/stroke-dasharray", 1, 43),
            (#"{"rules": [{"style": {"level": "top"}}]}"#, "style.bad-value", "/rules/0/style/level", 1, 32),
            (#"{"colors": {}}"#, "style.unknown-key", "/colors", 1, 12),
            (#"{"rules": [{"style": {}}"#, "json.unexpected-end", "/rules", 1, 25),
        ]
        for (json, code, pointer, line, column) in cases {
            XCTAssertThrowsError(try RenderFixtures.sheet(json), json) { error in
                guard let diagnostic = error as? Diagnostic else { return XCTFail("not a diagnostic: \(error)") }
                XCTAssertEqual(diagnostic.code.rawValue, code, json)
                XCTAssertEqual(diagnostic.location?.jsonPointer, pointer, json)
                XCTAssertEqual(diagnostic.location?.file, "style.json")
                XCTAssertEqual(diagnostic.location?.line, line, json)
                XCTAssertEqual(diagnostic.location?.column, column, json)
            }
        }
    }
}
