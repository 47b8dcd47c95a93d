import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// Several inputs, each into its layer (tippecanoe's several inputs and `-L NAME:FILE`), and the
/// `"tippecanoe": {"layer"}` member: the tiles hold one MVT layer per name with the right
/// features, the metadata lists each layer with its own fields, and nothing is dropped.
final class TileLayerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A GeoJSON text sequence file of these records.
    private func write(_ name: String, _ lines: [String]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    private func point(_ lon: Double, _ properties: String, member: String = "") -> String {
        #"{"type":"Feature",\#(member)"properties":\#(properties),"geometry":{"type":"Point","coordinates":[\#(lon),10]}}"#
    }

    /// The z0 tile's layers: name → the `n` value of each feature.
    private func layers(in path: String) throws -> [String: [Int]] {
        let archive = try TileArchive.open(path)
        let stored = try XCTUnwrap(try archive.tile(TileID(z: 0, x: 0, y: 0)))
        let bytes = Gzip.isCompressed(stored) ? try Gzip.decompress(stored, limit: 1 << 24, source: "z0") : stored
        var result = [String: [Int]]()
        for layer in try MVTDecoder().decode(bytes) {
            XCTAssertNil(result[layer.name], "layer \(layer.name) written twice")
            result[layer.name] = layer.features.compactMap { feature -> Int? in
                switch layer.properties(of: feature).first(where: { $0.key == "n" })?.value {
                case .uint(let value)?: return Int(value)
                case .int(let value)?, .sint(let value)?: return Int(value)
                default: return nil
                }
            }
        }
        return result
    }

    func testSeveralInputsAndMembersEachGoToTheirLayer() throws {
        let roads = try write("roads.geojsonseq", (0..<5).map { point(Double($0), #"{"n":\#($0),"lanes":2}"#) }
            + [point(9, #"{"n":9}"#, member: #""tippecanoe":{"layer":"water"},"#)])
        let parks = try write("parks.geojsonseq", (10..<13).map { point(Double($0), #"{"n":\#($0),"area":1.5}"#) })
        let more = try write("more-parks.geojsonseq", [point(20, #"{"n":20,"area":3}"#)])
        for threads in [1, 2] {
            let output = folder.appendingPathComponent("city-\(threads).pmtiles").path
            var tiler = Tiler(output: output, layer: "unused")
            tiler.options.maxZoom = 2
            tiler.options.pointDropRate = 1
            tiler.threads = threads
            var inputs = [TileInput(layer: "roads", reader: try FeatureIO.reader(for: ByteInput(path: roads))),
                          TileInput(layer: "parks", reader: try FeatureIO.reader(for: ByteInput(path: parks))),
                          TileInput(layer: "parks", reader: try FeatureIO.reader(for: ByteInput(path: more)))]
            let report = try tiler.run(reading: &inputs)
            XCTAssertEqual(report.input.features, 10)
            XCTAssertEqual(report.tippecanoeMembersIgnored.layers, 0)
            XCTAssertEqual(try layers(in: output), [
                "roads": Array(0..<5),
                "water": [9],
                "parks": [10, 11, 12, 20],
            ])
            let metadata = report.metadata
            XCTAssertEqual(metadata.vectorLayers.map(\.id), ["roads", "water", "parks"])
            XCTAssertEqual(metadata.vectorLayers[0].fields.map(\.name), ["n", "lanes"])
            XCTAssertEqual(metadata.vectorLayers[1].fields.map(\.name), ["n"])
            XCTAssertEqual(metadata.vectorLayers[2].fields.map(\.name), ["n", "area"])
            XCTAssertEqual(metadata.name, "roads")
            guard case .object(let stats)? = metadata.tileStats, case .array(let statLayers)? = stats["layers"] else {
                return XCTFail("tilestats")
            }
            XCTAssertEqual(stats["layerCount"], .integer(3))
            XCTAssertEqual(statLayers.compactMap { layer -> JSONValue? in
                if case .object(let object) = layer { return object["count"] }
                return nil
            }, [.integer(5), .integer(1), .integer(4)])
        }
    }

    func testOneInputWithMemberLayersAndTheOneLayerRunStaysAsItWas() throws {
        let path = try write("one.geojsonseq", [point(1, #"{"n":1}"#), point(2, #"{"n":2}"#, member: #""tippecanoe":{"layer":"other"},"#)])
        let output = folder.appendingPathComponent("one.pmtiles").path
        var tiler = Tiler(output: output, layer: "one")
        tiler.options.maxZoom = 0
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        let report = try tiler.run(reading: &reader)
        XCTAssertEqual(try layers(in: output), ["one": [1], "other": [2]])
        XCTAssertEqual(report.metadata.vectorLayers.map(\.id), ["one", "other"])

        // Every feature naming one layer: the tiles hold that layer only.
        let named = try write("named.geojsonseq", [point(1, #"{"n":1}"#, member: #""tippecanoe":{"layer":"x"},"#)])
        let namedOutput = folder.appendingPathComponent("named.pmtiles").path
        var namedTiler = Tiler(output: namedOutput, layer: "input")
        namedTiler.options.maxZoom = 0
        var namedReader = try FeatureIO.reader(for: ByteInput(path: named))
        XCTAssertEqual(try namedTiler.run(reading: &namedReader).metadata.vectorLayers.map(\.id), ["x"])
        XCTAssertEqual(try layers(in: namedOutput), ["x": [1]])
    }

    func testGeoJSONTilesHoldOneCollectionAndSaySo() throws {
        let path = try write("g.geojsonseq", [point(1, #"{"n":1}"#, member: #""tippecanoe":{"layer":"other"},"#)])
        var tiler = Tiler(output: folder.appendingPathComponent("g").path, layer: "g")
        tiler.encoding = .geojson
        tiler.options.maxZoom = 0
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        let report = try tiler.run(reading: &reader)
        XCTAssertEqual(report.tippecanoeMembersIgnored.layers, 1)
        XCTAssertTrue(report.diagnostics.contains { $0.code == .tileTippecanoeLayerIgnored })
        XCTAssertEqual(report.metadata.vectorLayers.map(\.id), ["g"])
        var two = [TileInput(layer: "a", reader: try FeatureIO.reader(for: ByteInput(path: path))),
                   TileInput(layer: "b", reader: try FeatureIO.reader(for: ByteInput(path: path)))]
        tiler.output = folder.appendingPathComponent("g2").path
        XCTAssertThrowsError(try tiler.run(reading: &two)) { XCTAssertEqual(($0 as? Diagnostic)?.code, .tileBadOption) }
    }

    func testMemberLayersAreCappedAtTheLimit() {
        var layers = TileLayers()
        var given = [UInt16]()
        for index in 0...TileLayers.maximumCount {
            given.append(layers.add(Feature(shape: nil, foreignMembers: ["tippecanoe": .object(["layer": .string("l\(index)")])])))
        }
        let input = layers.assignInputLayer("input")
        XCTAssertEqual(layers.names.count, TileLayers.maximumCount + 1, "the input's own layer is always made")
        XCTAssertEqual(layers.namesOverLimit, 1)
        XCTAssertEqual(given[TileLayers.maximumCount], TileLayers.inputLayer, "past the limit: the input's layer")
        XCTAssertEqual(Int(input), TileLayers.maximumCount)
        XCTAssertEqual(given[0], 0)

        // A later part naming layers past the limit: each of its features is counted.
        var later = TileLayers()
        for name in ["x", "y", "x"] {
            _ = later.add(Feature(shape: nil, foreignMembers: ["tippecanoe": .object(["layer": .string(name)])]))
        }
        let remap = layers.append(later)
        XCTAssertEqual(layers.namesOverLimit, 4)
        XCTAssertEqual(layers.namedInMembers, TileLayers.maximumCount + 4)
        XCTAssertEqual(remap, [TileLayers.inputLayer, TileLayers.inputLayer], "x and y no longer fit: their input's layer")
    }
}
