import Foundation
import OverlayModel
import XCTest
@testable import OverlayKit

/// Issue 34, items 1–4, 8 and 9: the classes of silently wrong or unbounded results a hostile
/// matrix found, each with the input that showed it.
final class HostileEdgeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-edges-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func feature(_ geometry: String, properties: String = "{}") -> String {
        #"{"type":"Feature","properties":\#(properties),"geometry":\#(geometry)}"#
    }

    // MARK: 1. Far-out longitudes

    func testFarOutLongitudesWrapExactlyByWholeTurns() {
        XCTAssertEqual(MapProjection.wrappedLongitude(1e308), -64)  // fmod(1e308, 360) = 296
        XCTAssertEqual(MapProjection.wrappedLongitude(-1e308), 64)
        XCTAssertEqual(MapProjection.wrappedLongitude(190), -170)
        XCTAssertEqual(MapProjection.wrappedLongitude(540), -180)
        XCTAssertEqual(MapProjection.wrappedLongitude(180), 180, "±180 stay apart")
        XCTAssertEqual(MapProjection.wrappedLongitude(-180), -180)
        XCTAssertEqual(MapProjection.wrappedLongitude(12.5), 12.5)
        XCTAssertEqual(MapPoint(Coordinate(latitude: 0, longitude: 1e308)).x, MapProjection.x(longitude: -64))
    }

    func testPathsPlaceFarOutVerticesTheShortWayFromTheirNeighbour() {
        func placed(_ longitudes: [Double]) -> [Double] {
            FarLongitudes.placed(longitudes.map { Coordinate(latitude: 0, longitude: $0) })
        }
        XCTAssertEqual(placed([1e308, -1e308]), [-64, 64])
        XCTAssertEqual(placed([170, 190, 200]), [170, 190, 200], "one piece across the antimeridian")
        XCTAssertEqual(placed([-190, -170]), [-190, -170], "leading far-out vertices follow the first within ±180")
        XCTAssertEqual(placed([190, 200]), [-170, -160], "a path with none within ±180 starts in the world")
        XCTAssertEqual(placed([0, 400]), [0, 40])
        XCTAssertEqual(placed([10, -170, 170]), [10, -170, 170], "within ±180 as written (geojson-vt)")
        XCTAssertEqual(placed([170, 3610, 175]), [170, 10, 175], "the nearest copy, even when that is back within ±180")
        XCTAssertEqual(placed([170, -3410, 175]), [170, 190, 175])
    }

    /// The issue's line drew along the top edge into every tile; now it is drawn exactly as the
    /// line it names (−64° … 64°), byte for byte, on both feature stores; so are polygons, points
    /// and circles written with far-out longitudes.
    func testFarOutShapesTileAsTheShapesTheyName() throws {
        let cases: [(far: String, near: String)] = [
            (#"{"type":"LineString","coordinates":[[1e308,10],[-1e308,20]]}"#, #"{"type":"LineString","coordinates":[[-64,10],[64,20]]}"#),
            (#"{"type":"Polygon","coordinates":[[[1e308,0],[-1e308,0],[-1e308,30],[1e308,30],[1e308,0]]]}"#,
             #"{"type":"Polygon","coordinates":[[[-64,0],[64,0],[64,30],[-64,30],[-64,0]]]}"#),
            (#"{"type":"MultiPoint","coordinates":[[1e308,5],[-7.2e200,-5]]}"#,
             #"{"type":"MultiPoint","coordinates":[[-64,5],[\#(MapProjection.wrappedLongitude(-7.2e200)),-5]]}"#),
            (#"{"type":"LineString","coordinates":[[550,10],[560,20]]}"#, #"{"type":"LineString","coordinates":[[-170,10],[-160,20]]}"#),
        ]
        for (index, pair) in cases.enumerated() {
            for store in [Tiler.FeatureStore.memory, .disk] {
                let far = try tiles(feature(pair.far), store: store, name: "far-\(index)-\(store)")
                let near = try tiles(feature(pair.near), store: .memory, name: "near-\(index)-\(store)")
                XCTAssertEqual(far.keys.sorted(), near.keys.sorted(), "\(pair.far) on the \(store) store")
                XCTAssertTrue(far == near, "\(pair.far) on the \(store) store: the same bytes")
                XCTAssertLessThan(far.count, 85 / 4, "drawn where it is, not into every tile of z0–3")
            }
        }
        var extent = LongitudeExtent()
        extent.add(.polyline(Polyline(coordinates: [Coordinate(latitude: 10, longitude: 1e308), Coordinate(latitude: 20, longitude: -1e308)])))
        XCTAssertEqual(extent.westEast?.west, -64, "info's extent names the same line")
        XCTAssertEqual(extent.westEast?.east, 64)
    }

    /// `filter --bbox` and `convert --clip` follow the same rule: `170 → 190` is the 20° line
    /// across the antimeridian (wrapped vertex by vertex it ran the long way through 0°).
    func testBoxesAndClipsTakeEdgesToFarOutVerticesTheShortWay() throws {
        let line = Shape.polyline(Polyline(coordinates: [Coordinate(latitude: 10, longitude: 170), Coordinate(latitude: 10, longitude: 190)]))
        XCTAssertFalse(try GeographicBox(west: 100, south: 0, east: 120, north: 20).intersects(line))
        XCTAssertTrue(try GeographicBox(west: 175, south: 0, east: -175, north: 20).intersects(line))
        XCTAssertTrue(try GeographicBox(west: -179, south: 0, east: -171, north: 20).intersects(line))
        let far = Shape.polyline(Polyline(coordinates: [Coordinate(latitude: 10, longitude: 1e308), Coordinate(latitude: 20, longitude: -1e308)]))
        XCTAssertTrue(try GeographicBox(west: -10, south: 0, east: 10, north: 30).intersects(far))
        XCTAssertFalse(try GeographicBox(west: 100, south: 0, east: 120, north: 30).intersects(far))

        XCTAssertNil(RectClip(rect: MapRect(west: 100, south: 0, east: 120, north: 20)).clip(line), "not the long way")
        let piece = try XCTUnwrap(RectClip(rect: MapRect(west: -179, south: 0, east: -171, north: 20)).clip(line))
        guard case .polyline(let clipped) = piece else { return XCTFail("\(piece)") }
        let longitudes = clipped.vertices.points.map { Coordinate($0).longitude }
        XCTAssertEqual(longitudes.min() ?? 0, -179, accuracy: 1e-9)
        XCTAssertEqual(longitudes.max() ?? 0, -171, accuracy: 1e-9)
        let both = try XCTUnwrap(RectClip(rect: MapRect(west: 175, south: 0, east: -175, north: 20)).clip(line))
        XCTAssertNotNil(both, "a box across the antimeridian keeps both sides")
    }

    /// The z/x/y files of a directory tiled from one feature, z0–3.
    private func tiles(_ text: String, store: Tiler.FeatureStore, name: String) throws -> [String: Data] {
        let input = folder.appendingPathComponent("\(name).geojson")
        try Data(text.utf8).write(to: input)
        let output = folder.appendingPathComponent(name)
        var tiler = Tiler(output: output.path, layer: "l")
        tiler.options.maxZoom = 3
        tiler.featureStore = store
        tiler.temporaryDirectory = folder.path
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        _ = try tiler.run(reading: &reader)
        var files = [String: Data]()
        for case let path as String in FileManager.default.enumerator(atPath: output.path) ?? FileManager.DirectoryEnumerator()
        where path.hasSuffix(".mvt") {
            files[path] = try Data(contentsOf: output.appendingPathComponent(path))
        }
        return files
    }

    /// The estimate a directory or MBTiles run checks before its first tile counts lines by their
    /// length and points one tile each (it counted polygons only: a line across the world at z20,
    /// a million tiles, counted nothing).
    func testTheTileEstimateCountsEveryGeometryKind() throws {
        let line = try TileSource(features: readGeoJSON(feature(#"{"type":"LineString","coordinates":[[-180,0],[180,0]]}"#)).features,
                                  options: TileOptions())
        let lineTiles = line.estimatedTiles(zooms: 0...20)
        XCTAssertGreaterThan(lineTiles, Double((1 << 21) - 1), "the world's width in tiles at each zoom")
        XCTAssertLessThan(lineTiles, Double(1 << 21) * 1.05, "its copies in the tile buffer beyond ±180 count too")
        let points = (0..<1000).map { feature(#"{"type":"Point","coordinates":[\#(Double($0) * 0.1 - 50),\#(Double($0 % 7))]}"#) }
        let pointSource = try TileSource(features: readGeoJSON(points.joined(separator: "\n")).features, options: TileOptions())
        XCTAssertEqual(pointSource.estimatedTiles(zooms: 10...12), 3000, "each point one tile per zoom")
        XCTAssertEqual(pointSource.estimatedTiles(zooms: 0...1), 1 + 4, "at most the zoom's tiles")
    }

    // MARK: 2. Cluster sums and means

    func testScaledSumsAndMeansNeitherOverflowNorLoseTheirDigits() {
        let big = [Double](repeating: 1e308, count: 300)
        XCTAssertEqual(ScaledSum(big).mean, 1e308)
        XCTAssertNil(ScaledSum(big).sum, "beyond the largest double")
        XCTAssertEqual(ScaledSum(big.map { -$0 }).mean, -1e308)
        XCTAssertEqual(ScaledSum([1e308, -1e308, 1e308, -1e308, 3]).sum, 3)
        XCTAssertEqual(ScaledSum([.greatestFiniteMagnitude, .greatestFiniteMagnitude]).mean, .greatestFiniteMagnitude)
        XCTAssertEqual(ScaledSum([0.1, 0.2, 0.3]).sum, 0.6, "compensated")
        XCTAssertEqual(ScaledSum([1, 2, 3, 4]).mean, 2.5)
        XCTAssertEqual(ScaledSum([]).sum, 0)
        XCTAssertNil(ScaledSum([]).mean)
        XCTAssertEqual(ScaledSum([0, -0.0]).mean, 0)
    }

    /// The tiny end of Double: subnormals (1e-310, the least 5e-324, negative ones) gave a NaN
    /// mean and a sum reported as overflowing, since the scale factor 2^1030 is itself infinite.
    func testScaledSumsAndMeansHoldAtTheTinyEndOfDouble() {
        let least = Double.leastNonzeroMagnitude
        // Subnormal literals underflow (a compiler warning): parsed from text instead.
        func tiny(_ text: String) -> Double { Double(text)! }
        XCTAssertEqual(ScaledSum([tiny("1e-310"), tiny("1e-310"), tiny("1e-310")]).sum, tiny("1e-310") * 3, "subnormal multiples add exactly")
        XCTAssertEqual(ScaledSum([tiny("1e-310"), tiny("1e-310"), tiny("1e-310")]).mean, tiny("1e-310"))
        XCTAssertEqual(ScaledSum([least, least, least]).sum, 3 * least)
        XCTAssertEqual(ScaledSum([least, least, least]).mean, least)
        XCTAssertEqual(ScaledSum([tiny("-1e-310"), tiny("-1e-310")]).mean, tiny("-1e-310"))
        XCTAssertEqual(ScaledSum([-least, least, least]).sum, least, "mixed signs, exact")
        XCTAssertEqual(ScaledSum([.leastNormalMagnitude, least]).sum, .leastNormalMagnitude + least)
        XCTAssertEqual(ScaledSum([.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1]).sum, 1,
                       "both ends at once: the huge ones cancel")
        for values in [[tiny("1e-310"), tiny("2e-310"), tiny("5e-324")], [tiny("-5e-324"), tiny("-5e-324")], [tiny("2.5e-320"), tiny("-1e-321"), tiny("7e-322")]] {
            let result = ScaledSum(values)
            XCTAssertTrue(result.mean?.isFinite ?? false, "\(values)")
            XCTAssertNotNil(result.sum, "\(values)")
        }
        let accumulated = PointClustering.accumulate([.number(tiny("1e-310")), .number(tiny("1e-310")), .number(tiny("1e-310"))], rule: .mean)
        XCTAssertEqual(accumulated, .number(tiny("1e-310")))
        XCTAssertEqual(PointClustering.accumulate([.number(tiny("5e-324")), .number(tiny("5e-324"))], rule: .sum), .number(tiny("1e-323")))
    }

    /// The issue's case: 300 points of value 1e308 clustered with `v:mean` and `w:sum`.
    func testClustersWriteTheMeanAndReportASumThatOverflows() throws {
        let points = (0..<300).map {
            feature(#"{"type":"Point","coordinates":[\#(2 + Double($0) * 1e-5),48]}"#, properties: #"{"v":1e308,"w":-1e308,"c":1}"#)
        }
        var tiler = Tiler(output: folder.appendingPathComponent("clusters.pmtiles").path, layer: "l")
        tiler.options.maxZoom = 3
        tiler.options.clusterDistance = 40
        tiler.options.clusterAttributes = ["v": .mean, "w": .sum, "c": .sum]
        var reader = try FeatureIO.reader(for: ByteInput(string: points.joined(separator: "\n")), format: .geojsonseq)
        let report = try tiler.run(reading: &reader)
        XCTAssertEqual(report.diagnostics.filter { $0.code == .tileSumOverflow }.count, 1, "\(report.diagnostics)")
        let overflowed = report.zooms.reduce(0) { $0 + $1.statistics.overflowedSums }
        XCTAssertEqual(overflowed, 4, "one cluster per zoom z0–3")
        XCTAssertEqual(report.metadata.dropReport?.zooms.map(\.statistics.overflowedSums), [1, 1, 1, 1])
        let clusters = try clusterProperties(in: tiler.output)
        for properties in clusters {
            XCTAssertEqual(properties["v"], .double(1e308), "the mean, finite")
            XCTAssertNil(properties["w"], "an overflowing sum is left out, not written as -inf")
            XCTAssertNotNil(properties["c"])
        }
        XCTAssertEqual(clusters.count, 4)
    }

    /// The properties of every cluster (`clustered: true`) in the archive at `path`, tile by tile.
    private func clusterProperties(in path: String) throws -> [[String: MVTValue]] {
        let archive = try TileArchive.open(path)
        var clusters = [[String: MVTValue]]()
        for id in try archive.tileIDs() {
            for layer in try MVTDecoder().decode(try XCTUnwrap(archive.tile(id))) {
                for feature in layer.features {
                    let properties = Dictionary(layer.properties(of: feature).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                    if properties["clustered"] == .bool(true) { clusters.append(properties) }
                }
            }
        }
        return clusters
    }

    /// The tiny end in tiles, in both feature stores: three clustered points with subnormal
    /// values wrote a NaN mean into the tiles and dropped the sum as overflowing.
    func testClustersOfSubnormalValuesWriteTheirSumAndMeanInBothStores() throws {
        let tinyValue = Double("1e-310")!
        let points = (0..<3).map {
            feature(#"{"type":"Point","coordinates":[\#(2 + Double($0) * 1e-5),48]}"#,
                    properties: #"{"v":1e-310,"w":1e-310,"n":-5e-324}"#)
        }
        for store in [Tiler.FeatureStore.memory, .disk] {
            var tiler = Tiler(output: folder.appendingPathComponent("tiny-\(store.rawValue).pmtiles").path, layer: "l")
            tiler.featureStore = store
            tiler.options.maxZoom = 2
            tiler.options.clusterDistance = 40
            tiler.options.clusterAttributes = ["v": .mean, "w": .sum, "n": .mean]
            var reader = try FeatureIO.reader(for: ByteInput(string: points.joined(separator: "\n")), format: .geojsonseq)
            let report = try tiler.run(reading: &reader)
            XCTAssertFalse(report.diagnostics.contains { $0.code == .tileSumOverflow }, "\(store): \(report.diagnostics)")
            let clusters = try clusterProperties(in: tiler.output)
            for properties in clusters {
                XCTAssertEqual(properties["v"], .double(tinyValue), "\(store): the mean of equal values is that value")
                XCTAssertEqual(properties["w"], .double(tinyValue * 3), "\(store): the sum, exact")
                XCTAssertEqual(properties["n"], .double(-Double.leastNonzeroMagnitude), "\(store)")
            }
            XCTAssertEqual(clusters.count, 3, "\(store): one cluster per zoom z0–2")
        }
    }

    // MARK: 3. Names that lie

    func testTileSetsAreRecognisedByTheirBytes() throws {
        let point = feature(#"{"type":"Point","coordinates":[1,2]}"#)
        func write(_ path: String, _ format: TileArchiveFormat) throws {
            var tiler = Tiler(output: path, layer: "l")
            tiler.archiveFormat = format
            tiler.options.maxZoom = 2
            var reader = try FeatureIO.reader(for: ByteInput(string: point), format: .geojson)
            _ = try tiler.run(reading: &reader)
        }
        let bare = folder.appendingPathComponent("set").path
        try write(bare, .pmtiles)
        XCTAssertTrue(try TileArchive.open(bare) is PMTilesReader, "PMTiles without an extension")
        XCTAssertGreaterThan(try TileArchive.open(bare).tileIDs().count, 2)
        let sqlite = folder.appendingPathComponent("set.mbtiles").path
        try write(sqlite, .mbtiles)
        let misnamed = folder.appendingPathComponent("sqlite.pmtiles").path
        try FileManager.default.moveItem(atPath: sqlite, toPath: misnamed)
        XCTAssertTrue(try TileArchive.open(misnamed) is MBTilesReader, "SQLite bytes named .pmtiles")
        let text = folder.appendingPathComponent("text.pmtiles").path
        try Data(point.utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try TileArchive.open(text)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .tileNotATileSet)
        }
        XCTAssertThrowsError(try TileArchive.open(folder.appendingPathComponent("missing.pmtiles").path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.kind, .io)
        }
    }

    func testAnOutputNameContradictingItsFormatIsRefused() throws {
        XCTAssertNotNil(Tiler.nameContradicting("x.pmtiles", format: .mbtiles))
        XCTAssertNotNil(Tiler.nameContradicting("x.MBTILES", format: .pmtiles))
        XCTAssertNotNil(Tiler.nameContradicting("x.pmtiles", format: .directory))
        XCTAssertNotNil(Tiler.nameContradicting("x.geojson", format: .pmtiles))
        XCTAssertNil(Tiler.nameContradicting("x.pmtiles", format: .pmtiles))
        XCTAssertNil(Tiler.nameContradicting("tiles", format: .mbtiles), "no extension says nothing")
        XCTAssertNil(Tiler.nameContradicting("tiles.geojson", format: .directory), "a directory of GeoJSON tiles")
        var tiler = Tiler(output: folder.appendingPathComponent("x.pmtiles").path, layer: "l")
        tiler.archiveFormat = .mbtiles
        XCTAssertThrowsError(try tiler.validate()) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .tileBadOption)
            XCTAssertEqual((error as? Diagnostic)?.code.kind.exitStatus, 64)
        }
    }

    // MARK: 4. `$` names

    func testUnknownDollarNamesAreRefusedWithTheKnownOnes() throws {
        XCTAssertThrowsError(try TileFeatureFilter(parsing: "rank > 1 and $zom == 1")) { error in
            let error = error as? WhereSyntaxError
            XCTAssertEqual(error?.column, 14)
            XCTAssertTrue(error?.message.contains("$id, $type, $zoom") == true, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try WhereExpression(parsing: "$zoom > 3")) { error in
            XCTAssertTrue((error as? WhereSyntaxError)?.message.contains("--visible-at") == true, "\(error)")
        }
        XCTAssertThrowsError(try WhereExpression(parsing: "not ($type exists)"))
        XCTAssertNoThrow(try TileFeatureFilter(parsing: "$zoom >= 2 and $type == 'Point' and $id != 3"))
        let quoted = try WhereExpression(parsing: "`$ref` == 1")
        XCTAssertTrue(try WhereEvaluator.evaluate(quoted, ["$ref": .integer(1)]), "a property named with $ is read quoted")
        XCTAssertNoThrow(try WhereExpression(parsing: "a$b == 1"), "$ inside a name is no variable")
    }

    // MARK: 8. Round trips

    /// GeoJSON → KML → GeoJSON gives every nesting of GeometryCollections back (a collection of a
    /// point and a collection of a point came back as one MultiPoint), and empty names.
    func testNestedCollectionsAndEmptyNamesSurviveKML() throws {
        let geometries = [
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[3,4]}]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[3,4]},{"type":"Point","coordinates":[5,6]}]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"GeometryCollection","geometries":[{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[0,0],[1,1]]}]}]},{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"MultiPoint","coordinates":[[1,2]]},{"type":"GeometryCollection","geometries":[{"type":"MultiPoint","coordinates":[[3,4],[5,6]]}]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":[[[0,0],[1,1]]]},{"type":"LineString","coordinates":[[2,2],[3,3]]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[3,4]},{"type":"LineString","coordinates":[[0,0],[1,1]]}]}]}"#,
        ]
        for geometry in geometries {
            let text = feature(geometry, properties: #"{"name":"","description":""}"#)
            let original = try readGeoJSON(text).features
            let kml = try FeatureIO.string(original, as: .kml)
            let back = try FeatureIO.readAll(ByteInput(string: kml), format: .kml)
            XCTAssertEqual(try FeatureIO.string(back.features, as: .geojson), try FeatureIO.string(original, as: .geojson), kml)
            XCTAssertTrue(back.warnings.isEmpty, "\(back.warnings)")
        }
        let kml = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name></name><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>"#
        let features = try FeatureIO.readAll(ByteInput(string: kml), format: .kml).features
        XCTAssertEqual(features.first?.properties?["name"], .string(""), "KML → GeoJSON keeps the empty name")
        XCTAssertTrue(try FeatureIO.string(features, as: .kml).contains("<name></name>"), "… and GeoJSON → KML writes it back")
        if case .annotation(let point)? = features.first?.shape { XCTAssertNil(point.title, "an empty name titles nothing") }
    }

    /// A KMZ entry whose features were read (through a NetworkLink) is in a GeoJSON output: only
    /// the files that are not are named as dropped.
    func testKMZEntriesReadAreNotReportedAsDropped() throws {
        let kml = { (body: String) in #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document>\#(body)</Document></kml>"# }
        let entries: [(String, String)] = [
            ("doc.kml", kml(#"<Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark><NetworkLink><Link><href>part.kml</href></Link></NetworkLink>"#)),
            ("part.kml", kml(#"<Placemark><name>b</name><Point><coordinates>3,4</coordinates></Point></Placemark>"#)),
            ("images/icon.png", "not really a png"),
        ]
        var reader = try KMZ.reader(for: ByteInput(bytes: KMZTestArchive.stored(entries.map { ($0.0, Array($0.1.utf8)) }), name: "t.kmz"))
        var names: [String] = []
        while let feature = try reader.next() { names.append(feature.properties?["name"]?.stringValue ?? "-") }
        XCTAssertTrue(names.contains("b"), "the linked entry's features were read: \(names)")
        var writer = GeoJSONWriter(output: ByteOutput())
        let warnings = writer.carry(reader.documentContext)
        XCTAssertEqual(warnings.map(\.message).filter { $0.contains("part.kml") }, [], "read, so not dropped")
        XCTAssertEqual(warnings.filter { $0.message.contains("images/icon.png") }.count, 1, "\(warnings)")
    }

    // MARK: 9. Regex work per value

    /// `(a{1000}){20}` at the documented limits kept ~1,000 states alive per character of a
    /// value of `a` runs: the work per value is bounded, and past it the value is refused.
    func testRegexWorkPerValueIsBounded() throws {
        let regex = try LinearRegex(pattern: "(a{1000}){20}", flags: "")
        let runs = String(repeating: String(repeating: "a", count: 999) + "b", count: 20)
        XCTAssertThrowsError(try regex.matches(runs, budget: 100_000)) { error in
            XCTAssertEqual((error as? LinearRegex.TooCostly)?.length, 20_000)
        }
        XCTAssertFalse(try regex.matches(String(repeating: "b", count: 100_000), budget: 0), "two steps per character are every text's")
        XCTAssertTrue(try LinearRegex(pattern: "needle", flags: "").matches(String(repeating: "x", count: 200_000) + "needle", budget: 0))
        XCTAssertEqual(LinearRegex.maximumWork, 20_000_000)
        // The filter and tile commands refuse such a value, located (HostileEdgeCommandTests: the
        // default bound takes seconds in a debug build, too long for this target).
    }
}
