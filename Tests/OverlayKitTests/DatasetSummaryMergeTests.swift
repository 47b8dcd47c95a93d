import Foundation
import OverlayKit
import OverlayModel
import XCTest

/// `info` summarizes GeoParquet row groups apart and merges the parts in order: the merged
/// summary must print the report of the whole stream, character for character, wherever the
/// stream is cut (counts, extremes, the antimeridian's bins, keys and types in first-seen order).
final class DatasetSummaryMergeTests: XCTestCase {
    private func reports(_ summary: DatasetSummary) -> [String] {
        [InfoReport.text(summary, source: "x"), InfoReport.json(summary, source: "x")]
    }

    /// The summary of `features` cut at `cuts` (ascending offsets), the parts merged in order.
    private func merged(_ features: [Feature], cuts: [Int]) -> DatasetSummary {
        var whole = DatasetSummary()
        var start = 0
        for end in cuts + [features.count] where end >= start {
            var part = DatasetSummary()
            features[start..<end].forEach { part.add($0) }
            whole.merge(part)
            start = end
        }
        return whole
    }

    func testPartsMergeIntoTheWholeOnCorpusFiles() throws {
        var files = try FileManager.default.contentsOfDirectory(at: try TestPaths.corpusFolder("geojson-vt/fixtures"),
                                                                 includingPropertiesForKeys: nil)
        let real = try TestPaths.corpusFolder("real")
        files += ["ne_50m_admin_0_countries.geojson", "ne_50m_admin_1_states_provinces.geojson", "2012_Earthquakes_Mag5.kml",
                  "2012-02-10.kml", "states.kml"].map { real.appendingPathComponent($0) }
        files.append(try TestPaths.corpusFolder("kml-samples").appendingPathComponent("KML_Samples.kml"))
        var checked = 0
        for file in files.sorted(by: { $0.path < $1.path }) where ["json", "geojson", "kml"].contains(file.pathExtension) {
            let opened = try? FeatureIO.reader(atPath: file.path, geometryColumn: nil, hints: FeatureReadHints())
            guard var reader = opened?.1, let features = try? reader.readAll(), features.count > 1 else { continue }
            var serial = DatasetSummary()
            features.forEach { serial.add($0) }
            let expected = reports(serial)
            let n = features.count
            for cuts in [[1], [n / 3], [n / 2, n / 2], [n - 1], [0, n / 4, n / 2, 3 * n / 4, n], Array(0...n)] {
                XCTAssertEqual(reports(merged(features, cuts: cuts)), expected, "\(file.lastPathComponent) cut at \(cuts.prefix(6))")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 9, "files with more than one feature")
    }

    func testKeysAndTypesKeepTheirFirstAppearanceAcrossParts() throws {
        let features = try readGeoJSON("""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"a":1,"b":"x"},"geometry":{"type":"Point","coordinates":[179,1]}},
            {"type":"Feature","properties":{"b":null,"c":true,"a":"one"},"geometry":null},
            {"type":"Feature","properties":{"d":[1],"a":{"k":1},"b":"y"},"geometry":{"type":"Point","coordinates":[-179,-2]}},
            {"type":"Feature","properties":{"c":1.5,"a":null},"geometry":{"type":"LineString","coordinates":[[170,0],[-170,3]]}}]}
            """).features
        var serial = DatasetSummary()
        features.forEach { serial.add($0) }
        XCTAssertEqual(serial.propertyTypes.map(\.key), ["a", "b", "c", "d"])
        XCTAssertEqual(serial.propertyTypes.map { $0.types.joined(separator: "|") },
                       ["number|string|object|null", "string|null", "boolean|number", "array"])
        for cuts in [[1], [2], [3], [1, 2, 3]] {
            XCTAssertEqual(reports(merged(features, cuts: cuts)), reports(serial), "cut at \(cuts)")
        }
    }
}
