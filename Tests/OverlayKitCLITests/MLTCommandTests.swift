import Foundation
import OverlayKit
import TestSupport
import XCTest

/// `tile --tile-format mlt` everywhere a tile goes (PMTiles tile type 6, MBTiles and directory
/// metadata, `.mlt` files), with every tile feature (layers, clusters, budget, both feature
/// stores), and `tile-join` reading, writing and converting MLT.
final class MLTCommandTests: XCTestCase {
    private let countries = CLI.packageRoot.appendingPathComponent("Examples/countries.geojson").path
    private let places = CLI.packageRoot.appendingPathComponent("Examples/places.kml").path
    private let roads = CLI.packageRoot.appendingPathComponent("Examples/roads.geojsonl").path

    /// Every tile of an archive decoded: z/x/y → layers.
    private func decodeAll(_ path: String) throws -> [TileID: [DecodedTileLayer]] {
        let archive = try TileArchive.open(path)
        let encoding = try XCTUnwrap(TileEncoding(metadataFormat: archive.metadata.format))
        let decoder = try TileDecoders.require(encoding == .mlt ? .mlt : .mvt, source: path)
        var tiles = [TileID: [DecodedTileLayer]]()
        for id in try archive.tileIDs() { tiles[id] = try decoder.decodeLayers(try XCTUnwrap(archive.tile(id))) }
        return tiles
    }

    func testEveryArchiveSaysMLTAndHoldsTheMVTsFeatures() throws {
        let folder = try CLI.temporaryFolder(self)
        let mvt = folder.appendingPathComponent("c-mvt.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", mvt, "-z", "3"]).status, 0)
        let expected = try decodeAll(mvt)
        for name in ["c.pmtiles", "c.mbtiles", "c"] {
            let output = folder.appendingPathComponent(name).path
            let run = try CLI.run(["tile", countries, "-o", output, "-z", "3", "--tile-format", "mlt"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(try TileArchive.open(output).metadata.format, "mlt", name)
            let tiles = try decodeAll(output)
            XCTAssertEqual(Set(tiles.keys), Set(expected.keys), name)
            for (id, layers) in tiles { XCTAssertEqual(layers.map(\.features.count), expected[id]?.map(\.features.count), "\(name) \(id)") }
        }
        let header = try Data(contentsOf: folder.appendingPathComponent("c.pmtiles")).prefix(127)
        XCTAssertEqual(header[99], 6, "PMTiles tile type 6: MLT")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("c/0/0/0.mlt").path))
        let metadata = try String(contentsOf: folder.appendingPathComponent("c/metadata.json"), encoding: .utf8)
        XCTAssertTrue(metadata.contains(#""format":"mlt""#) || metadata.contains(#""format": "mlt""#), metadata)
    }

    /// Layers, clusters, a byte budget measured on the MLT, and both feature stores.
    func testTileFeaturesWithMLT() throws {
        let folder = try CLI.temporaryFolder(self)
        var archives = [String: String]()
        for store in ["memory", "disk"] {
            let output = folder.appendingPathComponent("\(store).pmtiles").path
            let run = try CLI.run(["tile", countries, "-L", "places:\(places)", "-L", "roads:\(roads)", "-o", output, "-z", "6",
                                   "--cluster-distance", "30", "--max-tile-bytes", "6000", "--drop-densest-as-needed",
                                   "--tile-format", "mlt", "--feature-store", store])
            XCTAssertEqual(run.status, 0, run.stderr)
            archives[store] = output
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: archives["memory"]!)),
                       try Data(contentsOf: URL(fileURLWithPath: archives["disk"]!)), "both feature stores write the same MLT")
        let archive = try TileArchive.open(archives["memory"]!)
        var layerNames = Set<String>()
        for id in try archive.tileIDs() {
            let bytes = try XCTUnwrap(archive.tile(id))
            XCTAssertLessThanOrEqual(bytes.count, 6000, "the budget counts MLT bytes (\(id))")
            for layer in try MLTDecoder.decode(bytes) { layerNames.insert(layer.name) }
        }
        XCTAssertEqual(layerNames, ["countries", "places", "roads"])
    }

    func testTileJoinKeepsConvertsAndRefusesMixing() throws {
        let folder = try CLI.temporaryFolder(self)
        func tile(_ input: String, _ name: String, _ extra: [String]) throws -> String {
            let output = folder.appendingPathComponent(name).path
            let run = try CLI.run(["tile", input, "-o", output, "-z", "3"] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return output
        }
        let countriesMLT = try tile(countries, "c-mlt.pmtiles", ["--tile-format", "mlt"])
        let roadsMLT = try tile(roads, "r-mlt.pmtiles", ["--tile-format", "mlt"])
        let countriesMVT = try tile(countries, "c-mvt.pmtiles", [])
        let roadsMVT = try tile(roads, "r-mvt.pmtiles", [])
        let joinedMLT = folder.appendingPathComponent("j-mlt.pmtiles").path, joinedMVT = folder.appendingPathComponent("j-mvt.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile-join", countriesMLT, roadsMLT, "-o", joinedMLT]).status, 0)
        XCTAssertEqual(try CLI.run(["tile-join", countriesMVT, roadsMVT, "-o", joinedMVT]).status, 0)
        XCTAssertEqual(try TileArchive.open(joinedMLT).metadata.format, "mlt")
        XCTAssertEqual(try decodeAll(joinedMLT), try decodeAll(joinedMVT), "the MLT join holds the MVT join's features")

        let mixed = try CLI.run(["tile-join", countriesMLT, roadsMVT, "-o", folder.appendingPathComponent("mixed.pmtiles").path])
        XCTAssertEqual(mixed.status, 65, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("tilejoin.format-mismatch") && mixed.stderr.contains("--tile-format"), mixed.stderr)
        let converted = folder.appendingPathComponent("converted").path
        let convert = try CLI.run(["tile-join", countriesMLT, roadsMVT, "-o", converted, "--tile-format", "mvt"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: converted + "/0/0/0.mvt"))
        XCTAssertEqual(try decodeAll(converted), try decodeAll(joinedMVT))
    }

    /// The style `tile --style` writes says the source's encoding (MapLibre reads MVT otherwise),
    /// and a directory's tiles are `.mlt`.
    func testStyleSaysEncodingMLT() throws {
        let folder = try CLI.temporaryFolder(self)
        for (output, tiles) in [("c.pmtiles", "pmtiles://"), ("c", "/{z}/{x}/{y}.mlt")] {
            let style = folder.appendingPathComponent("\(output).style.json")
            let run = try CLI.run(["tile", countries, "-o", folder.appendingPathComponent(output).path, "-z", "2", "--tile-format", "mlt",
                                   "--style", style.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: style)) as? [String: Any])
            let source = try XCTUnwrap((json["sources"] as? [String: Any])?.values.first as? [String: Any])
            XCTAssertEqual(source["encoding"] as? String, "mlt")
            XCTAssertTrue("\(source)".contains(tiles), "\(source)")
        }
        let mvtStyle = folder.appendingPathComponent("mvt.style.json")
        XCTAssertEqual(try CLI.run(["tile", countries, "-o", folder.appendingPathComponent("m.pmtiles").path, "-z", "2",
                                    "--style", mvtStyle.path]).status, 0)
        XCTAssertFalse(try String(contentsOf: mvtStyle, encoding: .utf8).contains("encoding"), "MVT sources say nothing")
    }

    /// `--plan` estimates the MLT bytes the run would write.
    func testPlanEstimatesMLTBytes() throws {
        func total(_ extra: [String]) throws -> Int {
            let run = try CLI.run(["tile", countries, "--plan", "-o", "plan.pmtiles", "-z", "4"] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            let line = try XCTUnwrap(run.stdoutText.split(separator: "\n").first { $0.hasPrefix("total:") }, run.stdoutText)
            let words = line.split(separator: " ")
            let index = try XCTUnwrap(words.firstIndex { $0.hasPrefix("encoded") })
            return try XCTUnwrap(Int(words[index - 1]), String(line))
        }
        let mvt = try total([]), mlt = try total(["--tile-format", "mlt"])
        XCTAssertLessThan(mlt, mvt)
        XCTAssertGreaterThan(mlt, mvt / 3)
    }

    func testGeoJSONTilesAndMLTCannotBeAskedTogether() throws {
        let run = try CLI.run(["tile", countries, "-o", "unused-dir", "--format", "geojson", "--tile-format", "mlt"])
        XCTAssertEqual(run.status, 64, run.stderr)
    }
}
