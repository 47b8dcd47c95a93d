import Foundation
import TestSupport
import XCTest
import OverlayKit
import OverlayModel

final class TileTests: XCTestCase {
    func usStates() throws -> [Feature] {
        let url = try tileCorpusURL("geojson-vt/fixtures/us-states.json")
        return try tileReadFeatures(String(contentsOf: url, encoding: .utf8))
    }

    /// Every tile of a pyramid, by id, as encoded MVT bytes.
    func pyramid(_ source: TileSource, parallelism: Int) throws -> ([TileID: [UInt8]], [TileZoomCounts], [VectorTile]) {
        let lock = NSLock()
        nonisolated(unsafe) var bytes = [TileID: [UInt8]]()
        nonisolated(unsafe) var tiles = [VectorTile]()
        let encoder = MVTEncoder(layerName: "states")
        let counts = try TilePyramid.build(source, minZoom: 0, parallelism: parallelism) { tile in
            let (data, _) = encoder.encode(tile)
            lock.lock()
            bytes[tile.id] = data
            tiles.append(tile)
            lock.unlock()
            return data.count
        }
        return (bytes, counts, tiles)
    }

    /// Property over a whole pyramid: every polygon ring is closed with ≥ 4 points and not
    /// zero-area, every line has ≥ 2 points, everything lies within the buffered tile.
    func testEveryTileRingIsClosedWithFourPointsInsideTheBuffer() throws {
        var options = TileOptions()
        options.maxZoom = 7
        let source = try TileSource(features: usStates(), options: options)
        let (_, counts, tiles) = try pyramid(source, parallelism: 2)
        var rings = 0
        for tile in tiles {
            XCTAssertFalse(tile.features.isEmpty, "empty tiles are not emitted")
            for feature in tile.features {
                for ring in feature.rings {
                    for point in ring {
                        XCTAssertTrue((-64...4160).contains(point.x) && (-64...4160).contains(point.y), "\(tile.id): \(point)")
                    }
                    if feature.type == .polygon {
                        rings += 1
                        XCTAssertGreaterThanOrEqual(ring.count, 4, "\(tile.id)")
                        XCTAssertTrue(ring.first! == ring.last!, "\(tile.id): ring not closed")
                        XCTAssertNotEqual(RingValidity.doubleArea(ring.flatMap { [Double($0.x), Double($0.y)] }), 0)
                    } else if feature.type == .line {
                        XCTAssertGreaterThanOrEqual(ring.count, 2)
                    }
                }
            }
        }
        XCTAssertEqual(counts.map(\.zoom), Array(0...7))
        XCTAssertEqual(counts.reduce(0) { $0 + $1.tiles }, tiles.count)
        let dropped = counts.reduce(0) { $0 + $1.statistics.droppedTinyRings }
        print("us-states z0–z7: \(tiles.count) tiles, \(rings) polygon rings checked, \(dropped) tiny rings dropped and counted")
        XCTAssertGreaterThan(dropped, 0, "small islands must be dropped at low zoom, and counted")
    }

    /// The same input gives the same bytes on one thread or two.
    func testPyramidIsDeterministicAcrossThreads() throws {
        var options = TileOptions()
        options.maxZoom = 6
        let source = try TileSource(features: usStates(), options: options)
        let (one, countsOne, _) = try pyramid(source, parallelism: 1)
        let (two, countsTwo, _) = try pyramid(source, parallelism: 2)
        XCTAssertEqual(one, two)
        XCTAssertEqual(countsOne, countsTwo)
        XCTAssertGreaterThan(one.count, 20)
    }

    /// The pyramid and the on-demand index agree tile for tile.
    func testTileIndexDrillDownEqualsPyramid() throws {
        var options = TileOptions()
        options.maxZoom = 6
        options.indexMaxZoom = 2
        let features = try usStates()
        let index = try TileIndex(features: features, options: options)
        let (_, _, tiles) = try pyramid(try TileSource(features: features, options: options), parallelism: 2)
        for tile in tiles where tile.id.z >= 3 {
            let drilled = try XCTUnwrap(index.tile(z: tile.id.z, x: tile.id.x, y: tile.id.y), "\(tile.id)")
            XCTAssertEqual(drilled.features, tile.features, "\(tile.id)")
        }
    }

    /// `serve`'s index keeps no drill-down (issue 48 item 6: geojson-vt keeps every tile and its
    /// features on the way down, so 6,000 distinct tiles grew a server by hundreds of MB): it
    /// cuts the same tiles as the pyramid, and what it holds stays the first pass's.
    func testAnIndexThatKeepsNoDrillDownCutsTheSameTilesAndHoldsOnlyItsFirstPass() throws {
        var options = TileOptions()
        options.maxZoom = 6
        options.indexMaxZoom = 2
        let features = try usStates()
        let index = try TileIndex(features: features, options: options, retainsDrillDowns: false)
        let firstPass = index.builtTiles.count
        let (_, _, tiles) = try pyramid(try TileSource(features: features, options: options), parallelism: 2)
        for tile in tiles where tile.id.z >= 3 {
            let drilled = try XCTUnwrap(index.tile(z: tile.id.z, x: tile.id.x, y: tile.id.y), "\(tile.id)")
            XCTAssertEqual(drilled.features, tile.features, "\(tile.id)")
        }
        XCTAssertGreaterThan(tiles.filter { $0.id.z >= 3 }.count, 50)
        XCTAssertEqual(index.builtTiles.count, firstPass, "drill-downs keep nothing")
        XCTAssertNil(index.tile(z: 7, x: 20, y: 40), "past the max zoom")
    }

    /// MVT output decodes with an independent decoder (PyPI mapbox-vector-tile) to the same
    /// features: ids, properties, and every ring's integer points.
    func testMVTDecodesWithMapboxVectorTile() throws {
        _ = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        var features = try usStates()
        // Exercise every value type and the id forms MVT can and cannot hold.
        features[0].properties?["flag"] = .bool(true)
        features[0].properties?["count"] = .integer(-7)
        features[0].properties?["big"] = .integer(123_456_789_012)
        features[0].properties?["nested"] = .object(["a": .integer(1)])
        features[1].id = .integer(77)
        features.append(Feature(id: .integer(5), properties: ["kind": .string("point")],
                                shape: .collection(ShapeCollection(members: [.annotation(PointAnnotation(coordinate: Coordinate(latitude: 40, longitude: -100))),
                                                                               .annotation(PointAnnotation(coordinate: Coordinate(latitude: 41, longitude: -101)))],
                                                                     origin: .multiPoint))))
        features.append(Feature(properties: ["kind": .string("line")],
                                shape: .polyline(Polyline(coordinates: [Coordinate(latitude: 30, longitude: -110), Coordinate(latitude: 45, longitude: -80)]))))
        let index = try TileIndex(features: features)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mvt-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected = [String]()
        for (number, id) in [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 1, y: 3), TileID(z: 5, x: 8, y: 12)].enumerated() {
            let tile = try XCTUnwrap(index.tile(z: id.z, x: id.x, y: id.y))
            let (bytes, _) = MVTEncoder(layerName: "states").encode(tile)
            try Data(bytes).write(to: directory.appendingPathComponent("\(number).mvt"))
            var lines = [String]()
            for feature in tile.features {
                var rings = feature.rings.map { $0.map { "[\($0.x),\($0.y)]" } }
                if feature.type == .polygon { rings = rings.map { Array($0.dropLast()) } }   // MVT closes with ClosePath
                if feature.type == .point { rings = [rings.flatMap { $0 }] }
                var properties = [String]()
                for member in feature.properties ?? JSONObject() {
                    let value: String
                    switch member.value {
                    case .null: continue
                    case .bool(let flag): value = flag ? "true" : "false"
                    case .integer(let number): value = "\(number)"
                    case .number(let number): value = number == number.rounded() ? "\(Int64(number))" : "\(number)"
                    case .string(let text): value = text
                    case .array, .object: value = "json"
                    }
                    properties.append("\(member.key)=\(value)")
                }
                let id = feature.id.flatMap { value -> String? in
                    if case .integer(let number) = value, number >= 0 { return "\(number)" }
                    if case .string(let text) = value, let number = UInt64(text), text == "\(number)" { return text }
                    return nil
                } ?? "0"   // MVT's id defaults to 0 when absent, and decoders report 0
                lines.append("\(feature.type.rawValue)|\(id)|\(properties.sorted().joined(separator: ","))|"
                             + rings.map { $0.joined(separator: ",") }.joined(separator: ";"))
            }
            expected.append(lines.joined(separator: "\n"))
            try lines.joined(separator: "\n").write(to: directory.appendingPathComponent("\(number).txt"), atomically: true, encoding: .utf8)
        }
        let script = """
            import mapbox_vector_tile, sys, os
            d = sys.argv[1]
            bad = 0
            total = 0
            def fmt(v):
                if isinstance(v, bool): return 'true' if v else 'false'
                if isinstance(v, float) and v == int(v): return str(int(v))
                if isinstance(v, str) and v.startswith('{'): return 'json'
                return str(v)
            def rings(g):
                t, c = g['type'], g['coordinates']
                if t == 'Point': return [[c]]
                if t == 'MultiPoint': return [c]
                if t == 'LineString': return [c]
                if t == 'MultiLineString': return c
                if t == 'Polygon': return c
                if t == 'MultiPolygon': return [r for p in c for r in p]
            for n in range(3):
                tile = mapbox_vector_tile.decode(open(os.path.join(d, '%d.mvt' % n), 'rb').read(),
                                                 default_options={'y_coord_down': True})
                feats = tile['states']['features'] if 'states' in tile else []
                lines = []
                for f in feats:
                    typ = {'Point': 1, 'MultiPoint': 1, 'LineString': 2, 'MultiLineString': 2, 'Polygon': 3, 'MultiPolygon': 3}[f['geometry']['type']]
                    rs = rings(f['geometry'])
                    if typ == 3:
                        rs = [r[:-1] if len(r) > 1 and r[0] == r[-1] else r for r in rs]
                    props = ','.join(sorted('%s=%s' % (k, fmt(v)) for k, v in f['properties'].items()))
                    fid = str(f.get('id') or 0)
                    lines.append('%d|%s|%s|%s' % (typ, fid, props, ';'.join(','.join('[%d,%d]' % (p[0], p[1]) for p in r) for r in rs)))
                want = open(os.path.join(d, '%d.txt' % n)).read().split('\\n')
                total += len(want)
                for a, b in zip(lines, want):
                    if a != b:
                        bad += 1
                        print('MISMATCH tile %d\\n decoded: %s\\n ours:    %s' % (n, a[:300], b[:300]))
                if len(lines) != len(want):
                    bad += 1
                    print('tile %d: %d features decoded, %d written' % (n, len(lines), len(want)))
            print('mapbox-vector-tile decoded %d features, %d mismatches' % (total, bad))
            sys.exit(1 if bad else 0)
            """
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", script, directory.path]
        let pipe = Pipe()
        check.standardOutput = pipe
        check.standardError = pipe
        try check.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        print(output)
        XCTAssertEqual(check.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("0 mismatches"))
    }

    func testProtobufPrimitives() {
        XCTAssertEqual(MVTEncoder.geometry(TileFeature(type: .point, xy: [25, 17], ringLengths: [1], id: nil, properties: nil)),
                       [9, 50, 34], "the MVT spec's point example")
        XCTAssertEqual(MVTEncoder.geometry(TileFeature(type: .polygon, xy: [3, 6, 8, 12, 20, 34, 3, 6], ringLengths: [4],
                                                       id: nil, properties: nil)),
                       [9, 6, 12, 18, 10, 12, 24, 44, 15], "the MVT spec's polygon example")
    }
}
