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
        XCTAssertEqual(join.tileCount([first, second]), 3, "each id once")
        var written = [TileID: [UInt8]](), order = [TileID]()
        let counts = try join.run([first, second]) { block, bytes in
            XCTAssertEqual(block.tileCount, 1, "single tiles are written one by one")
            written[block.root] = bytes
            order.append(block.root)
        }
        XCTAssertEqual(order, [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0), TileID(z: 2, x: 3, y: 1)], "in tile id order, once each")
        XCTAssertEqual(counts.tiles, 3)
        XCTAssertEqual(counts.mergedTiles, 1)
        XCTAssertEqual(counts.copiedTiles, 2)
        XCTAssertEqual(counts.written.zooms.prefix(4).map(\.statistics.features), [2, 1, 1, 0], "features per zoom")
        XCTAssertEqual(written[TileID(z: 1, x: 0, y: 0)], a, "a tile only one input holds is copied byte for byte")
        let merged = try MVTDecoder().decode(try XCTUnwrap(written[TileID(z: 0, x: 0, y: 0)]))
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].features.map(\.id), [1, 2])

        // Filters apply to every tile; a tile left with no layer is not written; zooms limit ids.
        var options = VectorTileMerger.Options()
        options.excludedLayers = ["parks"]
        let filtered = TileJoin(merger: VectorTileMerger(options: options), zooms: 0...1)
        XCTAssertEqual(filtered.tileCount([first, second]), 2)
        let none = try filtered.run([first, second]) { _, _ in XCTFail("nothing to write") }
        XCTAssertEqual(none.tiles, 0)
        XCTAssertEqual(none.emptyTiles, 2)
        XCTAssertEqual(none.tilesOutsideZooms, 1)

        // A broken tile names its input and z/x/y.
        let broken = TileJoin.Input(name: "broken.pmtiles", tileIDs: [TileID(z: 0, x: 0, y: 0)]) { _ in [0x1A, 0x7F] }
        XCTAssertThrowsError(try join.run([first, broken]) { _, _ in }) { error in
            XCTAssertTrue((error as? Diagnostic)?.message.contains("broken.pmtiles tile 0/0/0") == true, "\(error)")
        }
    }

    /// A drop report as `metadata.json` holds it under "overlaykit": `counts` are
    /// (zoom, droppedTinyRings, features).
    private static func dropReport(input: (features: Int, withoutGeometry: Int), zooms: [(Int, Int, Int)]) -> String {
        let entries = zooms.map { #"{"zoom":\#($0.0),"tiles":1,"emptyTilesNotWritten":0,"bytes":10,"droppedTinyRings":\#($0.1),"features":\#($0.2)}"# }
        return #"{"extent":4096,"buffer":64,"tolerance":3,"input":{"features":\#(input.features),"withoutGeometry":\#(input.withoutGeometry),"withoutPositions":0},"#
            + #""notWritten":{"idsNotUnsignedIntegers":0,"nullPropertyValues":0,"propertyValuesWrittenAsJSONText":0},"#
            + #""zooms":[\#(entries.joined(separator: ","))]}"#
    }

    /// Two directories' metadata.json (tippecanoe's layout: strings, `json` holding the layers
    /// and tilestats) with our drop report, as `TileSetMetadata` reads them.
    private func twoInputs(extraFirst: String = "", extraSecond: String = "") throws -> [TileSetMetadata] {
        let first = """
            {"name": "a", "format": "pbf", "bounds": "-10,-5,10,5", "center": "0,0,2", "minzoom": "2", "maxzoom": "6",
             "json": "{\\"vector_layers\\":[{\\"id\\":\\"parks\\",\\"fields\\":{\\"name\\":\\"String\\",\\"secret\\":\\"Number\\"},\\"minzoom\\":2,\\"maxzoom\\":6}],\\"tilestats\\":{\\"layerCount\\":1,\\"layers\\":[{\\"layer\\":\\"parks\\",\\"count\\":10,\\"geometry\\":\\"Polygon\\",\\"attributeCount\\":1,\\"attributes\\":[{\\"attribute\\":\\"name\\",\\"count\\":2,\\"type\\":\\"string\\",\\"values\\":[\\"x\\",\\"y\\"]},{\\"attribute\\":\\"kind\\",\\"count\\":1,\\"type\\":\\"string\\",\\"values\\":[\\"a\\"]}]}]}}",
             "overlaykit": \(Self.dropReport(input: (10, 1), zooms: [(2, 3, 10), (3, 1, 4)]))\(extraFirst)}
            """
        let second = """
            {"name": "b", "format": "pbf", "bounds": "0,-20,30,1", "center": "20,-10,4", "minzoom": "0", "maxzoom": "4",
             "json": "{\\"vector_layers\\":[{\\"id\\":\\"gardens\\",\\"fields\\":{\\"name\\":\\"Number\\",\\"area\\":\\"Number\\"},\\"minzoom\\":0,\\"maxzoom\\":4}],\\"tilestats\\":{\\"layerCount\\":1,\\"layers\\":[{\\"layer\\":\\"gardens\\",\\"count\\":5,\\"geometry\\":\\"Point\\",\\"attributeCount\\":1,\\"attributes\\":[{\\"attribute\\":\\"name\\",\\"count\\":1,\\"type\\":\\"number\\",\\"values\\":[3],\\"min\\":3,\\"max\\":3},{\\"attribute\\":\\"kind\\",\\"count\\":1,\\"type\\":\\"string\\",\\"values\\":[\\"a\\"]}]}]}}",
             "overlaykit": \(Self.dropReport(input: (5, 0), zooms: [(0, 7, 1), (2, 2, 5)]))\(extraSecond)}
            """
        return try [first, second].map { try TileSetMetadata.fromDirectoryJSON(Array($0.utf8), source: "metadata.json") }
    }

    func testMetadataMergeUnitesBoundsZoomsFieldsAndSumsCounts() throws {
        var options = VectorTileMerger.Options()
        options.renamedLayers = ["gardens": "parks"]
        options.excludedProperties = ["secret"]
        let merged = try XCTUnwrap(TileMetadataMerger(options: options).merge(try twoInputs()))
        XCTAssertEqual(merged.name, "a")
        XCTAssertEqual(merged.bounds, TileSetMetadata.Bounds(west: -10, south: -20, east: 30, north: 5))
        XCTAssertEqual(merged.center, TileSetMetadata.Center(longitude: 10, latitude: -7.5, zoom: 2))
        XCTAssertEqual(merged.minZoom, 0)
        XCTAssertEqual(merged.maxZoom, 6)
        let report = try XCTUnwrap(merged.dropReport)
        XCTAssertEqual(report.extent, 4096, "settings are not summed")
        XCTAssertEqual(report.input.features, 15)
        XCTAssertEqual(report.input.withoutGeometry, 1)
        XCTAssertEqual(report.zooms.map(\.zoom), [0, 2, 3], "per-zoom counts summed zoom by zoom")
        XCTAssertEqual(report.zooms.map(\.statistics.droppedTinyRings), [7, 5, 1])
        XCTAssertEqual(report.zooms.map(\.statistics.features), [1, 15, 4])
        XCTAssertEqual(merged.vectorLayers, [TileSetMetadata.VectorLayer(id: "parks", fields: [.init(name: "name", type: "Mixed"),
                                                                                               .init(name: "area", type: "Number")],
                                                                         minZoom: 0, maxZoom: 6)])
        let stats = try XCTUnwrap(merged.tileStats.flatMap(TileStats.init(json:)))
        XCTAssertEqual(stats.layers.count, 1)
        let layer = stats.layers[0]
        XCTAssertEqual(layer.name, "parks")
        XCTAssertEqual(layer.count, 15)
        XCTAssertEqual(layer.geometry, "Mixed")
        XCTAssertEqual(layer.attributes, [
            TileStats.Attribute(name: "name", count: 3, type: "mixed", values: [.string("x"), .string("y"), .integer(3)]),
            TileStats.Attribute(name: "kind", count: 1, type: "string", values: [.string("a")]),
        ], "an attribute's count is its distinct values, united")
        let json = try XCTUnwrap(merged.tileStats?.objectValue)
        XCTAssertEqual(json["layerCount"], .integer(1))
        guard case .array(let jsonLayers)? = json["layers"] else { return XCTFail("tilestats without layers") }
        XCTAssertEqual(jsonLayers.first?.objectValue?["attributeCount"], .integer(2))
    }

    /// Members the type does not know survive a join: the first input's kept, those only a
    /// later one has added; tippecanoe's antimeridian-adjusted bounds are united.
    func testMembersTheTypeDoesNotKnowSurviveTheMerge() throws {
        let inputs = try twoInputs(
            extraFirst: #", "generator": "tippecanoe v2.72.0", "attribution": "A", "antimeridian_adjusted_bounds": "-10,-5,10,5""#,
            extraSecond: #", "generator": "other", "strategies": "[{\"dropped_by_rate\":1}]", "antimeridian_adjusted_bounds": "0,-20,30,1""#)
        XCTAssertEqual(inputs[1].other["strategies"], .string(#"[{"dropped_by_rate":1}]"#), "read as a member the type does not know")
        let merged = try XCTUnwrap(TileMetadataMerger().merge(inputs))
        XCTAssertEqual(merged.other["generator"], .string("tippecanoe v2.72.0"), "the first input's value")
        XCTAssertEqual(merged.attribution, "A")
        XCTAssertEqual(merged.other["strategies"], .string(#"[{"dropped_by_rate":1}]"#), "only the second has it: added")
        XCTAssertEqual(merged.other["antimeridian_adjusted_bounds"], .string("-10,-20,30,5"), "united, as the bounds")
        // Written as a directory's metadata.json and read back, every member is still there.
        let back = try TileSetMetadata.fromDirectoryJSON(merged.directoryJSON(), source: "joined")
        XCTAssertEqual(back, merged)
        XCTAssertEqual(merged.vectorLayers.map(\.id), ["parks", "gardens"], "no rename: two layers")
    }

    /// Tilestats read and written back keep members the type does not know, in order; a union
    /// lists at most 100 values and counts distinct values exactly only while both lists are
    /// complete.
    func testTileStatsKeepUnknownMembersAndCapTheirValues() throws {
        let text = #"{"layerCount":1,"layers":[{"layer":"a","count":2,"geometry":"Point","attributeCount":1,"#
            + #""attributes":[{"attribute":"n","count":2,"type":"number","values":[1,2.5],"min":1,"max":2.5,"unit":"m"}],"#
            + #""source":"x"}],"version":3}"#
        var reader = GeoJSONReader(input: ByteInput(string: #"{"type":"Feature","geometry":null,"properties":{"t":"# + text + "}}"))
        let parsed = try XCTUnwrap(reader.readAll().first?.properties?["t"].flatMap(TileStats.init(json:)))
        XCTAssertEqual(parsed.layers[0].other["source"], .string("x"))
        XCTAssertEqual(parsed.layers[0].attributes[0].other["unit"], .string("m"))
        XCTAssertEqual(String(decoding: parsed.json.jsonBytes, as: UTF8.self), text, "written back as read")
        XCTAssertNil(TileStats(json: .array([])), "not an object")

        func attribute(_ values: Range<Int>, count: Int? = nil) -> TileStats.Attribute {
            TileStats.Attribute(name: "n", count: count ?? values.count, type: "number", values: values.map { .integer(Int64($0)) },
                                min: .integer(Int64(values.lowerBound)), max: .integer(Int64(values.upperBound - 1)))
        }
        var overlapping = attribute(0..<40)
        overlapping.formUnion(attribute(30..<70))
        XCTAssertEqual(overlapping.count, 70, "complete lists: distinct values, exactly")
        XCTAssertEqual(overlapping.values?.count, 70)
        XCTAssertEqual(overlapping.min, .integer(0))
        XCTAssertEqual(overlapping.max, .integer(69))
        var many = attribute(0..<60)
        many.formUnion(attribute(60..<120))
        XCTAssertEqual(many.values?.count, TileStats.valueLimit, "at most 100 values listed")
        XCTAssertEqual(many.count, 120, "beyond the limit: the sum")
        var partial = attribute(0..<10, count: 500)
        partial.formUnion(attribute(5..<15))
        XCTAssertEqual(partial.count, 510, "an incomplete list: the sum, an upper bound")
        var typed = attribute(0..<1)
        typed.formUnion(TileStats.Attribute(name: "n", count: 1, type: "string", values: [.string("a")]))
        XCTAssertEqual(typed.type, "mixed")
    }

    /// A rename that gives two layers of one input one name makes them one layer in the
    /// metadata, as in the tiles; what the filters leave out is listed.
    func testRenameIntoAnotherLayerOfTheSameInputUnitesThem() throws {
        let text = #"{"name":"a","format":"pbf","minzoom":"0","maxzoom":"2","json":"{\"vector_layers\":["#
            + #"{\"id\":\"parks\",\"fields\":{\"name\":\"String\"}},{\"id\":\"gardens\",\"fields\":{\"area\":\"Number\",\"name\":\"Number\"}},"#
            + #"{\"id\":\"roads\",\"fields\":{\"ref\":\"String\"}}],"#
            + #"\"tilestats\":{\"layerCount\":2,\"layers\":[{\"layer\":\"parks\",\"count\":3,\"geometry\":\"Polygon\",\"attributes\":[]},"#
            + #"{\"layer\":\"gardens\",\"count\":4,\"geometry\":\"Polygon\",\"attributes\":[{\"attribute\":\"area\",\"type\":\"number\"}]}]}}"}"#
        let input = try TileSetMetadata.fromDirectoryJSON(Array(text.utf8), source: "metadata.json")
        var options = VectorTileMerger.Options()
        options.renamedLayers = ["gardens": "parks"]
        options.excludedLayers = ["roads"]
        options.excludedProperties = ["area"]
        let merger = TileMetadataMerger(options: options)
        let merged = try XCTUnwrap(merger.merge([input]))
        XCTAssertEqual(merged.vectorLayers.map(\.id), ["parks"])
        XCTAssertEqual(merged.vectorLayers[0].fields, [.init(name: "name", type: "Mixed")])
        let stats = try XCTUnwrap(merged.tileStats.flatMap(TileStats.init(json:)))
        XCTAssertEqual(stats.layers.map(\.name), ["parks"])
        XCTAssertEqual(stats.layers[0].count, 7)
        XCTAssertEqual(stats.layers[0].attributes, [])
        let dropped = merger.dropped(from: [input])
        XCTAssertEqual(dropped.layers, ["roads"])
        XCTAssertEqual(dropped.properties, ["area"])
    }

    /// The joined metadata takes the written counts per zoom (summed over inputs they would
    /// count a merged tile twice) and the join's zoom range: zooms outside it leave the drop
    /// report, and the set's, the layers' and the center's zooms are clamped into it.
    func testJoinedMetadataTakesTheWrittenCountsAndTheZoomRange() throws {
        var counts = TileJoin.Counts()
        counts.written.add(tiles: 4, bytesEach: 100, features: 3, atZoom: 2)
        counts.written.add(bytesEach: 7, features: 1, atZoom: 3)
        var options = VectorTileMerger.Options()
        options.renamedLayers = ["gardens": "parks"]
        let join = TileJoin(merger: VectorTileMerger(options: options), zooms: 2...3)
        let metadata = join.metadata(merging: try twoInputs(), counts: counts)
        XCTAssertEqual(metadata.format, "pbf")
        XCTAssertEqual(metadata.minZoom, 2)
        XCTAssertEqual(metadata.maxZoom, 3)
        XCTAssertEqual(metadata.center?.zoom, 2)
        XCTAssertEqual(metadata.vectorLayers.map { $0.minZoom...$0.maxZoom }, [2...3])
        let report = try XCTUnwrap(metadata.dropReport)
        XCTAssertEqual(report.zooms.map(\.zoom), [2, 3], "z0 is outside the join's zooms")
        XCTAssertEqual(report.zooms.map(\.tiles), [4, 1])
        XCTAssertEqual(report.zooms.map(\.bytes), [400, 7])
        XCTAssertEqual(report.zooms.map(\.statistics.features), [12, 1])
        XCTAssertEqual(report.zooms.map(\.statistics.droppedTinyRings), [5, 1], "drop counts stay the inputs' sums")
        XCTAssertEqual(TileJoin(encoding: .mlt).metadata(merging: try twoInputs(), counts: counts).format, "mlt")
    }

    func testWriteCountsAddTilesBlocksAndARunsZooms() {
        var counts = TileWriteCounts()
        XCTAssertNil(counts.deepestZoom)
        XCTAssertNil(counts.zoomRange)
        counts.add(bytesEach: 10, features: 2, atZoom: 1)
        counts.add(tiles: 16, bytesEach: 5, features: 1, atZoom: 3)
        counts.addEmptyTile(atZoom: 2)
        counts.add(bytesEach: 1, features: 1, atZoom: 31)
        XCTAssertEqual(counts.tiles, 18)
        XCTAssertEqual(counts.bytes, 91)
        XCTAssertEqual(counts.deepestZoom, 31, "a tile beyond the per-zoom counts still counts in all")
        XCTAssertEqual(counts.zoomRange, 1...31)
        XCTAssertEqual(counts.zooms.count, TileWriteCounts.maximumZoom + 1)
        XCTAssertEqual(counts.zooms[3].tiles, 16)
        XCTAssertEqual(counts.zooms[3].bytes, 80)
        XCTAssertEqual(counts.zooms[3].statistics.features, 16)
        XCTAssertEqual(counts.emptyTiles, 1)
        var huge = TileWriteCounts()
        huge.add(tiles: Int.max / 2, bytesEach: 1000, features: 1000, atZoom: 20)
        XCTAssertEqual(huge.bytes, Int.max, "saturates")
        var zoom = TileZoomCounts(zoom: 2)
        zoom.tiles = 3
        zoom.emptyTiles = 1
        zoom.bytes = 30
        zoom.statistics.features = 9
        zoom.statistics.droppedTinyRings = 4
        let run = TileWriteCounts([TileZoomCounts(zoom: 0), zoom])
        XCTAssertEqual(run.tiles, 3)
        XCTAssertEqual(run.bytes, 30)
        XCTAssertEqual(run.deepestZoom, 2)
        XCTAssertEqual(run.zooms[2].statistics.features, 9)
        XCTAssertEqual(run.zooms[2].statistics.droppedTinyRings, 0, "only what was written")
        XCTAssertEqual(run.emptyTiles, 1)
    }

    /// `TileJoin.join` is the whole of `tile-join` in one call: archives of any format in, the
    /// joined archive out, and a report of what was written and left out.
    func testJoinIsOneCallFromArchivesToAReport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("join-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let (_, parks) = try tile([square(1, 0, ["name": .string("a"), "secret": .integer(1)])], layer: "parks")
        let (_, roads) = try tile([square(2, 20, ["ref": .string("r")])], layer: "roads")
        func metadata(_ layer: String, fields: [String]) -> TileSetMetadata {
            var zoom = TileZoomCounts(zoom: 0)
            zoom.tiles = 1
            zoom.statistics.droppedTinyRings = 2
            let report = TileDropReport(extent: 4096, buffer: 64, tolerance: 3, input: TileInputCounts(),
                                        notWritten: TileEncodingLosses(), zooms: [zoom])
            return TileSetMetadata(name: layer, bounds: .init(west: 0, south: 10, east: 30, north: 20), center: nil, minZoom: 0,
                                   maxZoom: 2, vectorLayers: [.init(id: layer, fields: fields.map { .init(name: $0, type: "String") },
                                                                     minZoom: 0, maxZoom: 2)],
                                   dropReport: report)
        }
        let first = try TileArchive.create(path("a.pmtiles"))
        try first.write(TileID(z: 0, x: 0, y: 0), parks)
        try first.write(TileID(z: 1, x: 1, y: 0), parks)
        try first.finish(metadata: metadata("parks", fields: ["name", "secret"]))
        let second = try TileArchive.create(path("b"))
        try second.write(TileID(z: 0, x: 0, y: 0), roads)
        try second.write(TileID(z: 2, x: 2, y: 1), roads)
        try second.finish(metadata: metadata("roads", fields: ["ref"]))
        try FileManager.default.createDirectory(atPath: path("empty"), withIntermediateDirectories: true)

        var options = TileJoin.Options(inputs: [path("a.pmtiles"), path("b"), path("empty")], output: path("j.mbtiles"))
        options.merging.excludedProperties = ["secret"]
        options.maxZoom = 1
        options.name = "joined"
        let report = try TileJoin.join(options)
        XCTAssertEqual(report.tiles, 2)
        XCTAssertEqual(report.counts.mergedTiles, 1)
        XCTAssertEqual(report.counts.rewrittenTiles, 1, "a filter rewrites a tile one input holds")
        XCTAssertEqual(report.layers, ["parks", "roads"])
        XCTAssertEqual(report.encoding, .mvt)
        XCTAssertEqual(report.dropped.properties, ["secret"])
        XCTAssertEqual(report.dropped.tilesOutsideZooms, 1)
        XCTAssertEqual(report.diagnostics.map(\.code), [.tilejoinEmptyInput])
        XCTAssertEqual(report.fileBytes, try FileManager.default.attributesOfItem(atPath: path("j.mbtiles"))[.size] as? Int)
        let written = try TileArchive.open(path("j.mbtiles"))
        XCTAssertEqual(written.metadata, report.metadata)
        XCTAssertEqual(written.metadata.name, "joined")
        XCTAssertEqual(written.metadata.maxZoom, 1)
        XCTAssertEqual(written.metadata.dropReport?.zooms.map(\.statistics.droppedTinyRings), [4], "summed")
        XCTAssertEqual(written.metadata.dropReport?.zooms.map(\.tiles), [1], "written, not summed")
        XCTAssertEqual(try written.tileIDs(), [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0)])
        let top = try XCTUnwrap(try written.tile(TileID(z: 0, x: 0, y: 0)))
        XCTAssertEqual(try MVTDecoder().decode(top).map(\.name), ["parks", "roads"])

        // Every layer left out: nothing written but the metadata, and a note says so.
        var none = TileJoin.Options(inputs: [path("a.pmtiles"), path("b")], output: path("none"))
        none.merging.excludedLayers = ["parks", "roads"]
        let empty = try TileJoin.join(none)
        XCTAssertEqual(empty.tiles, 0)
        XCTAssertEqual(empty.dropped.layers, ["parks", "roads"])
        XCTAssertEqual(empty.dropped.emptyTiles, 3, "one per z/x/y")
        XCTAssertEqual(empty.diagnostics.map(\.code), [.tilejoinEmpty])
        XCTAssertNil(empty.fileBytes, "a directory")

        // Refusals: an option out of range, a missing input, an existing output.
        var deep = options
        deep.maxZoom = 31
        XCTAssertEqual(deep.problems.map(\.setting), ["maxZoom"])
        XCTAssertThrowsError(try TileJoin.join(deep)) { XCTAssertEqual(($0 as? Diagnostic)?.code, .tileBadOption) }
        var missing = options
        missing.inputs.append(path("nowhere"))
        XCTAssertThrowsError(try TileJoin.join(missing)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code, .ioNotFound)
            XCTAssertEqual((error as? Diagnostic)?.location?.file, self.path(folder, "nowhere"))
        }
        XCTAssertThrowsError(try TileJoin.join(options)) { XCTAssertEqual(($0 as? Diagnostic)?.code, .ioOutputExists) }
        var both = TileJoin.Options(inputs: [path("b")], output: path("b"))
        both.minZoom = 2
        both.maxZoom = 1
        XCTAssertEqual(both.problems.map(\.setting), ["output", "minZoom"])
    }

    private func path(_ folder: URL, _ name: String) -> String { folder.appendingPathComponent(name).path }

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
