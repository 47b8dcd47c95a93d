import Foundation
import TestSupport
import XCTest
import OverlayKit
import OverlayModel

/// `MVTDecoder` and `VectorTileMerger`: decoding our own and a peer's tiles, refusing hostile
/// bytes, and merging layers, keys and values.
final class TileJoinTests: XCTestCase {
    private func square(_ id: Int64, _ west: Double, _ properties: JSONObject) -> Feature {
        let ring = [Coordinate(latitude: 10, longitude: west), Coordinate(latitude: 10, longitude: west + 10),
                    Coordinate(latitude: 20, longitude: west + 10), Coordinate(latitude: 20, longitude: west),
                    Coordinate(latitude: 10, longitude: west)]
        return Feature(id: .integer(id), properties: properties, shape: .polygon(Polygon(coordinates: ring)))
    }

    /// The z0 tile of some features, encoded by `MVTEncoder`.
    private func tile(_ features: [Feature], layer: String, extent: Int = 4096) throws -> (VectorTile, [UInt8]) {
        var options = TileOptions()
        options.extent = extent
        let index = try TileIndex(features: features, options: options)
        let tile = try XCTUnwrap(index.tile(z: 0, x: 0, y: 0))
        return (tile, MVTEncoder(layerName: layer).encode(tile).0)
    }

    /// A feature's properties as a dictionary, for comparisons.
    private func properties(_ layer: MVTLayer, _ feature: MVTFeature) -> [String: MVTValue] {
        Dictionary(layer.properties(of: feature).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func testDecodesOwnTilesAndReencodesThemByteForByte() throws {
        let url = try tileCorpusURL("geojson-vt/fixtures/us-states.json")
        var features = try tileReadFeatures(String(contentsOf: url, encoding: .utf8))
        features[0].properties?["flag"] = .bool(true)
        features[0].properties?["count"] = .integer(-7)
        features[0].properties?["ratio"] = .number(0.25)
        let index = try TileIndex(features: features)
        for id in [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 1, y: 3), TileID(z: 5, x: 8, y: 12)] {
            let tile = try XCTUnwrap(index.tile(z: id.z, x: id.x, y: id.y))
            let bytes = MVTEncoder(layerName: "states").encode(tile).0
            let layers = try MVTDecoder().decode(bytes)
            XCTAssertEqual(layers.count, 1)
            let layer = try XCTUnwrap(layers.first)
            XCTAssertEqual(layer.name, "states")
            XCTAssertEqual(layer.version, 2)
            XCTAssertEqual(layer.extent, 4096)
            let written = tile.features.filter { !MVTEncoder.geometry($0).isEmpty }
            XCTAssertEqual(layer.features.count, written.count)
            for (decoded, original) in zip(layer.features, written) {
                XCTAssertEqual(try decoded.geometry(), MVTEncoder.geometry(original))
                XCTAssertEqual(decoded.type, UInt64(original.type.rawValue))
                let props = properties(layer, decoded)
                for member in original.properties ?? JSONObject() {
                    switch member.value {
                    case .string(let text): XCTAssertEqual(props[member.key], .string(text))
                    case .bool(let flag): XCTAssertEqual(props[member.key], .bool(flag))
                    case .integer(let number):
                        XCTAssertEqual(props[member.key], number >= 0 ? .uint(UInt64(number)) : .sint(number))
                    case .number(let number): XCTAssertEqual(props[member.key], .double(number))
                    default: break
                    }
                }
            }
            // One tile merged alone keeps its bytes: same tables, same order, geometry copied.
            XCTAssertEqual(VectorTileMerger.encode(try VectorTileMerger().merge([layers])), bytes, "tile \(id)")
        }
    }

    /// A tile written by the peer encoder (PyPI mapbox-vector-tile) decodes to the values it
    /// wrote: every value type it produces, ids, and geometry.
    func testDecodesTilesEncodedByMapboxVectorTile() throws {
        let script = """
            import mapbox_vector_tile, sys
            data = mapbox_vector_tile.encode([
              {'name': 'roads', 'features': [
                {'geometry': 'LINESTRING (0 0, 100 200, 300 50)', 'id': 12, 'properties': {'name': 'Main', 'lanes': 2, 'drop': -3, 'speed': 12.5, 'open': True}},
                {'geometry': 'POLYGON ((10 10, 20 10, 20 20, 10 20, 10 10))', 'id': 13, 'properties': {'name': 'Park'}}]},
              {'name': 'pois', 'features': [{'geometry': 'POINT (25 17)', 'properties': {'open': False}}]}],
              default_options={'y_coord_down': True})
            sys.stdout.buffer.write(data)
            """
        let result = try runPython(script)
        let layers = try MVTDecoder().decode(Array(result))
        XCTAssertEqual(layers.map(\.name), ["roads", "pois"])
        let roads = layers[0]
        XCTAssertEqual(roads.features.map(\.id), [12, 13])
        XCTAssertEqual(roads.features.map(\.type), [2, 3])
        let main = properties(roads, roads.features[0])
        XCTAssertEqual(main["name"], .string("Main"))
        XCTAssertEqual(main["open"], .bool(true))
        XCTAssertEqual(main["speed"], .double(12.5))
        // The peer writes non-negative ints as int (field 4) or uint and negatives as sint.
        XCTAssertTrue([MVTValue.int(2), .uint(2), .sint(2)].contains(main["lanes"]!), "\(String(describing: main["lanes"]))")
        XCTAssertTrue([MVTValue.int(-3), .sint(-3)].contains(main["drop"]!), "\(String(describing: main["drop"]))")
        // LINESTRING (0 0, 100 200, 300 50): MoveTo(1) 0,0 LineTo(2) +100,+200 +200,-150.
        XCTAssertEqual(try roads.features[0].geometry(), [9, 0, 0, 18, 200, 400, 400, 299])
        XCTAssertEqual(try layers[1].features[0].geometry(), [9, 50, 34], "the MVT spec's point example")
        XCTAssertEqual(properties(layers[1], layers[1].features[0])["open"], .bool(false))
    }

    /// Our merged output decodes with the peer decoder to the union of both inputs' features.
    func testMergedTileDecodesWithMapboxVectorTile() throws {
        let (_, first) = try tile([square(1, 0, ["name": .string("a"), "rank": .integer(1)])], layer: "parks")
        let (_, second) = try tile([square(2, 20, ["name": .string("b"), "area": .number(2.5)])], layer: "parks")
        let merged = VectorTileMerger.encode(try VectorTileMerger().merge([MVTDecoder().decode(first), MVTDecoder().decode(second)]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("merged-\(UUID().uuidString).mvt")
        try Data(merged).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = String(decoding: try runPython("""
            import mapbox_vector_tile, sys, json
            t = mapbox_vector_tile.decode(open(sys.argv[1], 'rb').read())
            print(json.dumps({k: sorted([[f['id'], f['properties']] for f in v['features']], key=lambda x: x[0]) for k, v in t.items()}, sort_keys=True))
            """, arguments: [file.path]), as: UTF8.self)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"{"parks": [[1, {"name": "a", "rank": 1}], [2, {"area": 2.5, "name": "b"}]]}"#)
    }

    func testMergeUnitesKeysAndValuesAndRemapsTags() throws {
        let (_, first) = try tile([square(1, 0, ["name": .string("a"), "kind": .string("park")]),
                                   square(2, 20, ["name": .string("b"), "kind": .string("park")])], layer: "parks")
        let (_, second) = try tile([square(3, 40, ["kind": .string("park"), "name": .string("a"), "size": .integer(3)])], layer: "parks")
        let (_, third) = try tile([square(4, 60, ["ref": .string("x")])], layer: "roads")
        let merged = try VectorTileMerger().merge([MVTDecoder().decode(first), MVTDecoder().decode(second), MVTDecoder().decode(third)])
        XCTAssertEqual(merged.map(\.name), ["parks", "roads"], "same-named layers become one, in order of first appearance")
        let parks = merged[0]
        XCTAssertEqual(parks.keys, ["name", "kind", "size"], "keys deduplicated")
        XCTAssertEqual(parks.values, [.string("a"), .string("park"), .string("b"), .uint(3)], "values deduplicated")
        XCTAssertEqual(parks.features.map(\.id), [1, 2, 3])
        XCTAssertEqual(properties(parks, parks.features[2]), ["kind": .string("park"), "name": .string("a"), "size": .uint(3)])
        XCTAssertEqual(properties(parks, parks.features[1]), ["kind": .string("park"), "name": .string("b")])
        // Re-encoded and decoded again, nothing changes.
        XCTAssertEqual(try MVTDecoder().decode(VectorTileMerger.encode(merged)), merged)
    }

    func testEveryValueTypeRoundTripsAndStaysDistinct() throws {
        let values: [MVTValue] = [.string("a"), .float(1.5), .double(1.5), .int(-3), .uint(3), .sint(-3), .bool(true),
                                  .double(0.0), .double(-0.0), .int(3), .sint(3), .float(.nan)]
        let layer = MVTLayer(name: "v", extent: 512, keys: ["k"], values: values,
                             features: values.indices.map { MVTFeature(id: UInt64($0), type: 1, tags: [0, UInt32($0)], geometryBytes: [9, 2, 2]) })
        let decoded = try MVTDecoder().decode(VectorTileMerger.encode([layer]))
        XCTAssertEqual(decoded.count, 1)
        XCTAssertEqual(decoded[0].extent, 512)
        XCTAssertEqual(decoded[0].values.count, values.count)
        for (got, want) in zip(decoded[0].values, values) {
            if case .float(let number) = want, number.isNaN {
                guard case .float(let back) = got, back.isNaN else { return XCTFail("NaN float came back as \(got)") }
            } else {
                XCTAssertEqual(got, want)
            }
        }
        // Merged with itself: nothing is deduplicated across types, -0.0 stays apart from 0.0.
        let merged = try VectorTileMerger().merge([decoded, decoded])
        XCTAssertEqual(merged[0].values.count, values.count)
        XCTAssertEqual(merged[0].features.count, 2 * values.count)
        XCTAssertEqual(merged[0].features[values.count].tags, [0, 0], "the second copy's tags point at the first copy's values")
    }

    func testMergeRenamesFiltersLayersAndProperties() throws {
        let (_, first) = try tile([square(1, 0, ["name": .string("a"), "secret": .integer(1)])], layer: "parks")
        let (_, second) = try tile([square(2, 20, ["name": .string("b"), "secret": .integer(2)])], layer: "gardens")
        let (_, third) = try tile([square(3, 40, ["name": .string("c")])], layer: "roads")
        let inputs = try [first, second, third].map { try MVTDecoder().decode($0) }

        var options = VectorTileMerger.Options()
        options.renamedLayers = ["gardens": "parks"]
        options.excludedProperties = ["secret"]
        options.excludedLayers = ["roads"]
        let merged = try VectorTileMerger(options: options).merge(inputs)
        XCTAssertEqual(merged.map(\.name), ["parks"])
        XCTAssertEqual(merged[0].features.count, 2)
        XCTAssertEqual(merged[0].keys, ["name"])

        options = VectorTileMerger.Options()
        options.onlyLayers = ["roads", "parks"]
        options.includedProperties = ["secret"]
        let only = try VectorTileMerger(options: options).merge(inputs)
        XCTAssertEqual(only.map(\.name), ["parks", "roads"])
        XCTAssertEqual(only[0].keys, ["secret"])
        XCTAssertTrue(only[1].features[0].tags.isEmpty, "a feature may lose every property and keep its geometry")
    }

    func testMergeRescalesDifferentExtentsOrRefuses() throws {
        let (_, fine) = try tile([square(1, 0, [:])], layer: "parks", extent: 4096)
        let (_, coarse) = try tile([square(2, 0, [:])], layer: "parks", extent: 512)
        let inputs = try [fine, coarse].map { try MVTDecoder().decode($0) }
        let merged = try VectorTileMerger().merge(inputs)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].extent, 4096, "rescaled to the larger extent")
        let coarseCommands = try inputs[1][0].features[0].geometry()
        let rescaled = try merged[0].features[1].geometry()
        XCTAssertEqual(rescaled.count, coarseCommands.count)
        var index = 0
        while index < coarseCommands.count {
            XCTAssertEqual(coarseCommands[index], rescaled[index], "commands unchanged")
            let parameters = coarseCommands[index] & 7 == 7 ? 0 : 2 * Int(coarseCommands[index] >> 3)
            for position in index + 1..<index + 1 + parameters {
                // zigzag(8·d) = 8·zigzag(d) for d ≥ 0 and 8·zigzag(d) + 7 for d < 0.
                let before = coarseCommands[position], after = rescaled[position]
                XCTAssertTrue(after == 8 * before + 7 * (before & 1), "parameter \(position): \(before) → \(after)")
            }
            index += 1 + parameters
        }
        var options = VectorTileMerger.Options()
        options.rescaleExtents = false
        XCTAssertThrowsError(try VectorTileMerger(options: options).merge(inputs)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "tilejoin.extent-mismatch")
        }
    }

    func testHostileBytesGiveErrorsNotTraps() throws {
        let (_, bytes) = try tile([square(1, 0, ["name": .string("a")])], layer: "parks")
        // Every truncation and many single-byte corruptions: an error or a tile, never a crash.
        for length in 0..<bytes.count { _ = try? MVTDecoder().decode(Array(bytes[0..<length])) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var corrupt = bytes
            corrupt[Int.random(in: 0..<corrupt.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            if let layers = try? MVTDecoder().decode(corrupt) {
                _ = try? VectorTileMerger.encode(VectorTileMerger().merge([layers, layers]))
            }
        }
        func code(_ bytes: [UInt8]) -> String? {
            do { _ = try MVTDecoder().decode(bytes); return nil } catch { return (error as? Diagnostic)?.code.rawValue }
        }
        XCTAssertEqual(code([0x1A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), "mvt.bad-tile", "a length past the end")
        XCTAssertEqual(code([0x08] + [UInt8](repeating: 0xFF, count: 11)), "mvt.bad-tile", "an 11-byte varint")
        XCTAssertEqual(code([0x1A, 0x02, 0x28, 0x01]), "mvt.bad-tile", "a layer without a name")
        // A tag pointing past the key table.
        var layer = MVTLayer(name: "x", features: [MVTFeature(id: nil, type: 1, tags: [5, 0], geometryBytes: [9, 50, 34])])
        XCTAssertEqual(code(VectorTileMerger.encode([layer])), "mvt.bad-tile")
        layer.features[0].tags = []
        XCTAssertNil(code(VectorTileMerger.encode([layer])))
    }

    func testJoinStreamsTileIDsMergesSharedTilesAndCopiesTheRest() throws {
        let (_, a) = try tile([square(1, 0, ["name": .string("a")])], layer: "parks")
        let (_, b) = try tile([square(2, 20, ["name": .string("b")])], layer: "parks")
        let first = TileJoin.Input(name: "first", tileIDs: [TileID(z: 1, x: 0, y: 0), TileID(z: 0, x: 0, y: 0)]) { id in
            id.z == 0 || id == TileID(z: 1, x: 0, y: 0) ? a : nil
        }
        let second = TileJoin.Input(name: "second", tileIDs: [TileID(z: 0, x: 0, y: 0), TileID(z: 2, x: 3, y: 1)]) { id in
            id.z == 0 || id == TileID(z: 2, x: 3, y: 1) ? b : nil
        }
        let join = TileJoin()
        let ids = join.tileIDs([first, second])
        XCTAssertEqual(ids, [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0), TileID(z: 2, x: 3, y: 1)], "sorted, once each")
        var written = [TileID: [UInt8]]()
        let counts = try join.run([first, second], ids: ids) { written[$0] = $1 }
        XCTAssertEqual(counts.tiles, 3)
        XCTAssertEqual(counts.mergedTiles, 1)
        XCTAssertEqual(counts.copiedTiles, 2)
        XCTAssertEqual(counts.featuresByZoom, [0: 2, 1: 1, 2: 1])
        XCTAssertEqual(written[TileID(z: 1, x: 0, y: 0)], a, "a tile only one input holds is copied byte for byte")
        let merged = try MVTDecoder().decode(try XCTUnwrap(written[TileID(z: 0, x: 0, y: 0)]))
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].features.map(\.id), [1, 2])

        // Filters apply to every tile; a tile left with no layer is not written; zooms limit ids.
        var options = VectorTileMerger.Options()
        options.excludedLayers = ["parks"]
        let filtered = TileJoin(merger: VectorTileMerger(options: options), zooms: 0...1)
        let filteredIDs = filtered.tileIDs([first, second])
        XCTAssertEqual(filteredIDs.count, 2)
        let none = try filtered.run([first, second], ids: filteredIDs) { _, _ in XCTFail("nothing to write") }
        XCTAssertEqual(none.tiles, 0)
        XCTAssertEqual(none.emptyTiles, 2)

        // A broken tile names its input and z/x/y.
        let broken = TileJoin.Input(name: "broken.pmtiles", tileIDs: [TileID(z: 0, x: 0, y: 0)]) { _ in [0x1A, 0x7F] }
        XCTAssertThrowsError(try join.run([first, broken], ids: [TileID(z: 0, x: 0, y: 0)]) { _, _ in }) { error in
            XCTAssertTrue((error as? Diagnostic)?.message.contains("broken.pmtiles tile 0/0/0") == true, "\(error)")
        }
    }

    func testMetadataMergeUnitesBoundsZoomsFieldsAndSumsCounts() throws {
        func object(_ text: String) throws -> JSONObject {
            var reader = GeoJSONReader(input: ByteInput(string: "{\"type\":\"Feature\",\"geometry\":null,\"properties\":\(text)}"))
            return try XCTUnwrap(reader.readAll().first?.properties)
        }
        let first = try object("""
            {"name": "a", "format": "pbf", "bounds": "-10,-5,10,5", "center": "0,0,2", "minzoom": "2", "maxzoom": "6",
             "json": "{\\"vector_layers\\":[{\\"id\\":\\"parks\\",\\"fields\\":{\\"name\\":\\"String\\",\\"secret\\":\\"Number\\"},\\"minzoom\\":2,\\"maxzoom\\":6}]}",
             "zooms": [{"zoom": 2, "droppedTinyRings": 3, "features": 10}, {"zoom": 3, "droppedTinyRings": 1, "features": 4}],
             "input": {"features": 10, "withoutGeometry": 1}, "extent": 4096,
             "tilestats": {"layerCount": 1, "layers": [{"layer": "parks", "count": 10, "geometry": "Polygon", "attributeCount": 1,
               "attributes": [{"attribute": "name", "count": 2, "type": "string", "values": ["x", "y"]},
                                {"attribute": "kind", "count": 1, "type": "string", "values": ["a"]}]}]}}
            """)
        let second = try object("""
            {"name": "b", "format": "pbf", "bounds": "0,-20,30,1", "center": "20,-10,4", "minzoom": "0", "maxzoom": "4",
             "json": "{\\"vector_layers\\":[{\\"id\\":\\"gardens\\",\\"fields\\":{\\"name\\":\\"Number\\",\\"area\\":\\"Number\\"},\\"minzoom\\":0,\\"maxzoom\\":4}]}",
             "zooms": [{"zoom": 0, "droppedTinyRings": 7, "features": 1}, {"zoom": 2, "droppedTinyRings": 2, "features": 5}],
             "input": {"features": 5, "withoutGeometry": 0}, "extent": 4096,
             "tilestats": {"layerCount": 1, "layers": [{"layer": "gardens", "count": 5, "geometry": "Point", "attributeCount": 1,
               "attributes": [{"attribute": "name", "count": 1, "type": "number", "values": [3], "min": 3, "max": 3},
                                {"attribute": "kind", "count": 1, "type": "string", "values": ["a"]}]}]}}
            """)
        var options = VectorTileMerger.Options()
        options.renamedLayers = ["gardens": "parks"]
        options.excludedProperties = ["secret"]
        let merged = TileMetadataMerger(options: options).merge([first, second])
        XCTAssertEqual(merged["name"], .string("a"))
        XCTAssertEqual(merged["bounds"], .string("-10,-20,30,5"))
        XCTAssertEqual(merged["center"], .string("10,-7.5,2"))
        XCTAssertEqual(merged["minzoom"], .string("0"))
        XCTAssertEqual(merged["maxzoom"], .string("6"))
        XCTAssertEqual(merged["extent"], .integer(4096), "settings are not summed")
        XCTAssertEqual(merged["input"], .object(["features": .integer(15), "withoutGeometry": .integer(1)]))
        XCTAssertEqual(merged["zooms"], .array([
            .object(["zoom": .integer(0), "droppedTinyRings": .integer(7), "features": .integer(1)]),
            .object(["zoom": .integer(2), "droppedTinyRings": .integer(5), "features": .integer(15)]),
            .object(["zoom": .integer(3), "droppedTinyRings": .integer(1), "features": .integer(4)]),
        ]), "per-zoom counts summed zoom by zoom")
        let json = try XCTUnwrap(merged["json"]?.stringValue)
        XCTAssertEqual(json, #"{"vector_layers":[{"id":"parks","fields":{"name":"Mixed","area":"Number"},"minzoom":0,"maxzoom":6}]}"#)
        let stats = try XCTUnwrap(merged["tilestats"]?.objectValue)
        XCTAssertEqual(stats["layerCount"], .integer(1))
        let layer = try XCTUnwrap(stats["layers"].flatMap { if case .array(let items) = $0 { return items.first?.objectValue } else { return nil } })
        XCTAssertEqual(layer["count"], .integer(15))
        XCTAssertEqual(layer["geometry"], .string("Mixed"))
        XCTAssertEqual(layer["attributes"], .array([
            .object(["attribute": .string("name"), "count": .integer(3), "type": .string("mixed"),
                     "values": .array([.string("x"), .string("y"), .integer(3)])]),
            .object(["attribute": .string("kind"), "count": .integer(1), "type": .string("string"), "values": .array([.string("a")])]),
        ]), "an attribute's count is its distinct values, united")
        XCTAssertEqual(layer["attributeCount"], .integer(2))
    }

    private func runPython(_ script: String, arguments: [String] = []) throws -> Data {
        _ = try Prerequisite.python(modules: ["mapbox_vector_tile"], install: "pip install mapbox-vector-tile")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, message)
        return data
    }
}
