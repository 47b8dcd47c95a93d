import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Runs every KML of togeojson's test data (`../shared/corpus/togeojson/kml`) through
/// `KMLReader` and compares with togeojson's expected GeoJSON.
///
/// Conventions that differ on purpose — all of them, in this one place:
/// 1. Styles: togeojson writes style as properties (`stroke`, `stroke-opacity`,
///    `stroke-width`, `fill`, `fill-opacity`, `icon`, `icon-*`, `label-*`) and keeps the
///    `styleUrl`/`styleHash`/`styleMapHash` references. We resolve the style into
///    `Feature.style` (the model's renderer style) and keep no reference. So these keys are
///    taken out of the expected properties and compared against `Feature.style` instead.
/// 2. MultiGeometry of one kind: togeojson gives a GeometryCollection; we give the matching
///    multi overlay (MultiLineString, MultiPolygon, MultiPoint). Expected collections whose
///    members are all one kind are compared as that multi geometry.
/// 3. CDATA descriptions: togeojson wraps some as `{"@type": "html", "value": …}`; we keep
///    the text as a plain string (the model's subtitle is text). Compared by value.
/// 4. Geometry fields: we keep `altitudeMode`, `extrude` and `tessellate` as properties;
///    togeojson drops them. They are ignored in our properties.
/// 5. Winding: the GeoJSON writer orients rings per RFC 7946; togeojson keeps the source
///    order. Rings are compared in either direction.
/// 6. PolyStyle `outline` 0: togeojson writes `stroke-opacity: 0`; the model keeps
///    `Style.outline = false` and the stroke color as given. Either means "no outline".
/// 7. Empty `name`, `description`, `address`, `phoneNumber`: togeojson leaves them out; we
///    keep them as `""` so KML → GeoJSON → KML writes them back (issue 34). An empty string of
///    ours where togeojson has no key is not compared.
/// Fixtures still differing after that are listed in `knownDifferences` with the reason.
final class KMLConformanceTests: XCTestCase {
    /// Fixtures that do not match, and why (checked: the test fails if one starts matching
    /// or a fixture not listed here fails).
    static let knownDifferences: [String: String] = [
        "addresses.kml": "a Placemark holding an empty <Point> and a gx:Track: togeojson gives a Point at the track's "
            + "first position; we report the empty Point and keep the track as a polyline",
        "gxmultitrack.kml": "text around CDATA: for <name>\\n<![CDATA[x]]>\\n</name> togeojson keeps the surrounding "
            + "newlines (and does so for an empty CDATA description too) but drops them for a non-empty CDATA description; "
            + "we treat whitespace-only text beside CDATA as layout everywhere, so name is 'x'",
    ]

    static let styleKeys: Set<String> = [
        "stroke", "stroke-opacity", "stroke-width", "fill", "fill-opacity", "icon", "icon-color", "icon-opacity",
        "icon-scale", "icon-offset", "icon-offset-units", "icon-heading", "label-color", "label-opacity", "label-scale",
        "styleUrl", "styleHash", "styleMapHash",
    ]
    static let ourExtraKeys: Set<String> = ["altitudeMode", "extrude", "tessellate"]

    func testTogeojsonFixtures() throws {
        let directory = try KMLTestSupport.corpus("togeojson/kml")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".kml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 30)
        var matched = 0
        var report: [String] = []
        for file in files {
            let expectedURL = directory.appendingPathComponent(file.replacingOccurrences(of: ".kml", with: ".geojson"))
            let problems = try compare(kml: directory.appendingPathComponent(file), expected: expectedURL)
            if problems.isEmpty {
                matched += 1
                XCTAssertNil(Self.knownDifferences[file], "\(file) matches now; remove it from knownDifferences")
            } else {
                report.append("\(file): \(problems.prefix(3).joined(separator: "; "))")
                XCTAssertNotNil(Self.knownDifferences[file], "\(file) differs: \(problems.prefix(5).joined(separator: "; "))")
            }
        }
        print("togeojson conformance: \(matched) of \(files.count) fixtures match")
        for line in report { print("  differs: \(line)") }
        XCTAssertGreaterThanOrEqual(Double(matched), 0.9 * Double(files.count), "\(matched) of \(files.count) fixtures match")
    }

    /// Non-conformant KML that libkml, GDAL and Google Earth recover (issues 21 and 25): each
    /// case is an input written here, the GeoJSON GDAL's KML/LIBKML drivers give for it, and the
    /// warning that says the input was recovered. Compared with the rules of the fixtures above.
    struct RecoveryCase {
        var name: String
        /// The KML, or the KMZ's entries (the first is the main KML).
        var entries: [(path: String, text: String)]
        var expected: String
        /// The warning that says what was recovered; nil when nothing needs saying.
        var warning: String?
    }

    static let recoveryCases: [RecoveryCase] = [
        RecoveryCase(name: "tuples joined by commas (issue 25.4)", entries: [("doc.kml", """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>l</name>
            <LineString><coordinates>-55.8,-60.7,0,-55.0,-60.7,0</coordinates></LineString></Placemark></kml>
            """)], expected: """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"l"},
             "geometry":{"type":"LineString","coordinates":[[-55.8,-60.7,0],[-55.0,-60.7,0]]}}]}
            """, warning: "kml.joined-tuples"),
        RecoveryCase(name: "GML MultiPolygon (issue 25.5)", entries: [("doc.kml", """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>m</name><MultiPolygon>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>5,5 6,5 6,6 5,5</coordinates></LinearRing></outerBoundaryIs></Polygon>
            </MultiPolygon></Placemark></kml>
            """)], expected: """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"m"},
             "geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}}]}
            """, warning: "kml.gml-geometry"),
        RecoveryCase(name: "GML MultiLineString and MultiPoint (issue 25.5)", entries: [("doc.kml", """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><MultiLineString><LineString><coordinates>0,0 1,1</coordinates></LineString>
            <LineString><coordinates>2,2 3,3</coordinates></LineString></MultiLineString></Placemark>
            <Placemark><MultiPoint><Point><coordinates>5,6</coordinates></Point><Point><coordinates>7,8</coordinates></Point></MultiPoint></Placemark>
            </Document></kml>
            """)], expected: """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}},
             {"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[5,6],[7,8]]}}]}
            """, warning: "kml.gml-geometry"),
        RecoveryCase(name: "Schema parent=Placemark (issue 21.4)", entries: [("doc.kml", """
            <kml xmlns="http://earth.google.com/kml/2.1"><Document>
            <Schema parent="Placemark" name="S_t"><SimpleField type="wstring" name="LABEL"/><SimpleField type="int" name="N"/></Schema>
            <S_t><name>a</name><LABEL>x</LABEL><N>7</N><Point><coordinates>1,2</coordinates></Point></S_t>
            </Document></kml>
            """)], expected: """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"a","LABEL":"x","N":7},
             "geometry":{"type":"Point","coordinates":[1,2]}}]}
            """, warning: "kml.legacy-markup"),
        RecoveryCase(name: "Schema after more placemarks than are held (issue 21.3)",
                     entries: [("doc.kml", KMLRecoveryTests.lateSchemaKML(placemarks: KMLReader.maximumHeldFeatures + 1))],
                     expected: "{\"type\":\"FeatureCollection\",\"features\":["
                        + (0...KMLReader.maximumHeldFeatures).map {
                            "{\"type\":\"Feature\",\"properties\":{\"v\":\($0)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
                        }.joined(separator: ",") + "]}",
                     warning: nil),
        RecoveryCase(name: "NetworkLink to an entry of the same KMZ (issue 25.2)", entries: [
            ("doc.kml", """
                <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Folder><name>F</name>
                <NetworkLink><Link><href>within.kml</href></Link></NetworkLink></Folder></Document></kml>
                """),
            ("within.kml", """
                <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>w</name><Point><coordinates>3,4</coordinates></Point></Placemark></kml>
                """),
        ], expected: """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"@geometry-type":"networklink","href":"within.kml"},"geometry":null,"folders":["F"]},
             {"type":"Feature","properties":{"name":"w"},"geometry":{"type":"Point","coordinates":[3,4]},"folders":["F"]}]}
            """, warning: nil),
    ]

    func testRecoveriesMatchGDAL() throws {
        for recovery in Self.recoveryCases {
            var reader: KMLReader
            if recovery.entries.count == 1 {
                reader = try KMLReader(input: ByteInput(string: recovery.entries[0].text, name: "case.kml"))
            } else {
                let archive = KMZTestArchive.stored(recovery.entries.map { ($0.path, Array($0.text.utf8)) })
                reader = try KMZ.reader(for: ByteInput(bytes: archive, name: "case.kmz"))
            }
            let features = try reader.readAll()
            let warnings = reader.takeWarnings()
            if let warning = recovery.warning {
                XCTAssertTrue(warnings.contains { $0.code.rawValue == warning }, "\(recovery.name): \(warnings)")
            } else {
                XCTAssertEqual(warnings, [], recovery.name)
            }
            let expected = try KMLTestSupport.json(ByteInput(string: recovery.expected))
            guard case .array(let wanted)? = expected.objectValue?["features"], wanted.count == features.count else {
                XCTFail("\(recovery.name): \(features.count) features, expected \(expected)")
                continue
            }
            for (index, (feature, want)) in zip(features, wanted).enumerated() {
                let problems = compareFeature(feature, want.objectValue ?? JSONObject())
                XCTAssertEqual(problems, [], "\(recovery.name), feature \(index)")
            }
        }
    }

    /// The problems found comparing one fixture (empty when it matches).
    private func compare(kml: URL, expected: URL) throws -> [String] {
        var reader = try KMLReader(input: ByteInput(path: kml.path))
        let features: [Feature]
        do {
            features = try reader.readAll()
        } catch {
            return ["read failed: \(error)"]
        }
        let expectedJSON = try KMLTestSupport.json(ByteInput(path: expected.path))
        guard case .array(let expectedFeatures)? = expectedJSON.objectValue?["features"] else { return ["expected file has no features"] }
        guard features.count == expectedFeatures.count else {
            return ["\(features.count) features, expected \(expectedFeatures.count)"]
        }
        var problems: [String] = []
        for (index, (feature, wanted)) in zip(features, expectedFeatures).enumerated() {
            problems += compareFeature(feature, wanted.objectValue ?? JSONObject()).map { "feature \(index): \($0)" }
        }
        return problems
    }

    private func compareFeature(_ feature: Feature, _ expected: JSONObject) -> [String] {
        var problems: [String] = []
        var plain = feature
        plain.style = nil
        plain.highlightStyle = nil
        let ours = try! KMLTestSupport.json(ByteInput(bytes: GeoJSONWriter.encode(plain, options: WriterOptions(precision: 15)))).objectValue!

        // Geometry.
        let wantedGeometry = Self.multiFromCollection(expected["geometry"])
        if !Self.geometryEqual(ours["geometry"], wantedGeometry) {
            problems.append("geometry differs: \(String(describing: ours["geometry"]).prefix(120)) vs \(String(describing: wantedGeometry).prefix(120))")
        }
        // Id and bbox.
        if !Self.jsonEqual(ours["id"], expected["id"]) { problems.append("id \(String(describing: ours["id"])) vs \(String(describing: expected["id"]))") }
        if !Self.jsonEqual(ours["bbox"], expected["bbox"]) { problems.append("bbox differs") }

        // Properties without the style keys (convention 1), our extra keys (4), descriptions (3).
        var wantedProperties = expected["properties"]?.objectValue ?? JSONObject()
        var styleProperties = JSONObject()
        // An overlay's `icon` is its image, a property; elsewhere it is the icon style.
        let isOverlay = wantedProperties["@geometry-type"] != nil
        func isStyleKey(_ key: String) -> Bool { Self.styleKeys.contains(key) && !(isOverlay && key == "icon") }
        for member in wantedProperties where isStyleKey(member.key) { styleProperties.append(member.key, member.value) }
        wantedProperties.members.removeAll { isStyleKey($0.key) }
        if let value = wantedProperties["description"]?.objectValue?["value"] {
            wantedProperties["description"] = value
        }
        var ourProperties = ours["properties"]?.objectValue ?? JSONObject()
        ourProperties.members.removeAll { Self.ourExtraKeys.contains($0.key) }
        ourProperties.members.removeAll { $0.value == .string("") && wantedProperties[$0.key] == nil }  // convention 7
        if !Self.jsonEqual(.object(ourProperties), .object(wantedProperties)) {
            let keys = Set(ourProperties.keys).symmetricDifference(wantedProperties.keys)
            problems.append("properties differ (keys only on one side: \(keys.sorted()))"
                + (keys.isEmpty ? " \(ourProperties) vs \(wantedProperties)" : ""))
        }
        problems += compareStyle(feature.style, styleProperties)
        return problems
    }

    /// Convention 1: togeojson's style properties against the resolved `Feature.style`.
    private func compareStyle(_ style: Style?, _ wanted: JSONObject) -> [String] {
        var problems: [String] = []
        func color(_ color: RGBAColor?, _ hexKey: String, _ opacityKey: String) {
            // togeojson writes PolyStyle outline 0 as stroke-opacity 0; the model keeps `outline`.
            if hexKey == "stroke", wanted[opacityKey]?.doubleValue == 0, style?.outline == false {
                if let hex = wanted[hexKey]?.stringValue, let expectedColor = RGBAColor(hex: hex), expectedColor.hexRGB != color?.hexRGB {
                    problems.append("stroke \(String(describing: color?.hexRGB)) vs \(hex)")
                }
                return
            }
            guard let hex = wanted[hexKey]?.stringValue else { return }
            guard let color else { return problems.append("\(hexKey) \(hex) missing from style") }
            if let expectedColor = RGBAColor(hex: hex), expectedColor.hexRGB != color.hexRGB {
                problems.append("\(hexKey) \(color.hexRGB) vs \(hex)")
            }
            if let opacity = wanted[opacityKey]?.doubleValue, abs(opacity - color.opacity) > 0.5 / 255 {
                problems.append("\(opacityKey) \(color.opacity) vs \(opacity)")
            }
        }
        color(style?.strokeColor, "stroke", "stroke-opacity")
        color(style?.fillColor, "fill", "fill-opacity")
        color(style?.icon?.color, "icon-color", "icon-opacity")
        color(style?.label?.color, "label-color", "label-opacity")
        if wanted["fill"] == nil, let opacity = wanted["fill-opacity"]?.doubleValue, opacity == 0, style?.fill != false {
            problems.append("fill-opacity 0 but PolyStyle fill not off")
        }
        if let width = wanted["stroke-width"]?.doubleValue, style?.strokeWidth.map({ abs($0 - width) < 1e-9 }) != true {
            problems.append("stroke-width \(String(describing: style?.strokeWidth)) vs \(width)")
        }
        if let href = wanted["icon"]?.stringValue, style?.icon?.href != href {
            problems.append("icon \(String(describing: style?.icon?.href)) vs \(href)")
        }
        if let scale = wanted["icon-scale"]?.doubleValue, style?.icon?.scale.map({ abs($0 - scale) < 1e-6 }) != true {
            problems.append("icon-scale \(String(describing: style?.icon?.scale)) vs \(scale)")
        }
        if case .array(let offset)? = wanted["icon-offset"], let hotSpot = style?.icon?.hotSpot {
            if offset.compactMap(\.doubleValue) != [hotSpot.x, hotSpot.y] { problems.append("icon-offset \(offset) vs \(hotSpot)") }
        }
        return problems
    }

    /// Convention 2: a GeometryCollection of one kind is the matching multi geometry.
    static func multiFromCollection(_ geometry: JSONValue?) -> JSONValue? {
        guard let object = geometry?.objectValue, object["type"]?.stringValue == "GeometryCollection",
              case .array(let members)? = object["geometries"], !members.isEmpty else { return geometry }
        let kinds = Set(members.compactMap { $0.objectValue?["type"]?.stringValue })
        guard kinds.count == 1, let kind = kinds.first else { return geometry }
        let coordinates = JSONValue.array(members.map { $0.objectValue?["coordinates"] ?? .null })
        switch kind {
        case "Point": return .object(["type": .string("MultiPoint"), "coordinates": coordinates])
        case "LineString": return .object(["type": .string("MultiLineString"), "coordinates": coordinates])
        case "Polygon": return .object(["type": .string("MultiPolygon"), "coordinates": coordinates])
        default: return geometry
        }
    }

    /// Same type and coordinates within 1e-9 (rings in either direction: convention 5).
    static func geometryEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        let a = a == .null ? nil : a, b = b == .null ? nil : b
        guard let x = a?.objectValue, let y = b?.objectValue else { return a == nil && b == nil }
        guard x["type"] == y["type"] else { return false }
        if x["type"]?.stringValue == "GeometryCollection" {
            guard case .array(let xs)? = x["geometries"], case .array(let ys)? = y["geometries"], xs.count == ys.count else { return false }
            return zip(xs, ys).allSatisfy { geometryEqual(multiFromCollection($0), multiFromCollection($1)) }
        }
        return coordinatesEqual(x["coordinates"], y["coordinates"])
    }

    static func coordinatesEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        guard case .array(let x)? = a, case .array(let y)? = b, x.count == y.count else { return false }
        if x.allSatisfy({ $0.doubleValue != nil }) {
            return y.allSatisfy { $0.doubleValue != nil } && zip(x, y).allSatisfy { abs($0.doubleValue! - $1.doubleValue!) <= 1e-9 }
        }
        if zip(x, y).allSatisfy({ coordinatesEqual($0, $1) }) { return true }
        // A ring (array of positions) may run the other way.
        if case .array(let first)? = x.first, first.first?.doubleValue != nil {
            return zip(x.reversed(), y).allSatisfy { coordinatesEqual($0, $1) }
        }
        return false
    }

    /// JSON equality with numbers compared by value (integer 1 equals 1.0) within 1e-9.
    static func jsonEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count && x.allSatisfy { jsonEqual($0.value, y[$0.key]) }
        case (.array(let x)?, .array(let y)?):
            return x.count == y.count && zip(x, y).allSatisfy { jsonEqual($0, $1) }
        case (let x?, let y?):
            if let u = x.doubleValue, let v = y.doubleValue { return abs(u - v) <= 1e-9 * max(1, abs(v)) }
            return x == y
        default: return false
        }
    }
}
