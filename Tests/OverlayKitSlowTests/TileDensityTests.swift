import Foundation
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// What keeps tiles drawable at any data size: point thinning by rate, tiny shapes added up into
/// stand-ins, clustering, the per-tile budget and its strategies, zoom guessing, and the
/// `tippecanoe` member.
final class TileDensityTests: XCTestCase {
    /// Every tile the pyramid emits, by id (after clustering; no budget).
    func tiles(_ source: TileSource, parallelism: Int = 2) throws -> ([TileID: VectorTile], [TileZoomCounts]) {
        let lock = NSLock()
        nonisolated(unsafe) var tiles = [TileID: VectorTile]()
        let counts = try TilePyramid.build(source, minZoom: 0, parallelism: parallelism) { tile in
            lock.lock()
            tiles[tile.id] = tile
            lock.unlock()
            return 1
        }
        return (tiles, counts)
    }

    /// Every feature of a GeoJSON text.
    func features(_ text: String) throws -> [Feature] {
        var reader = GeoJSONReader(input: ByteInput(string: text, name: "test.geojson"))
        return try reader.readAll()
    }

    func source(_ text: String, configure: (inout TileOptions) -> Void) throws -> TileSource {
        var options = TileOptions()
        configure(&options)
        return try TileSource(features: features(text), options: options)
    }

    /// Points actually in each zoom's tiles (not their buffers), by zoom.
    func pointsPerZoom(_ tiles: [TileID: VectorTile], weight: (TileFeature) -> Int = { _ in 1 }) -> [Int: Int] {
        var result = [Int: Int]()
        for (id, tile) in tiles {
            for feature in tile.features where feature.type == .point {
                for point in feature.rings.flatMap({ $0 }) where (0..<Int32(tile.extent)).contains(point.x) && (0..<Int32(tile.extent)).contains(point.y) {
                    result[id.z, default: 0] += weight(feature)
                }
            }
        }
        return result
    }

    /// tippecanoe's rule, by hand: rate 2 from base zoom 2 gives the points along the curve the
    /// first zooms 0, 1, 2, 0, 2, 1, 2, 0 (`calc_feature_minzoom`); a point that is the first
    /// of its tile at a zoom is shown there too ("the first feature in each tile is always kept").
    func testThinningWalkKeepsOneInRateAndEveryTilesFirstPoint() {
        // A point `offset` grid units into tile (column, row) of zoom 2.
        func key(_ column: UInt32, _ row: UInt32, _ offset: UInt32 = 0) -> UInt64 {
            SpatialOrder.key(column: column << 30 | offset, row: row << 30)
        }
        let keys = [key(0, 0), key(0, 0, 1), key(0, 0, 1), key(0, 0, 2), // one z2 tile; the 3rd at the 2nd's place
                    key(2, 0), key(2, 0, 1), // a new z1 tile: its first point is shown from z1, not z2
                    key(3, 0), key(3, 1)] // new z2 tiles in the same z1 tile
        XCTAssertEqual(keys, keys.sorted())
        var walker = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: 0)
        XCTAssertEqual(keys.map { walker.next(key: $0) }, [0, 1, 2, 0, 1, 1, 2, 0])
        var rateOnly = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: 0)
        XCTAssertEqual(keys.map { _ in rateOnly.next(key: keys[0]) }, [0, 1, 2, 0, 2, 1, 2, 0], "one place: the rate alone")
        // Resumed from a state, or past points only counted (a split run's plan), the walk goes on the same.
        var first = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: 0)
        for key in keys[..<4] { _ = first.next(key: key) }
        var skipped = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: 0)
        skipped.skip(4, lastKey: keys[3])
        XCTAssertEqual(skipped.state, first.state)
        var resumed = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: 0, state: first.state,
                                                  shadows: first.shadows)
        XCTAssertEqual(keys[4...].map { resumed.next(key: $0) }, [1, 1, 2, 0])
        XCTAssertEqual(PointThinning.Walker.firstZoomAlone(key(1, 1), after: nil), 0)
        XCTAssertEqual(PointThinning.Walker.firstZoomAlone(key(1, 1), after: key(0, 0)), 2, "the same z1 tile")
        XCTAssertEqual(PointThinning.Walker.firstZoomAlone(key(1, 1), after: key(1, 1)), .max)
        // A point of an earlier tile in a tile's buffer comes first in it (tippecanoe reads the
        // buffer too): the tile's own first point is then not kept for it. The 2nd point lies a
        // grid unit west of the z1 tile (1, 0); the 3rd, that tile's first, keeps its rate's z2.
        let edge = SpatialOrder.key(column: (1 << 31) - 1, row: 0)
        XCTAssertEqual(PointThinning.TileShadows.shadowed(by: edge, zoom: 1, buffer: 1.0 / 64), [key(2, 0) >> 62])
        XCTAssertEqual(PointThinning.TileShadows.shadowed(by: key(0, 0, 1), zoom: 1, buffer: 1.0 / 64), [])
        for (buffer, expected) in [(1.0 / 64, [UInt8]([0, 1, 2])), (0, [0, 1, 1])] {
            var shadowed = PointThinning.Walker(rate: 2, baseZoom: 2, maxZoom: 2, buffer: buffer)
            XCTAssertEqual([key(0, 0), edge, key(2, 0)].map { shadowed.next(key: $0) }, expected, "buffer \(buffer)")
        }
    }

    func testThinningKeepsOneInRatePerZoomAndEveryTilesFirstPointNestedAndByInputOnly() throws {
        let text = TileFixtures.clusteredPoints(20_000)
        let source = try self.source(text) { $0.maxZoom = 8; $0.pointDropRate = 2.5 }
        let (tiles, counts) = try tiles(source)
        let perZoom = pointsPerZoom(tiles)
        XCTAssertEqual(perZoom[8], 20_000, "every point at the base zoom")
        // The tiles that hold points, by zoom: here each keeps one of its own at least (its first
        // along the curve, unless an earlier tile's point in its buffer comes first).
        var occupied = [Int: Set<TileID>]()
        for feature in try features(text) {
            guard case .annotation(let point)? = feature.shape else { continue }
            let place = MapPoint(point.coordinate)
            for zoom in 0...8 {
                let scale = Double(1 << zoom) / MapProjection.worldSize
                occupied[zoom, default: []].insert(TileID(z: zoom, x: Int(place.x * scale), y: Int(place.y * scale)))
            }
        }
        for zoom in 0..<8 {
            let byRate = 20_000 / pow(2.5, Double(8 - zoom))
            let kept = Double(perZoom[zoom] ?? 0)
            XCTAssertGreaterThanOrEqual(kept, byRate * 0.98 - 2, "z\(zoom): one in 2.5^(8 − z)")
            XCTAssertLessThanOrEqual(kept, byRate * 1.02 + 2 + Double(occupied[zoom]!.count), "z\(zoom): and each tile's first")
            XCTAssertGreaterThan(counts[zoom].statistics.thinnedFeatures, 0)
            for id in occupied[zoom]! {
                XCTAssertGreaterThan(pointsPerZoom([id: tiles[id]!])[zoom] ?? 0, 0, "\(id) keeps a point")
            }
        }
        // A point drawn at a zoom is drawn at every deeper zoom.
        let firstZooms = source.thinnedMinZooms
        XCTAssertEqual(firstZooms.count, 20_000)
        for zoom in 0...8 { XCTAssertEqual(firstZooms.filter { $0 <= zoom }.count, perZoom[zoom], "z\(zoom)") }
        // The same survivors on one thread.
        let (single, _) = try self.tiles(source, parallelism: 1)
        XCTAssertEqual(Set(single.keys), Set(tiles.keys))
        for (id, tile) in tiles { XCTAssertEqual(single[id]?.features, tile.features, "\(id)") }
        // Rate 1 (geojson-vt) keeps everything everywhere.
        let all = try self.source(text) { $0.maxZoom = 8 }
        XCTAssertEqual(pointsPerZoom(try self.tiles(all).0)[0], 20_000)
    }

    func testThinnedSurvivorsDoNotDependOnReadThreads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("points.geojsons")
        try (TileFixtures.clusteredPoints(30_000) + "\n").write(to: input, atomically: true, encoding: .utf8)
        var options = TileOptions()
        options.maxZoom = 6
        options.pointDropRate = 2.5
        var results = [(zooms: [UInt8], tiles: [TileID: VectorTile])]()
        for threads in [1, 2] {
            // Parts small enough that two threads really read the file in parts.
            var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
            let source = try TileSource(reading: &reader, options: options, readThreads: threads, minimumPartBytes: 1024,
                                        onWarning: { _ in })
            results.append((source.thinnedMinZooms, try tiles(source, parallelism: threads).0))
        }
        XCTAssertEqual(results[0].zooms, results[1].zooms, "the same first zoom for every point")
        XCTAssertEqual(Set(results[0].tiles.keys), Set(results[1].tiles.keys))
        for (id, tile) in results[0].tiles { XCTAssertEqual(results[1].tiles[id]?.features, tile.features, "\(id)") }
    }

    func testTinyPolygonsStayVisibleAtEveryZoom() throws {
        // 2,000 buildings of about 10 m in one town: far below a pixel until z13.
        var lines = [String]()
        for index in 0..<2000 {
            let lon = 8.5 + Double(index % 50) * 0.0003, lat = 47.3 + Double(index / 50) * 0.0003
            let d = 0.0001
            lines.append(#"{"type":"Feature","properties":{"i":\#(index)},"geometry":{"type":"Polygon","coordinates":[[[\#(lon),\#(lat)],[\#(lon + d),\#(lat)],[\#(lon + d),\#(lat + d)],[\#(lon),\#(lat + d)],[\#(lon),\#(lat)]]]}}"#)
        }
        let text = lines.joined(separator: "\n")
        let reduced = try source(text) { $0.maxZoom = 14; $0.accumulatesTinyShapes = true }
        let (tiles, counts) = try tiles(reduced)
        for zoom in 0...14 {
            XCTAssertTrue(tiles.keys.contains { $0.z == zoom }, "z\(zoom) has a tile")
        }
        XCTAssertGreaterThan(counts[0].statistics.tinyStandIns, 0)
        // The stand-ins add up to about the area they stand for (within one threshold per tile).
        let z10 = tiles.filter { $0.key.z == 10 }.values.flatMap(\.features)
        XCTAssertTrue(z10.allSatisfy { $0.type == .polygon && $0.properties?["i"] != nil }, "stand-ins keep their feature's attributes")
        // geojson-vt's rule drops them all.
        let dropped = try source(text) { $0.maxZoom = 14 }
        let (plain, _) = try self.tiles(dropped)
        XCTAssertFalse(plain.keys.contains { $0.z == 0 })
        XCTAssertEqual(Set(plain.keys.filter { $0.z == 14 }), Set(tiles.keys.filter { $0.z == 14 }), "full detail unchanged")
    }

    /// tippecanoe's tiny-polygon size: a ring of about 8 tile units² is drawn as itself at the
    /// default size 2 (below 4 units² is tiny), and added up into stand-ins at size 3 (9 units²).
    func testTinyPolygonSizeSetsWhichRingsAreDrawnAsThemselves() throws {
        let d = 0.0001, lon = 8.5, lat = 47.3
        let text = #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[\#(lon),\#(lat)],[\#(lon + d),\#(lat)],[\#(lon + d),\#(lat + d)],[\#(lon),\#(lat + d)],[\#(lon),\#(lat)]]]}}"#
        func tinyAtZ11(size: Double) throws -> Int {
            let source = try source(text) { $0.maxZoom = 14; $0.accumulatesTinyShapes = true; $0.tinyPolygonSize = size }
            return try tiles(source).1[11].statistics.droppedTinyRings
        }
        XCTAssertEqual(try tinyAtZ11(size: 2), 0)
        XCTAssertEqual(try tinyAtZ11(size: 3), 1)
        XCTAssertThrowsError(try source(text) { $0.accumulatesTinyShapes = true; $0.tinyPolygonSize = 0 })
    }

    func testClusterCountsAddUpToThePointsAtEveryZoom() throws {
        let text = TileFixtures.clusteredPoints(5000) { #"{"n":\#($0),"w":2}"# }
        let source = try self.source(text) {
            $0.maxZoom = 7
            $0.pointDropRate = 2.5  // ignored while clustering: clusters stand for every point
            $0.clusterDistance = 30
            $0.clusterAttributes = ["w": .sum, "n": .count]
        }
        let (tiles, counts) = try tiles(source)
        let sums = pointsPerZoom(tiles) { feature in
            if case .integer(let count)? = feature.properties?["point_count"] { return Int(count) }
            return 1
        }
        for zoom in 0...7 { XCTAssertEqual(sums[zoom], 5000, "z\(zoom)") }
        XCTAssertGreaterThan(counts[0].statistics.clusters, 0)
        let cluster = try XCTUnwrap(tiles.values.flatMap(\.features).first { $0.properties?["clustered"] == .bool(true) })
        guard case .integer(let pointCount)? = cluster.properties?["point_count"] else { return XCTFail("no point_count") }
        XCTAssertEqual(cluster.properties?["w"], .integer(2 * pointCount), "sum of the members' w")
        XCTAssertEqual(cluster.properties?["n"], .integer(pointCount), "count of the members")
        XCTAssertEqual(PointClustering.abbreviated(999), .integer(999))
        XCTAssertEqual(PointClustering.abbreviated(1234), .string("1.2k"))
        XCTAssertEqual(PointClustering.abbreviated(12_345), .string("12k"))
    }

    func testTippecanoeMemberLimitsTheZooms() throws {
        let text = #"""
        {"type":"Feature","tippecanoe":{"minzoom":3,"maxzoom":4},"properties":{"a":1},"geometry":{"type":"Point","coordinates":[10,10]}}
        {"type":"Feature","tippecanoe":{"minzoom":"x","layer":"other"},"properties":{"a":2},"geometry":{"type":"Point","coordinates":[10,10]}}
        """#
        let source = try self.source(text) { $0.maxZoom = 6 }
        let (tiles, counts) = try tiles(source)
        for zoom in 0...6 {
            let values = tiles.filter { $0.key.z == zoom }.values.flatMap(\.features).compactMap { $0.properties?["a"] }
            XCTAssertEqual(Set(values), (3...4).contains(zoom) ? [.integer(1), .integer(2)] : [.integer(2)], "z\(zoom)")
        }
        XCTAssertEqual(counts[0].statistics.outsideZoomRange, 1)
        XCTAssertEqual(source.invalidZoomMembers, 1)
        XCTAssertEqual(source.layers.namedInMembers, 1)
    }

    /// A tile of `count` points (with properties) as the pyramid would hand it over.
    func denseTile(_ count: Int) throws -> VectorTile {
        let source = try self.source(TileFixtures.clusteredPoints(count) { #"{"name":"point number \#($0)","n":\#($0)}"# }) { $0.maxZoom = 0 }
        return try XCTUnwrap(try tiles(source).0[TileID(z: 0, x: 0, y: 0)])
    }

    /// A tile of many features over the byte limit is measured on an even share of them first:
    /// it is never encoded whole, and it keeps about what an exact first round would.
    func testAVeryDenseTileIsMeasuredOnAShareBeforeItIsEncoded() throws {
        let tile = try denseTile(80_000)
        XCTAssertGreaterThanOrEqual(tile.features.count, TileBudget.probeThreshold)
        let encoder = MVTEncoder(layerName: "points")
        var budget = TileBudget()
        budget.maxBytes = 100_000
        var reduced = tile
        var encodedCounts = [Int]()
        let fitted = try budget.fit(&reduced) { tile in
            encodedCounts.append(tile.features.count)
            return encoder.encode(tile).0
        }
        let step = tile.features.count / TileBudget.probeFeatures
        XCTAssertEqual(encodedCounts.first, Array(stride(from: 0, to: tile.features.count, by: step)).count, "a share first")
        XCTAssertLessThan(encodedCounts.max() ?? .max, tile.features.count, "never encoded whole")
        XCTAssertLessThanOrEqual(try Gzip.compress(fitted.encoded).count, 100_000)
        XCTAssertEqual(reduced.statistics.droppedForBudget, tile.features.count - reduced.features.count)
        // The exact way, for comparison: the whole tile encoded first.
        let whole = try Gzip.compress(encoder.encode(tile).0).count
        let exactFirstTarget = Double(tile.features.count) * min(0.9, 100_000 / Double(whole) * 0.95)
        XCTAssertGreaterThan(Double(reduced.features.count), 0.8 * exactFirstTarget, "keeps about what fits")
    }

    func testEveryStrategyFitsTheBudgetInBoundedRounds() throws {
        let tile = try denseTile(20_000)
        let encoder = MVTEncoder(layerName: "points")
        for strategy in TileBudget.Strategy.allCases {
            var budget = TileBudget()
            budget.strategy = strategy
            budget.maxBytes = 20_000
            budget.maxFeatures = 5000
            var reduced = tile
            var rounds = 0
            let fitted = try budget.fit(&reduced) { tile in
                rounds += 1
                return encoder.encode(tile).0
            }
            XCTAssertLessThanOrEqual(rounds, TileBudget.maximumRounds + 1, "\(strategy)")
            XCTAssertLessThanOrEqual(try Gzip.compress(fitted.encoded).count, 20_000, "\(strategy)")
            // The gzip the size check made is the archive's stored bytes, not a second encoding.
            if let gzipped = fitted.gzipped { XCTAssertEqual(gzipped, try Gzip.compress(fitted.encoded), "\(strategy)") }
            XCTAssertLessThanOrEqual(reduced.features.count, 5000, "\(strategy)")
            XCTAssertGreaterThan(reduced.features.count, 100, "\(strategy) keeps what fits")
            let stats = reduced.statistics
            XCTAssertEqual(stats.droppedForBudget + stats.coalescedForBudget, tile.features.count - reduced.features.count, "\(strategy)")
            if strategy == .coalesceDensest || strategy == .coalesceSmallest {
                XCTAssertGreaterThan(stats.coalescedForBudget, 0, "\(strategy) merges before it drops")
            }
        }
        // Drop-densest keeps a point in a sparse place over one of many in a dense one.
        var budget = TileBudget()
        budget.maxFeatures = 2
        var three = tile
        three.keepFeatures(at: [0, 3, 1])  // two in Paris (index 0 and 3), one in New York
        _ = try budget.fit(&three) { encoder.encode($0).0 }
        XCTAssertEqual(three.features.count, 2)
        XCTAssertTrue(three.features.contains(tile.features[1]), "the lone New York point stays")
    }

    func testATileThatCannotFitIsAnErrorNamingIt() throws {
        var tile = try denseTile(10)
        var budget = TileBudget()
        budget.maxBytes = 10
        XCTAssertThrowsError(try budget.fit(&tile) { MVTEncoder(layerName: "p").encode($0).0 }) { error in
            let diagnostic = error as? Diagnostic
            XCTAssertEqual(diagnostic?.code, .tileTooLarge)
            XCTAssertTrue(diagnostic?.message.contains("tile 0/0/0") ?? false, diagnostic?.message ?? "")
        }
    }

    /// The expected zooms are tippecanoe 2.x's own `-zg` choices for the same inputs written as
    /// GeoJSON ("Choosing a maxzoom of -z5 for features typically 9117 feet … apart", -z9, and
    /// "-z5 for resolution of about 8294 feet … within features").
    func testGuessedZoomsFollowTheSpacing() throws {
        // 400 points 0.01° apart along the equator.
        var anchors = [(source: Int, x: Double, y: Double)]()
        for index in 0..<400 {
            let point = MapPoint(Coordinate(latitude: 0, longitude: Double(index) * 0.01))
            anchors.append((index, point.x, point.y))
        }
        XCTAssertEqual(MaxZoomGuess.guess(SpatialOrder(anchors)), 5)
        // 0.001° apart from 0.01°.
        var closer = [(source: Int, x: Double, y: Double)]()
        for index in 0..<400 {
            let point = MapPoint(Coordinate(latitude: 0, longitude: Double(index) * 0.001 + 0.01))
            closer.append((index, point.x, point.y))
        }
        XCTAssertEqual(MaxZoomGuess.guess(SpatialOrder(closer)), 9)
        XCTAssertEqual(MaxZoomGuess.guess(SpatialOrder([(0, 5, 5)]), features: []), 14, "one position: the default")
        // One line of 10 vertices 0.01° apart: the vertex rule alone.
        let vertices = (0..<10).map { MapPoint(Coordinate(latitude: 0, longitude: Double($0) * 0.01)) }
        let line = ProjectedFeature(type: .line, coordinates: vertices.flatMap { [$0.x, $0.y, 0] },
                                    rings: [ProjectedRing(start: 0, count: 10, size: vertices[9].x - vertices[0].x, isOuter: false)],
                                    source: 0)
        XCTAssertEqual(MaxZoomGuess.guess(SpatialOrder([(0, vertices[0].x, vertices[0].y)]), features: [line]), 5)
        // -Bg: the lowest zoom where no tile holds more than the limit.
        var densest = PointThinning.DensestTiles(maxZoom: 14)
        for entry in SpatialOrder(anchors).entries { densest.add(entry.key) }
        XCTAssertEqual(densest.baseZoom(limit: 400), 0)
        XCTAssertLessThanOrEqual(densest.best[14], 100)
        XCTAssertGreaterThan(densest.baseZoom(limit: 100), 0)
    }

    func testExplanationAccountsForEveryFeatureOfTheTile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("points.geojsons")
        try (TileFixtures.clusteredPoints(3000) + "\n").write(to: input, atomically: true, encoding: .utf8)
        var tiler = Tiler(output: folder.appendingPathComponent("p.pmtiles").path, layer: "points")
        tiler.options.maxZoom = 6
        tiler.options.budget.maxFeatures = 10
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        let report = try tiler.run(reading: &reader)
        // Paris (2.35°E, 48.85°N) at z2 is tile 2/2/1.
        var again = try FeatureIO.reader(for: ByteInput(path: input.path))
        let explanation = try tiler.explain(TileID(z: 2, x: 2, y: 1), reading: &again)
        let counts = explanation.counts
        XCTAssertEqual(counts[.kept], 10, "the feature budget (of about 1000 / 2.5^4 = 26 left by thinning)")
        XCTAssertEqual(explanation.writtenFeatures, 10)
        XCTAssertGreaterThan(counts[.thinned] ?? 0, 0)
        XCTAssertGreaterThan(counts[.droppedForBudget] ?? 0, 0)
        XCTAssertEqual(explanation.entries.count, 1000, "every Paris point reaches the tile")
        XCTAssertEqual(explanation.statistics.droppedForBudget, counts[.droppedForBudget])
        let z2 = try XCTUnwrap(report.zooms.first { $0.zoom == 2 })
        XCTAssertGreaterThanOrEqual(z2.statistics.droppedForBudget, counts[.droppedForBudget] ?? 0)
        XCTAssertThrowsError(try tiler.explain(TileID(z: 7, x: 0, y: 0), reading: &again), "beyond the max zoom")

        // The disk store: the same explanation, whether the records on the way are cut while
        // read (0 bytes held) or read at once.
        var onDisk = tiler
        onDisk.featureStore = .disk
        onDisk.temporaryDirectory = folder.path
        for loadBytes in [0, TilePyramid.loadBytes] {
            var inputs = [TileInput(layer: "points", reader: try FeatureIO.reader(for: ByteInput(path: input.path)))]
            let fromDisk = try onDisk.explain(TileID(z: 2, x: 2, y: 1), reading: &inputs, loadBytes: loadBytes)
            XCTAssertEqual(fromDisk.entries.map(\.inputIndex), explanation.entries.map(\.inputIndex), "held \(loadBytes)")
            XCTAssertEqual(fromDisk.entries.map(\.outcome), explanation.entries.map(\.outcome), "held \(loadBytes)")
            XCTAssertEqual(fromDisk.entries.map(\.attributes), explanation.entries.map(\.attributes), "held \(loadBytes)")
            XCTAssertEqual(fromDisk.encodedBytes, explanation.encodedBytes, "held \(loadBytes)")
        }
    }

    func testASampledPlanThatMeetsABadRecordReportsItWhereItIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plan-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every 300th record from line 9,001 lacks its closing braces: some are among those
        // sampled, and the plan reads everything again to report the first one where the reader
        // finds it (line 9,002, where the record runs on), not at its place in the sample.
        var lines = TileFixtures.clusteredPoints(20_000).split(separator: "\n").map(String.init)
        let good = folder.appendingPathComponent("good.geojsons")
        try (lines.joined(separator: "\n") + "\n").write(to: good, atomically: true, encoding: .utf8)
        for index in Swift.stride(from: 9_000, to: lines.count, by: 300) { lines[index].removeLast(2) }
        let input = folder.appendingPathComponent("points.geojsons")
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        var points = Tiler(output: folder.appendingPathComponent("p.pmtiles").path, layer: "points")
        points.options.maxZoom = 6
        points.planSampleRecords = 1_000
        var goodReader = try FeatureIO.reader(for: ByteInput(path: good.path))
        XCTAssertGreaterThan(try points.plan(reading: &goodReader).recordStride, 1, "the good file's plan is sampled")
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        XCTAssertThrowsError(try points.plan(reading: &reader)) { error in
            XCTAssertEqual((error as? Diagnostic)?.location?.line, 9_002, "\(error)")
            XCTAssertEqual((error as? Diagnostic)?.location?.file, input.path)
        }
    }

    func testFeatureArrayScannerFindsEachFeatureOfACollection() throws {
        // Brackets and quotes inside strings, a member before `features` holding an array and
        // objects, a property named "features", pretty-printed features.
        let text = """
        {"type":"FeatureCollection","bbox":[-10,-10,10,10],"note":{"features":[{"a":1}]},"name":"a \\"features\\" [x] {y}",
         "features": [
          {"type":"Feature","properties":{"features":[1,2],"s":"}]\\\\"},"geometry":{"type":"Point","coordinates":[1,2]}},
          {
            "type": "Feature", "properties": {"t": "{\\"[\\""},
            "geometry": {"type": "LineString", "coordinates": [[3, 4], [5, 6]]}
          },
          {"type":"Feature","properties":null,"geometry":null}
         ],
         "after": [{"type":"Feature"}]
        }
        """
        let bytes = Array(text.utf8)
        var records = [String]()
        for chunkSize in [1, 7, bytes.count] {
            records = []
            var scanner = InputRecordScanner(.featureCollection)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunkSize)
                bytes.withUnsafeBufferPointer { all in
                    scanner.scan(UnsafeBufferPointer(rebasing: all[offset..<end]), at: offset) { start, stop in
                        records.append(String(decoding: bytes[start..<stop], as: UTF8.self))
                    }
                }
                offset = end
            }
            XCTAssertEqual(records.count, 3, "chunks of \(chunkSize)")
        }
        for record in records {
            var reader = GeoJSONReader(input: ByteInput(string: record))
            XCTAssertNotNil(try reader.next(), record)
        }
        XCTAssertTrue(records[1].contains("LineString"))
        let file = ByteInput(bytes: bytes, name: "c.geojson")
        let estimate = try SequenceSample.estimatedRecords(in: file, size: bytes.count)
        XCTAssertEqual(estimate?.layout, .featureCollection)
        XCTAssertEqual(estimate?.records, 3)
        let sample = try SequenceSample(file, size: bytes.count, layout: .featureCollection, stride: 1, maxZoom: 4, threads: 2)
        XCTAssertEqual(sample.records, 3)
        XCTAssertEqual(sample.keptRecords, 3)
        XCTAssertEqual(sample.expectedTiles(sample.anchoredTiles)[0], 1)
    }

    func testSequenceSampleCountsEveryRecordsTileAndKeepsTheSameRecordsOnAnyThreads() throws {
        // Compact and pretty-printed records, RS-prefixed ones, a record with no position, no
        // final newline.
        var records = (0..<3_000).map { index in
            #"{"type":"Feature","properties":{"i":\#(index)},"geometry":{"type":"Point","coordinates":[\#(Double(index % 360) - 179.5),\#(Double(index % 170) - 84.5)]}}"#
        }
        records[10] = "{\n  \"type\": \"Feature\",\n  \"properties\": {},\n  \"geometry\": {\n    \"type\": \"Point\",\n    \"coordinates\": [1.5, 2.5]\n  }\n}"
        records[11] = "\u{1E}" + records[11]
        records[12] = #"{"type":"Feature","properties":{},"geometry":null}"#
        let bytes = Array(records.joined(separator: "\n").utf8)
        let file = ByteInput(bytes: bytes, name: "points.geojsons")
        let one = try SequenceSample(file, size: bytes.count, stride: 7, maxZoom: 6, threads: 1)
        let three = try SequenceSample(file, size: bytes.count, stride: 7, maxZoom: 6, threads: 3, minimumPartBytes: 1_000)
        XCTAssertEqual(one.records, 3_000)
        XCTAssertEqual(three.records, 3_000)
        XCTAssertEqual(one.kept, three.kept, "the same records kept on any number of threads")
        XCTAssertEqual(Double(one.keptRecords), 3_000 / 7, accuracy: 100)
        // The positions: 360 longitudes × 170 latitudes by index, so every tile at z0–z6 is
        // exactly what a set of the positions' tiles gives.
        var expected = Array(repeating: Set<Int>(), count: 7)
        for index in 0..<3_000 where index != 12 {
            let position = index == 10 ? (1.5, 2.5) : (Double(index % 360) - 179.5, Double(index % 170) - 84.5)
            for zoom in 0...6 {
                let point = MapPoint(Coordinate(latitude: position.1, longitude: position.0))
                let scale = Double(1 << zoom) / MapProjection.worldSize
                expected[zoom].insert(Int(point.x * scale) << 32 | Int(point.y * scale))
            }
        }
        // Every tile reached counts once: thinning keeps each tile's first point.
        XCTAssertEqual(one.expectedTiles(one.anchoredTiles), expected.map { Double($0.count) })
        XCTAssertEqual(three.expectedTiles(three.anchoredTiles), expected.map { Double($0.count) })
        // The kept records read back as records of their own.
        var reader = GeoJSONReader(input: ByteInput(bytes: one.kept, name: "kept"))
        var read = 0
        while try reader.next() != nil { read += 1 }
        XCTAssertEqual(read, one.keptRecords)
        let estimate = try SequenceSample.estimatedRecords(in: file, size: bytes.count)
        XCTAssertEqual(estimate?.records, 3_000)
        XCTAssertEqual(estimate?.layout, .sequence)
    }

    func testARowOfTilesAlikeIsKnownFromOneOfThem() {
        func tile(_ features: [TileFeature]) -> VectorTile {
            VectorTile(id: TileID(z: 9, x: 3, y: 4), extent: 4096, features: features, statistics: TileStatistics(),
                       sourcePointCount: 0, pointCount: 0)
        }
        func polygon(_ ring: [(Int32, Int32)]) -> TileFeature {
            TileFeature(type: .polygon, xy: ring.flatMap { [$0.0, $0.1] }, ringLengths: [ring.count], id: nil, properties: nil)
        }
        // A polygon's edge along a parallel: buffer edge to buffer edge, flat in between.
        let row = polygon([(-64, 1000), (4160, 1000), (4160, 4160), (-64, 4160), (-64, 1000)])
        XCTAssertFalse(RepeatingTile.axes(tile([row])).isEmpty)
        // Along a meridian: a column repeats.
        let column = polygon([(700, -64), (4160, -64), (4160, 4160), (700, 4160), (700, -64)])
        XCTAssertFalse(RepeatingTile.axes(tile([column])).isEmpty)
        // Two polygons meeting along a parallel (a border along 49° N), and a line along one.
        let north = polygon([(-64, -64), (4160, -64), (4160, 2048), (-64, 2048), (-64, -64)])
        let line = TileFeature(type: .line, xy: [-64, 3000, 4160, 3000], ringLengths: [2], id: nil, properties: nil)
        XCTAssertFalse(RepeatingTile.axes(tile([north, row, line])).isEmpty)
        // A slanted edge, a shape that stops inside the tile, or a point: the neighbours differ.
        XCTAssertTrue(RepeatingTile.axes(tile([polygon([(-64, 900), (4160, 1100), (4160, 4160), (-64, 4160), (-64, 900)])])).isEmpty)
        XCTAssertTrue(RepeatingTile.axes(tile([polygon([(100, 1000), (4160, 1000), (4160, 4160), (100, 4160), (100, 1000)]),
                                                   polygon([(-64, 100), (50, 100), (50, 200), (-64, 200), (-64, 100)])])).isEmpty)
        XCTAssertTrue(RepeatingTile.axes(tile([row, TileFeature(type: .point, xy: [5, 5], ringLengths: [1], id: nil, properties: nil)])).isEmpty)
        XCTAssertTrue(RepeatingTile.axes(tile([])).isEmpty)
        XCTAssertEqual(RepeatingTile.axes(tile([row])), [0])
        XCTAssertEqual(RepeatingTile.axes(tile([column])), [1])

        // The runs a row of tiles alike makes on the archive's Hilbert curve: each tile's own
        // steps, summed over the row, give the directory's count exactly.
        for zoom in [3, 6] {
            for y in [0, 5] {
                let width = 1 << zoom
                let estimated = (0..<width).reduce(0.0) { $0 + RepeatingTile.runs(of: TileID(z: zoom, x: $1, y: y), along: [0], weight: 1) }
                let ids = (0..<width).map { PMTiles.tileID(TileID(z: zoom, x: $0, y: y)) }.sorted()
                let runs = zip(ids, [UInt64.max] + ids).filter { $0.0 != $0.1 &+ 1 }.count
                XCTAssertEqual(estimated, Double(runs), "z\(zoom) row \(y)")
            }
        }
        // A tile covered whole is alike along both axes: no run ends at it.
        XCTAssertEqual(RepeatingTile.runs(of: TileID(z: 6, x: 9, y: 9), along: [0, 1], weight: 5), 0)
    }

    func testASampledWalkWeighsAChildByTheTilesItsEdgesCross() {
        var options = TileOptions()
        options.maxZoom = 14
        let world = MapProjection.worldSize
        let id = TileID(z: 4, x: 3, y: 5)
        let size = world / 16, x0 = 3 * size, y0 = 5 * size
        func polygon(_ points: [(Double, Double)]) -> ProjectedFeature {
            ProjectedFeature(type: .polygon, coordinates: points.flatMap { [x0 + $0.0 * size, y0 + $0.1 * size, 1] },
                             rings: [ProjectedRing(start: 0, count: points.count, size: 1, isOuter: true)], source: 0)
        }
        let buffer = Double(options.buffer) / Double(options.extent)
        let low = -buffer, high = 1 + buffer
        // A polygon clipped to the tile's buffered square: its edges lie on the border and count
        // nothing but its vertices.
        let solid = polygon([(low, low), (high, low), (high, high), (low, high), (low, low)])
        XCTAssertEqual(TileSampling.size(of: [solid], tile: id, options: options), 5, accuracy: 1e-9)
        // A straight edge across the tile: the 2^10 max-zoom tiles it crosses, beside 4 vertices.
        let half = polygon([(low, 0.5), (high, 0.5), (high, high), (low, high), (low, 0.5)])
        XCTAssertEqual(TileSampling.size(of: [half], tile: id, options: options), 5 + 1024 * (high - low), accuracy: 1e-6)
        // Points count one each.
        let points = ProjectedFeature(type: .point, coordinates: [x0, y0, 1, x0 + 1, y0 + 1, 1],
                                      rings: [ProjectedRing(start: 0, count: 2, size: 0, isOuter: true)], source: 0)
        XCTAssertEqual(TileSampling.size(of: [points], tile: id, options: options), 2)
        // Budgets: a solid child (nil) is always visited; the others split the budget.
        let children = TileSplit.children(of: id)
        let shares = TileSampling.visited(Array(children[0..<3]), sizes: [nil, 1, 999], of: .init(weight: 1, budget: 1))
        XCTAssertEqual(shares[0]?.weight, 1)
        let parts = [1.0, 999.0].map { 1 * (TileSampling.equalShare / 2 + (1 - TileSampling.equalShare) * $0 / 1000) }
        XCTAssertEqual(parts.reduce(0, +), 1, accuracy: 1e-9, "the parts add up to the budget")
        for (share, part) in zip(shares[1...], parts) {
            if let share { XCTAssertEqual(share.weight, 1 / part, accuracy: 1e-9) }
        }
        // A budget that covers every child visits each.
        XCTAssertTrue(TileSampling.visited(children, sizes: [1, 1, 1, 1e6], of: .init(weight: 1, budget: 4)).allSatisfy { $0 != nil })
    }

    func testPointStreamCapKeepsAnEvenShareOfTheOrderAndNeverMoreThanItsCap() {
        var cap = PointStreamCap(cap: 4)
        var held = [Int]()
        for _ in 0..<20 {
            guard let number = cap.admit() else { continue }
            held.append(number)
            cap.added(point: number)
            if let kept = cap.thinIfOver() { held = kept.map { held[$0] } }
            XCTAssertLessThanOrEqual(held.count, 4)
        }
        // 20 points: every one while 4 fit, then every 2nd, 4th, 8th.
        XCTAssertEqual(cap.stride, 8)
        XCTAssertEqual(held, [0, 8, 16])
        // Other features are never thinned.
        var mixed = PointStreamCap(cap: 1)
        mixed.added(point: nil)
        mixed.added(point: mixed.admit())
        XCTAssertNil(mixed.thinIfOver())
        mixed.added(point: mixed.admit())
        XCTAssertEqual(mixed.thinIfOver(), [0, 1], "the other feature and point 0 stay")
    }

    /// A tile over the feature limit is never held whole: past twice the limit its points
    /// are thinned to an even share of the input order as they stream in, in memory and on
    /// disk alike, and each point left out counts as dropped for the budget.
    func testDenseTilesAreCappedWhileTheirPointsStreamIn() throws {
        let text = TileFixtures.clusteredPoints(3000)
        func zoomZero(_ configure: (inout TileOptions) -> Void) throws -> VectorTile {
            let source = try self.source(text) { $0.maxZoom = 0; configure(&$0) }
            return try XCTUnwrap(try tiles(source).0[TileID(z: 0, x: 0, y: 0)])
        }
        let capped = try zoomZero { $0.budget.maxFeatures = 100 }
        // 3000 points: every 16th is the first share within twice the limit of 100.
        XCTAssertEqual(capped.sources, Array(stride(from: 0, to: 3000, by: 16)))
        XCTAssertEqual(capped.features.count, 188)
        XCTAssertEqual(capped.statistics.droppedForBudget, 3000 - 188)
        XCTAssertEqual(capped.statistics.features, 188)
        // Where the limit would not reduce the tile, or where every point is needed, none is left out.
        for (label, configure) in [("within twice the limit", { (options: inout TileOptions) in options.budget.maxFeatures = 1500 }),
                                   ("no feature limit", { $0.budget.maxFeatures = nil }),
                                   ("coalescing", { $0.budget.maxFeatures = 100; $0.budget.strategy = .coalesceDensest }),
                                   ("clustering", { $0.budget.maxFeatures = 100; $0.clusterDistance = 1 })]
            as [(String, (inout TileOptions) -> Void)] {
            let tile = try zoomZero(configure)
            XCTAssertEqual(tile.statistics.droppedForBudget, 0, label)
            if label != "clustering" { XCTAssertEqual(tile.features.count, 3000, label) }
        }
        // On disk, every tile cut while its records are read: the same tiles.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("points.geojsons")
        try (text + "\n").write(to: input, atomically: true, encoding: .utf8)
        var options = TileOptions()
        options.maxZoom = 4
        options.budget.maxFeatures = 40
        func built(diskFolder: String?) throws -> [TileID: [TileFeature]] {
            var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
            let source = try TileSource(reading: &reader, options: options, readThreads: 2, minimumPartBytes: 1,
                                        diskFolder: diskFolder, onWarning: { _ in })
            let lock = NSLock()
            nonisolated(unsafe) var tiles = [TileID: [TileFeature]]()
            _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2, loadBytes: 0, emit: { tile in
                lock.lock()
                tiles[tile.id] = tile.features
                lock.unlock()
                return 1
            }, emitBlock: nil)
            return tiles
        }
        let inMemory = try built(diskFolder: nil)
        XCTAssertTrue(inMemory.values.contains { $0.count > 40 && $0.count <= 80 }, "some tile is capped")
        XCTAssertEqual(try built(diskFolder: folder.path), inMemory)
    }

    /// A dense tile cut from records keeps its points' attributes stored until it is encoded;
    /// the encoders decode them feature by feature into the same bytes as decoded ones give.
    func testStoredAttributesOfDenseTilesEncodeAsDecodedOnes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deferred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("points.geojsons")
        // Ids, mixed value kinds, nested values, generated ids (none given) and no properties at all.
        let text = TileFixtures.clusteredPoints(2000) { index in
            switch index % 4 {
            case 0: return #"{"n":\#(index),"name":"Stop \#(index)","ok":true,"tags":["a",\#(index)]}"#
            case 1: return #"{"n":\#(Double(index) + 0.5),"name":null}"#
            case 2: return "null"
            default: return #"{"é":"\#(index)"}"#
            }
        }
        try (text + "\n").write(to: input, atomically: true, encoding: .utf8)
        var options = TileOptions()
        options.maxZoom = 3
        options.budget.maxFeatures = 50
        var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
        let source = try TileSource(reading: &reader, options: options, readThreads: 2, minimumPartBytes: 1,
                                    diskFolder: folder.path, onWarning: { _ in })
        let mvt = MVTEncoder(layerName: "points"), mlt = MLTEncoder(layerName: "points"), geoJSON = TileGeoJSONEncoder()
        func encoded(readsDeferred: Bool) throws -> (tiles: [TileID: [[UInt8]]], deferred: Int) {
            let lock = NSLock()
            nonisolated(unsafe) var tiles = [TileID: [[UInt8]]]()
            nonisolated(unsafe) var deferred = 0
            _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2, loadBytes: 0, readsDeferred: readsDeferred, emit: { tile in
                let bytes = [mvt.encode(tile).0, mlt.encode(tile).0, try geoJSON.encode(tile)]
                lock.lock()
                tiles[tile.id] = bytes
                if tile.deferred != nil { deferred += 1 }
                lock.unlock()
                return 1
            }, emitBlock: nil)
            return (tiles, deferred)
        }
        let stored = try encoded(readsDeferred: true), decoded = try encoded(readsDeferred: false)
        XCTAssertGreaterThan(stored.deferred, 0, "some tile keeps its attributes stored")
        XCTAssertEqual(decoded.deferred, 0, "emit is handed decoded attributes unless it reads stored ones")
        XCTAssertEqual(stored.tiles.count, decoded.tiles.count)
        for (id, bytes) in decoded.tiles { XCTAssertEqual(stored.tiles[id], bytes, "tile \(id)") }
        XCTAssertTrue(String(decoding: decoded.tiles[TileID(z: 0, x: 0, y: 0)]![2], as: UTF8.self).contains("Stop "))
    }

    func testDropReportReadsOlderArchivesWithoutTheNewCounts() throws {
        var zoom = TileZoomCounts(zoom: 3)
        zoom.statistics.thinnedFeatures = 5
        zoom.statistics.droppedForBudget = 2
        let report = TileDropReport(extent: 4096, buffer: 64, tolerance: 3, input: TileInputCounts(),
                                    notWritten: TileEncodingLosses(), zooms: [zoom])
        XCTAssertEqual(try TileDropReport(json: .object(report.json()), source: "x"), report)
        var old = report.json()
        guard case .array(var zooms) = old["zooms"], case .object(var first) = zooms[0] else { return XCTFail() }
        first["thinnedFeatures"] = nil
        zooms[0] = .object(first)
        old["zooms"] = .array(zooms)
        XCTAssertEqual(try TileDropReport(json: .object(old), source: "x").zooms[0].statistics.thinnedFeatures, 0)
    }
}
