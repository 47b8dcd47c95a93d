import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// `FeatureDiff` on real files (Examples/ and, when present, the corpus) rewritten with known
/// edits: what is written another way is no change; removed, added, moved-vertex, property,
/// style and folder edits are reported exactly, in their class, at their lines.
final class FeatureDiffTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func example(_ name: String) -> String { TestPaths.packageRoot.appendingPathComponent("Examples/\(name)").path }

    private func read(_ path: String) throws -> [Feature] {
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        return try reader.readAll()
    }

    /// Writes `features` as `name` (the format from its extension) and returns the path.
    @discardableResult
    private func write(_ features: [Feature], _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let format = FileFormat(pathExtensionOf: name)!
        try FeatureIO.data(features, as: format).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func writeText(_ text: String, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every coordinate moved by `offset` degrees (below the 7th decimal: re-rounding noise).
    private func shifted(_ shape: Shape?, by offset: Double) -> Shape? {
        guard let shape else { return nil }
        func move(_ coordinates: [Coordinate]) -> [Coordinate] {
            coordinates.map { Coordinate(latitude: $0.latitude + offset, longitude: $0.longitude - offset, altitude: $0.altitude) }
        }
        func polygon(_ value: Polygon) -> Polygon {
            Polygon(coordinates: move(value.coordinates), interiorPolygons: value.interiorPolygons.map { polygon($0) })
        }
        switch shape {
        case .annotation(var annotation):
            annotation.coordinate = move([annotation.coordinate])[0]
            return .annotation(annotation)
        case .circle(let circle): return .circle(Circle(center: move([circle.center])[0], radius: circle.radius))
        case .polyline(let line): return .polyline(Polyline(coordinates: move(line.coordinates)))
        case .polygon(let value): return .polygon(polygon(value))
        case .multiPolyline(let multi): return .multiPolyline(MultiPolyline(multi.polylines.map { Polyline(coordinates: move($0.coordinates)) }))
        case .multiPolygon(let multi): return .multiPolygon(MultiPolygon(multi.polygons.map(polygon)))
        case .collection(let collection):
            return .collection(ShapeCollection(members: collection.members.compactMap { shifted($0, by: offset) }, origin: collection.origin))
        }
    }

    /// Rings started at their third vertex and turned the other way.
    private func restarted(_ shape: Shape?) -> Shape? {
        func ring(_ coordinates: [Coordinate]) -> [Coordinate] {
            var open = Array(coordinates.dropLast())
            guard open.count > 3 else { return coordinates }
            open = Array(open[2...] + open[..<2]).reversed()
            return open + [open[0]]
        }
        func polygon(_ value: Polygon) -> Polygon {
            Polygon(coordinates: ring(value.coordinates), interiorPolygons: value.interiorPolygons.map { polygon($0) })
        }
        switch shape {
        case .polygon(let value)?: return .polygon(polygon(value))
        case .multiPolygon(let multi)?: return .multiPolygon(MultiPolygon(multi.polygons.map(polygon)))
        default: return shape
        }
    }

    private func assertNoChanges(_ old: String, _ new: String, options: DiffOptions = DiffOptions(),
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try FeatureDiff.compare(oldPath: old, newPath: new, options: options)
        XCTAssertEqual(result.changes.map(DiffReport.describe), [], "\(old) → \(new)", file: file, line: line)
        XCTAssertEqual(result.summary.unchanged, result.summary.oldFeatures, file: file, line: line)
        XCTAssertEqual(result.exitStatus, 0, file: file, line: line)
    }

    // MARK: - Written another way: no change

    func testVersionsWrittenAnotherWayHaveNoChanges() throws {
        for name in ["parks.geojson", "countries.geojson", "places.kml", "roads.geojsonl"] {
            let original = example(name)
            let features = try read(original)
            XCTAssertGreaterThan(features.count, 3, name)
            let stem = name.split(separator: ".")[0]
            // Reordered.
            try assertNoChanges(original, write(features.reversed(), "\(stem)-reordered.geojson"))
            // Re-rounded: every coordinate off by 2e-9 degrees, written with 10 decimals.
            let noisy = features.map { feature -> Feature in
                var feature = feature
                feature.shape = shifted(feature.shape, by: 2e-9)
                return feature
            }
            let rerounded = folder.appendingPathComponent("\(stem)-rerounded.geojson").path
            try FeatureIO.data(noisy, as: .geojson, options: WriterOptions(precision: 10)).write(to: URL(fileURLWithPath: rerounded))
            try assertNoChanges(original, rerounded)
            // Re-keyed: property keys in the other order.
            let rekeyed = features.map { feature -> Feature in
                var feature = feature
                feature.properties = feature.properties.map { JSONObject($0.members.reversed()) }
                return feature
            }
            try assertNoChanges(original, write(rekeyed, "\(stem)-rekeyed.geojson"))
            // Rings started elsewhere and turned the other way.
            let restartedFeatures = features.map { feature -> Feature in
                var feature = feature
                feature.shape = restarted(feature.shape)
                return feature
            }
            try assertNoChanges(original, write(restartedFeatures, "\(stem)-restarted.geojson"))
            // Converted to KML, to KMZ, and back.
            let kml = try write(features, "\(stem)-converted.kml")
            try assertNoChanges(original, kml)
            try assertNoChanges(original, write(features, "\(stem)-converted.kmz"))
            try assertNoChanges(original, write(try read(kml), "\(stem)-back.geojson"))
            try assertNoChanges(kml, original)
        }
    }

    /// `1`, `1.0` and `2.1e2`; a simplestyle `fill` and the same KML PolyStyle.
    func testNumberSpellingAndStyleSpellingAreNoChange() throws {
        let text = try String(contentsOfFile: example("parks.geojson"), encoding: .utf8)
        let respelled = text.replacingOccurrences(of: "\"area_ha\": 210", with: "\"area_ha\": 2.1e2")
            .replacingOccurrences(of: "\"stroke-width\": 3", with: "\"stroke-width\": 3.0")
        XCTAssertNotEqual(respelled, text)
        try assertNoChanges(example("parks.geojson"), writeText(respelled, "respelled.geojson"))
        // KML → GeoJSON writes the KML styles as simplestyle members; they compare equal.
        let features = try read(example("places.kml"))
        XCTAssertTrue(features.contains { $0.style != nil })
        try assertNoChanges(example("places.kml"), write(features, "places.geojsons"))
    }

    // MARK: - Known edits, reported exactly

    /// countries.geojson (no ids: matched by NAME, then without a key by content) reordered,
    /// with one country removed, one added, a vertex moved, a property and a style changed.
    func testKnownEditsAreReportedInTheirClassAtTheirLines() throws {
        let original = example("countries.geojson")
        var features = try read(original)
        let names = features.map { $0.properties?["NAME"]?.stringValue ?? "" }
        let removedName = names[3], movedName = names[5], propertyName = names[7], styleName = names[9]
        let removedLocation = features[3].location
        features.remove(at: 3)
        var added = features[0]
        added.properties?["NAME"] = .string("Atlantis")
        added.shape = .polygon(Polygon(coordinates: [Coordinate(latitude: 30, longitude: -40), Coordinate(latitude: 30, longitude: -39),
                                                     Coordinate(latitude: 31, longitude: -39), Coordinate(latitude: 30, longitude: -40)]))
        features.append(added)
        for index in features.indices {
            let name = features[index].properties?["NAME"]?.stringValue
            if name == movedName, case .polygon(let polygon)? = features[index].shape {
                var coordinates = polygon.coordinates
                coordinates[1].latitude += 0.01  // ~1.1 km north
                features[index].shape = .polygon(Polygon(coordinates: coordinates, interiorPolygons: polygon.interiorPolygons))
            } else if name == movedName, case .multiPolygon(var multi)? = features[index].shape {
                var coordinates = multi.polygons[0].coordinates
                coordinates[1].latitude += 0.01
                multi.polygons[0] = Polygon(coordinates: coordinates, interiorPolygons: multi.polygons[0].interiorPolygons)
                features[index].shape = .multiPolygon(multi)
            }
            if name == propertyName { features[index].properties?["POP_EST"] = .integer(1234) }
            if name == styleName { features[index].properties?["fill"] = .string("#ff0000") }
        }
        features.reverse()
        // One feature a line: feature i starts on line i + 2, column 1.
        let new = try write(features, "countries-edited.geojson")
        let newLines = try String(contentsOfFile: new, encoding: .utf8).components(separatedBy: "\n")
        func newLine(of name: String) -> Int { features.firstIndex { $0.properties?["NAME"]?.stringValue == name }! + 2 }

        for options in [DiffOptions(key: "NAME"), DiffOptions()] {
            let result = try FeatureDiff.compare(oldPath: original, newPath: new, options: options)
            let summary = result.summary
            XCTAssertEqual([summary.added, summary.removed, summary.modified, summary.moved], [1, 1, 3, 0],
                           result.changes.map(DiffReport.describe).joined(separator: "\n"))
            XCTAssertEqual(summary.unchanged, 15 - 1 - 3)
            XCTAssertEqual(result.exitStatus, 1)
            func change(_ name: String) -> FeatureChange? {
                result.changes.first { ($0.new ?? $0.old)?.properties?["NAME"]?.stringValue == name }
            }
            // Added, at its line in the new file.
            let addition = try XCTUnwrap(change("Atlantis"))
            XCTAssertEqual(addition.kind, .added)
            XCTAssertEqual(addition.location?.line, newLine(of: "Atlantis"))
            XCTAssertEqual(addition.location?.column, 1)
            XCTAssertEqual(addition.location?.jsonPointer, "/features/\(newLine(of: "Atlantis") - 2)")
            XCTAssertTrue(newLines[newLine(of: "Atlantis") - 1].contains("\"Atlantis\""))
            // Removed, at its line in the old file.
            let removal = try XCTUnwrap(change(removedName))
            XCTAssertEqual(removal.kind, .removed)
            XCTAssertEqual(removal.location, removedLocation)
            XCTAssertEqual(removal.location?.file, original)
            XCTAssertEqual(removal.location?.line, 5)  // the fourth feature, after the opening line
            // A vertex moved ~1.1 km: geometry only.
            let moved = try XCTUnwrap(change(movedName))
            XCTAssertEqual(moved.kind, .modified)
            XCTAssertEqual(moved.location?.line, newLine(of: movedName))
            let geometry = try XCTUnwrap(moved.geometry)
            XCTAssertEqual(geometry.hausdorffMetres, 1113, accuracy: 60)
            XCTAssertNotEqual(geometry.areaChange, 0)
            XCTAssertEqual(moved.properties, [])
            XCTAssertEqual(moved.style, [])
            // A property: old and new value, nothing else.
            let property = try XCTUnwrap(change(propertyName))
            XCTAssertEqual(property.kind, .modified)
            XCTAssertNil(property.geometry)
            XCTAssertEqual(property.properties.count, 1)
            XCTAssertEqual(property.properties.first?.key, "POP_EST")
            XCTAssertEqual(property.properties.first?.new, .number(1234))
            XCTAssertEqual(property.location?.line, newLine(of: propertyName))
            // A style: under style, not properties.
            let style = try XCTUnwrap(change(styleName))
            XCTAssertEqual(style.kind, .modified)
            XCTAssertNil(style.geometry)
            XCTAssertEqual(style.properties, [])
            XCTAssertEqual(style.style.map(\.key).sorted(), ["fill", "fill-opacity"])
            XCTAssertEqual(style.style.first { $0.key == "fill" }?.new, .string("#ff0000"))
            XCTAssertEqual(style.location?.line, newLine(of: styleName))
            // Report order: the new file's order, then the removed.
            XCTAssertEqual(result.changes.last?.kind, .removed)
            let lines = result.changes.dropLast().compactMap { $0.location?.line }
            XCTAssertEqual(lines, lines.sorted())
        }
    }

    /// The tolerance: a vertex moved ~1.1 km (its Hausdorff distance at most that, the old
    /// outline being nearer than the old vertex) is no change under 1.2 km, a change under 500 m.
    func testToleranceInMetres() throws {
        let original = example("parks.geojson")
        var features = try read(original)
        guard case .polygon(let polygon)? = features[0].shape else { return XCTFail("tiergarten is a polygon") }
        var coordinates = polygon.coordinates
        coordinates[1].latitude += 0.01
        features[0].shape = .polygon(Polygon(coordinates: coordinates, interiorPolygons: polygon.interiorPolygons))
        let new = try write(features, "parks-moved.geojson")
        try assertNoChanges(original, new, options: DiffOptions(tolerance: 1200))
        let result = try FeatureDiff.compare(oldPath: original, newPath: new, options: DiffOptions(tolerance: 500))
        XCTAssertEqual(result.changes.count, 1)
        XCTAssertEqual(result.changes.first?.label, "tiergarten")
        let distance = try XCTUnwrap(result.changes.first?.geometry?.hausdorffMetres)
        XCTAssertGreaterThan(distance, 500)
        XCTAssertLessThanOrEqual(distance, 0.01 * LocalPlane.metresPerDegree + 0.01)
        // The same distance from the other side: Hausdorff is symmetric.
        let back = try FeatureDiff.compare(oldPath: new, newPath: original, options: DiffOptions(tolerance: 500))
        XCTAssertEqual(back.changes.first?.geometry?.hausdorffMetres ?? 0, distance, accuracy: 1e-6)
        XCTAssertEqual(try FeatureDiff.compare(oldPath: original, newPath: new).changes.count, 1)
    }

    /// A KML placemark put in another folder is `moved`, with both folder paths.
    func testKMLFolderMoveIsMoved() throws {
        let original = example("places.kml")
        var features = try read(original)
        let index = try XCTUnwrap(features.firstIndex { $0.id == .string("marble-arch") })
        XCTAssertEqual(features[index].folderPath, ["Stops"])
        features[index].folderPath = ["Walks", "Saturday"]
        let new = try write(features, "places-moved.kml")
        let result = try FeatureDiff.compare(oldPath: original, newPath: new)
        XCTAssertEqual(result.changes.count, 1)
        let change = try XCTUnwrap(result.changes.first)
        XCTAssertEqual(change.kind, .moved)
        XCTAssertEqual(change.label, "marble-arch")
        XCTAssertEqual(change.folders, FolderChange(old: ["Stops"], new: ["Walks", "Saturday"]))
        XCTAssertNotNil(change.location?.kmlPath)
        // The line holds the placemark.
        let lines = try String(contentsOfFile: new, encoding: .utf8).components(separatedBy: "\n")
        XCTAssertTrue(lines[change.location!.line - 1].contains("id=\"marble-arch\""), lines[change.location!.line - 1])
    }

    /// Features without id: an edited one is paired with its old version by geometry (a
    /// property edit) or by attributes (a geometry edit), not reported as removed and added.
    func testEditedFeaturesWithoutIdArePaired() throws {
        let original = example("parks.geojson")
        var features = try read(original)
        XCTAssertNil(features[2].id)
        features[2].properties?["name"] = .string("Brandenburger Tor")
        features[3].shape = .circle(Circle(center: Coordinate(latitude: 52.5145, longitude: 13.3654), radius: 450))
        features[3].properties?["radius"] = .integer(450)
        let result = try FeatureDiff.compare(oldPath: original, newPath: write(features, "parks-edited.geojson"))
        XCTAssertEqual(result.changes.map(\.kind), [.modified, .modified])
        XCTAssertEqual(result.changes[0].properties, [ValueChange(key: "name", old: .string("Brandenburg Gate"), new: .string("Brandenburger Tor"))])
        XCTAssertEqual(result.changes[1].geometry?.hausdorffMetres ?? 0, 50, accuracy: 0.5)
        XCTAssertEqual(result.changes[1].geometry?.areaChange ?? 0, Double.pi * (450 * 450 - 400 * 400), accuracy: 1)
    }

    func testDuplicatesPairInOrderAndExtraCopiesAreAdded() throws {
        let original = example("parks.geojson")
        let features = try read(original)
        let result = try FeatureDiff.compare(oldPath: original, newPath: write(features + [features[2]], "parks-twice.geojson"))
        XCTAssertEqual(result.changes.map(\.kind), [.added])
        XCTAssertEqual(result.changes.first?.location?.jsonPointer, "/features/4")
    }

    func testBadOptionsAndStandardInputForTheOldVersion() throws {
        let path = example("parks.geojson")
        for options in [DiffOptions(precision: 16), DiffOptions(tolerance: -1), DiffOptions(tolerance: .nan), DiffOptions(key: "")] {
            XCTAssertThrowsError(try FeatureDiff.compare(oldPath: path, newPath: path, options: options)) {
                XCTAssertEqual(($0 as? Diagnostic)?.code, .diffBadOption)
            }
        }
        XCTAssertThrowsError(try FeatureDiff.compare(oldPath: "-", newPath: path)) {
            XCTAssertEqual(($0 as? Diagnostic)?.exitStatus, 64)
        }
        XCTAssertThrowsError(try FeatureDiff.compare(oldPath: path, newPath: folder.appendingPathComponent("missing.geojson").path)) {
            XCTAssertEqual(($0 as? Diagnostic)?.exitStatus, 74)
        }
        let broken = try writeText("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",", "broken.geojson")
        XCTAssertThrowsError(try FeatureDiff.compare(oldPath: path, newPath: broken)) {
            XCTAssertEqual(($0 as? Diagnostic)?.exitStatus, 65)
        }
    }

    // MARK: - The corpus

    /// Natural Earth's countries against their own KML conversion (no change), and with a
    /// country removed and one's vertex moved.
    func testCorpusCountriesAgainstTheirKMLConversion() throws {
        let url: URL
        do { url = try Prerequisite.corpus("real/ne_50m_admin_0_countries.geojson") } catch { throw TestLocations.corpusAbsent(error) }
        var features = try read(url.path)
        let kml = try write(features, "ne-countries.kml")
        try assertNoChanges(url.path, kml, options: DiffOptions(key: "ADMIN"))
        let removed = features.remove(at: 10)
        features.reverse()
        let edited = try write(features, "ne-countries-edited.kml")
        let result = try FeatureDiff.compare(oldPath: url.path, newPath: edited, options: DiffOptions(key: "ADMIN"))
        XCTAssertEqual(result.changes.map(\.kind), [.removed])
        XCTAssertEqual(result.changes.first?.label, removed.properties?["ADMIN"]?.stringValue)
        XCTAssertEqual(result.changes.first?.location, removed.location)
    }

    // MARK: - Reports

    func testSARIFHasTheRequiredStructure() throws {
        let original = example("parks.geojson")
        var features = try read(original)
        features[0].properties?["name"] = .string("Tiergarten")
        features.remove(at: 1)
        let result = try FeatureDiff.compare(oldPath: original, newPath: write(features, "parks-sarif.geojson"))
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(DiffReport.render(result, as: .sarif).utf8)) as? [String: Any])
        try SARIFStructure.check(log)
        let run = (log["runs"] as! [[String: Any]])[0]
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["diff.modified", "diff.removed"])
        let region = ((results[0]["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["region"] as! [String: Any]
        XCTAssertEqual(region["startLine"] as? Int, result.changes[0].location?.line)
    }

    func testMarkdownTablesAreCapped() throws {
        let original = example("countries.geojson")
        let features = try read(original)
        let result = try FeatureDiff.compare(oldPath: original, newPath: write(Array(features.prefix(2)), "two.geojson"))
        XCTAssertEqual(result.summary.removed, 13)
        let markdown = DiffReport.render(result, as: .markdown, markdownRows: 5)
        XCTAssertTrue(markdown.contains("#### Removed (13)"), markdown)
        XCTAssertEqual(markdown.components(separatedBy: "\n").filter { $0.hasPrefix("| ") && $0 != "| feature | where | what |" }.count, 5)
        XCTAssertTrue(markdown.contains("… and 8 more removed."), markdown)
    }
}

/// The structure SARIF 2.1.0 requires of a log (no copy of the schema is in the repository or
/// the corpus): version, runs with a tool driver name, results with a message text, a rule id
/// that names a rule of the driver at `ruleIndex`, a level SARIF knows, and locations with a
/// relative URI and a 1-based region.
enum SARIFStructure {
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ log: [String: Any]) throws {
        func require(_ condition: Bool, _ what: String) throws { if !condition { throw Violation(description: what) } }
        try require(log["version"] as? String == "2.1.0", "version is 2.1.0")
        let runs = try XCTUnwrap(log["runs"] as? [[String: Any]], "runs")
        for run in runs {
            let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any], "tool.driver")
            try require(!(driver["name"] as? String ?? "").isEmpty, "tool.driver.name")
            let rules = driver["rules"] as? [[String: Any]] ?? []
            for rule in rules { try require(rule["id"] is String, "rule id") }
            for result in run["results"] as? [[String: Any]] ?? [] {
                try require(((result["message"] as? [String: Any])?["text"] as? String) != nil, "result.message.text")
                if let level = result["level"] { try require(["none", "note", "warning", "error"].contains(level as? String ?? ""), "level") }
                if let index = result["ruleIndex"] as? Int {
                    try require(index >= 0 && index < rules.count, "ruleIndex in range")
                    try require(rules[index]["id"] as? String == result["ruleId"] as? String, "ruleIndex names ruleId")
                }
                for location in result["locations"] as? [[String: Any]] ?? [] {
                    let physical = try XCTUnwrap(location["physicalLocation"] as? [String: Any], "physicalLocation")
                    let uri = try XCTUnwrap((physical["artifactLocation"] as? [String: Any])?["uri"] as? String, "artifactLocation.uri")
                    try require(!uri.isEmpty && !uri.contains(" "), "uri is a URI reference")
                    if let region = physical["region"] as? [String: Any] {
                        try require((region["startLine"] as? Int ?? 0) >= 1, "startLine ≥ 1")
                        try require((region["startColumn"] as? Int ?? 1) >= 1, "startColumn ≥ 1")
                    }
                }
            }
        }
    }
}

/// The picture: checked by the colour of its pixels where the changed features are.
final class DiffPictureTests: XCTestCase {
    func testChangesAreDrawnInTheirClassColours() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = TestPaths.packageRoot.appendingPathComponent("Examples/parks.geojson").path
        var reader = try FeatureIO.reader(for: ByteInput(path: original))
        var features = try reader.readAll()
        features.remove(at: 1)                                    // the Spree walk: removed
        features[0].properties?["name"] = .string("Tiergarten")   // modified
        features.append(Feature(id: .string("new"), shape: .annotation(PointAnnotation(coordinate: Coordinate(latitude: 52.5105, longitude: 13.395)))))
        let new = folder.appendingPathComponent("parks-new.geojson")
        try FeatureIO.data(features, as: .geojson).write(to: new)
        let result = try FeatureDiff.compare(oldPath: original, newPath: new.path)
        XCTAssertEqual(result.changes.map(\.kind), [.modified, .added, .removed])

        let center = Coordinate(latitude: 52.5150, longitude: 13.3650), zoom = 14.0
        let options = RenderOptions(width: 800, height: 500, camera: .centered(center, zoom: zoom))
        let output = ByteOutput()
        _ = try DiffPicture(options: options).render(result, to: output, format: .png)
        let image = try RasterImage(png: output.bytes)
        XCTAssertEqual(image.width, 800)
        func pixel(_ coordinate: Coordinate, dy: Int = 0) -> RGBAColor {
            let perPoint = Zoom.mapPointsPerScreenPoint(atZoom: zoom)
            let point = MapPoint(coordinate), middle = MapPoint(center)
            let x = Int((400 + (point.x - middle.x) / perPoint).rounded()), y = Int((250 + (point.y - middle.y) / perPoint).rounded())
            return image.pixel(x: x, y: y + dy)
        }
        func isRed(_ color: RGBAColor) -> Bool { color.red > 180 && color.green < 90 && color.blue < 90 }
        func isGreen(_ color: RGBAColor) -> Bool { color.green > 120 && Int(color.green) > Int(color.red) + 60 && Int(color.green) > Int(color.blue) + 40 }
        func isOrange(_ color: RGBAColor) -> Bool { color.red > 200 && Int(color.red) > Int(color.green) + 25 && Int(color.green) > Int(color.blue) + 25 }
        // The removed line, on a vertex.
        XCTAssertTrue(isRed(pixel(Coordinate(latitude: 52.5205, longitude: 13.3650))), "\(pixel(Coordinate(latitude: 52.5205, longitude: 13.3650)))")
        // The modified polygon, inside (old and new fills over each other) and on a vertex.
        let inside = Coordinate(latitude: 52.5120, longitude: 13.3450)
        XCTAssertTrue(isOrange(pixel(inside)), "\(pixel(inside))")
        XCTAssertTrue(isOrange(pixel(Coordinate(latitude: 52.5108, longitude: 13.3770))), "\(pixel(Coordinate(latitude: 52.5108, longitude: 13.3770)))")
        // The added point: its pin rises above it.
        let pin = (1...30).map { pixel(Coordinate(latitude: 52.5105, longitude: 13.395), dy: -$0) }
        XCTAssertTrue(pin.contains(where: isGreen), "\(pin)")
        // Unchanged features are not drawn: the Brandenburg Gate's place is white.
        XCTAssertEqual(pixel(Coordinate(latitude: 52.516275, longitude: 13.377704), dy: -12), RGBAColor(red: 255, green: 255, blue: 255))
        // The legend: three pins in the lower left, green, red, orange from the top.
        let legend = (0..<3).map { index in (6...34).map { image.pixel(x: 20, y: 500 - 28 - (2 - index) * 24 - $0) } }
        XCTAssertTrue(legend[0].contains(where: isGreen), "\(legend[0])")
        XCTAssertTrue(legend[1].contains(where: isRed), "\(legend[1])")
        XCTAssertTrue(legend[2].contains(where: isOrange), "\(legend[2])")
    }
}
