import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// Robustness on real KML and the GeoJSON → KML → GeoJSON round trip on real data.
final class KMLCorpusTests: XCTestCase {
    /// Every KML and KMZ in kml-samples and real/ parses; every warning names its file and line.
    func testEveryCorpusKMLParsesAndEveryWarningHasALine() throws {
        let roots = [try KMLTestSupport.corpus("kml-samples"), try KMLTestSupport.corpus("real")]
        var files: [String] = []
        for root in roots {
            let enumerator = FileManager.default.enumerator(atPath: root.path)!
            for case let relative as String in enumerator where relative.hasSuffix(".kml") || relative.hasSuffix(".kmz") {
                files.append(root.appendingPathComponent(relative).path)
            }
        }
        XCTAssertGreaterThanOrEqual(files.count, 55)
        var total = 0
        for path in files.sorted() {
            let input = try ByteInput(path: path)
            var reader: any FeatureReader = path.hasSuffix(".kmz") ? try KMZ.reader(for: input) : try KMLReader(input: input)
            var warnings: [Diagnostic] = []
            do {
                while try reader.next() != nil {
                    total += 1
                    warnings += reader.takeWarnings()
                }
            } catch {
                XCTFail("\(path): \(error)")
            }
            warnings += reader.takeWarnings()
            for warning in warnings {
                XCTAssertNotNil(warning.location, "\(path): \(warning)")
                XCTAssertGreaterThanOrEqual(warning.location?.line ?? 0, 1, "\(path): \(warning)")
                XCTAssertTrue(warning.location?.file?.hasPrefix(path) == true, "\(path): \(warning)")
            }
        }
        XCTAssertGreaterThan(total, 3_000)
    }

    func testRealKMLContent() throws {
        let real = try KMLTestSupport.corpus("real")
        var quakes = try KMLReader(input: ByteInput(path: real.appendingPathComponent("2012_Earthquakes_Mag5.kml").path))
        let points = try quakes.readAll()
        XCTAssertEqual(points.count, 1_535)
        XCTAssertTrue(points.allSatisfy { $0.shape?.kind == .annotation })
        var states = try KMLReader(input: ByteInput(path: real.appendingPathComponent("states.kml").path))
        let shapes = try states.readAll()
        XCTAssertEqual(shapes.count, 50)
        var styled = try KMLReader(input: ByteInput(path: real.appendingPathComponent("2012-02-10.kml").path))
        let placemarks = try styled.readAll().filter { $0.properties?["@geometry-type"] == nil }
        XCTAssertEqual(placemarks.count, 1_119)
        XCTAssertTrue(placemarks.allSatisfy { $0.style != nil }, "every placemark of 2012-02-10.kml is styled")
        // 26 distinct folder paths hold placemarks (counted independently with Python's ElementTree).
        XCTAssertEqual(Set(placemarks.map(\.folderPath)).count, 26)
        XCTAssertTrue(placemarks.contains { $0.folderPath == ["POI", "Parking"] })
    }

    /// GeoJSON → KML → GeoJSON on real/*.geojson: same geometry at the written precision
    /// (7 decimals), same properties and ids, and the KML validates against the OGC schema.
    func testGeoJSONToKMLRoundTripOnRealData() throws {
        let real = try KMLTestSupport.corpus("real")
        let names = try FileManager.default.contentsOfDirectory(atPath: real.path).filter { $0.hasSuffix(".geojson") }.sorted()
        XCTAssertEqual(names.count, 3)
        for name in names {
            var reader = GeoJSONReader(input: try ByteInput(path: real.appendingPathComponent(name).path))
            let original = try reader.readAll()
            let kml = try KMLWriterTests.write(original)
            let back = try KMLWriterTests.readBack(kml)
            XCTAssertEqual(back.count, original.count, name)
            for (index, (a, b)) in zip(original, back).enumerated() {
                XCTAssertEqual(a.id, b.id, "\(name) #\(index)")
                XCTAssertEqual(a.style, b.style, "\(name) #\(index)")
                let left = a.properties ?? JSONObject(), right = b.properties ?? JSONObject()
                XCTAssertEqual(left.count, right.count, "\(name) #\(index)")
                for member in left where right[member.key] != member.value {
                    XCTFail("\(name) #\(index) \(member.key): \(member.value) became \(String(describing: right[member.key]))")
                    break
                }
                guard let x = a.shape, let y = b.shape else {
                    XCTAssertEqual(a.shape == nil, b.shape == nil, "\(name) #\(index)")
                    continue
                }
                XCTAssertTrue(Self.sameGeometry(x, y), "\(name) #\(index): \(x.kind) vs \(y.kind)")
            }
            if name == "ne_50m_admin_0_countries.geojson", let schema = try? KMLSchemaCheck() {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("kml-roundtrip-\(getpid()).kml")
                try Data(kml.utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let (status, output) = try schema.run(file)
                XCTAssertEqual(status, 0, String(output.prefix(2000)))
            }
        }
    }

    /// Same kinds and every coordinate within half a unit of the 7th decimal.
    static func sameGeometry(_ a: Shape, _ b: Shape) -> Bool {
        func close(_ x: [Coordinate], _ y: [Coordinate]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy {
                abs($0.latitude - $1.latitude) <= 5.1e-8 && abs($0.longitude - $1.longitude) <= 5.1e-8
                    && ($0.altitude == nil) == ($1.altitude == nil)
            }
        }
        func samePolygon(_ p: Polygon, _ q: Polygon) -> Bool {
            close(p.coordinates, q.coordinates) && p.interiorPolygons.count == q.interiorPolygons.count
                && zip(p.interiorPolygons, q.interiorPolygons).allSatisfy { close($0.coordinates, $1.coordinates) }
        }
        switch (a, b) {
        case (.annotation(let p), .annotation(let q)): return close([p.coordinate], [q.coordinate])
        case (.circle(let p), .circle(let q)): return p == q
        case (.polyline(let p), .polyline(let q)): return close(p.coordinates, q.coordinates)
        case (.polygon(let p), .polygon(let q)): return samePolygon(p, q)
        case (.multiPolyline(let p), .multiPolyline(let q)):
            return p.polylines.count == q.polylines.count && zip(p.polylines, q.polylines).allSatisfy { close($0.coordinates, $1.coordinates) }
        case (.multiPolygon(let p), .multiPolygon(let q)):
            return p.polygons.count == q.polygons.count && zip(p.polygons, q.polygons).allSatisfy(samePolygon)
        case (.collection(let p), .collection(let q)):
            return p.origin == q.origin && p.members.count == q.members.count && zip(p.members, q.members).allSatisfy(sameGeometry)
        default: return false
        }
    }
}
