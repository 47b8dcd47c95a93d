import Foundation
import OverlayKit
import TestSupport
import XCTest

/// `info TILESET`, `info TILESET z/x/y` and `render TILESET` on MLT archives, each against the
/// MVT archive of the same input and options (its twin): the same tiles and features per zoom,
/// the same GeoJSON of a tile, the same picture.
final class MLTTileSetCommandTests: XCTestCase {
    /// Polygons and multipolygons, points with lines and styled polygons, polygons with holes, lines.
    private let inputs = ["Examples/countries.geojson", "Examples/places.kml", "Examples/render-holes.geojson", "Examples/roads.geojsonl"]

    /// The MLT archive and its MVT twin of `input` (to z5).
    private func twins(_ input: String, in folder: URL) throws -> (mlt: String, mvt: String) {
        let name = PathName(input).stem
        var paths = [String]()
        for encoding in ["mlt", "mvt"] {
            let output = folder.appendingPathComponent("\(name)-\(encoding).pmtiles").path
            let run = try CLI.run(["tile", CLI.packageRoot.appendingPathComponent(input).path, "-o", output, "-z5", "--threads", "1",
                                   "--tile-format", encoding])
            XCTAssertEqual(run.status, 0, run.stderr)
            paths.append(output)
        }
        XCTAssertEqual(try TileSet(path: paths[0]).contentType, .mlt)
        return (paths[0], paths[1])
    }

    private func json(_ result: CLI.Result) throws -> [String: Any] {
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
    }

    func testInfoCountsTheMVTTwinsTilesAndFeatures() throws {
        let folder = try CLI.temporaryFolder(self)
        for input in inputs {
            let (mlt, mvt) = try twins(input, in: folder)
            let mltInfo = try json(try CLI.run(["info", mlt, "--json"])), mvtInfo = try json(try CLI.run(["info", mvt, "--json"]))
            XCTAssertEqual(mltInfo["format"] as? String, "pmtiles")
            XCTAssertEqual(mltInfo["tileType"] as? String, "mlt", input)
            let mltZooms = try XCTUnwrap(mltInfo["zooms"] as? [[String: Any]]), mvtZooms = try XCTUnwrap(mvtInfo["zooms"] as? [[String: Any]])
            XCTAssertEqual(mltZooms.count, 6, input)
            XCTAssertEqual(mltZooms.map { $0["zoom"] as? Int }, mvtZooms.map { $0["zoom"] as? Int }, input)
            XCTAssertEqual(mltZooms.map { $0["tiles"] as? Int }, mvtZooms.map { $0["tiles"] as? Int }, input)
            let mltFeatures = mltZooms.map { $0["features"] as? [String: Int] }, mvtFeatures = mvtZooms.map { $0["features"] as? [String: Int] }
            XCTAssertEqual(mltFeatures, mvtFeatures, input)
            XCTAssertGreaterThan(mltFeatures.compactMap { $0?.values.reduce(0, +) }.reduce(0, +), 0, input)
            XCTAssertEqual(mltInfo["tiles"] as? Int, mvtInfo["tiles"] as? Int, input)
            // Plain text too: the same lines but for the encoding and the bytes.
            let text = try CLI.run(["info", mlt])
            XCTAssertEqual(text.status, 0, text.stderr)
            XCTAssertTrue(text.stdoutText.contains("mlt"), text.stdoutText)
        }
    }

    func testADecodedTileIsTheMVTTwinsGeoJSON() throws {
        let folder = try CLI.temporaryFolder(self)
        var compared = 0
        for input in inputs {
            let (mlt, mvt) = try twins(input, in: folder)
            // The first tile of each zoom and the tile holding the most bytes at z5.
            let ids = try TileSet(path: mlt).reader.tileIDs()
            var chosen = [TileID]()
            for zoom in 0...5 { if let first = ids.first(where: { $0.z == zoom }) { chosen.append(first) } }
            let reader = try TileSet(path: mlt).reader
            if let largest = try ids.filter({ $0.z == 5 }).max(by: { (try reader.tile($0)?.count ?? 0) < (try reader.tile($1)?.count ?? 0) }) {
                chosen.append(largest)
            }
            for id in chosen {
                let fromMLT = try CLI.run(["info", mlt, "\(id)"]), fromMVT = try CLI.run(["info", mvt, "\(id)"])
                XCTAssertEqual(fromMLT.status, 0, fromMLT.stderr)
                XCTAssertEqual(fromMLT.stdoutText, fromMVT.stdoutText, "\(input) \(id)")
                let features = try XCTUnwrap(try json(fromMLT)["features"] as? [Any])
                XCTAssertFalse(features.isEmpty, "\(input) \(id)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 20)
    }

    func testRenderOfTheMLTArchiveIsTheMVTTwinsPicture() throws {
        let folder = try CLI.temporaryFolder(self)
        // The fitted view, and views at zooms that read z2 and z5 tiles.
        let views: [String: [[String]]] = [
            "Examples/countries.geojson": [[], ["--center", "48,10", "--zoom", "3.5"], ["--center", "47.5,9", "--zoom", "6"]],
            "Examples/places.kml": [[]],
            "Examples/render-holes.geojson": [[], ["--center", "3,10", "--zoom", "6"]],
            "Examples/roads.geojsonl": [[]],
        ]
        for input in inputs {
            let (mlt, mvt) = try twins(input, in: folder)
            for (index, view) in try XCTUnwrap(views[input]).enumerated() {
                var pictures = [Data]()
                for archive in [mlt, mvt] {
                    let image = folder.appendingPathComponent("\(PathName(archive).stem)-\(index).png")
                    let run = try CLI.run(["render", archive, "-o", image.path, "--size", "500x350", "--force"] + view)
                    XCTAssertEqual(run.status, 0, run.stderr)
                    XCTAssertFalse(run.stderr.contains("rendered 0 of"), run.stderr)
                    pictures.append(try Data(contentsOf: image))
                }
                XCTAssertGreaterThan(pictures[0].count, 1000)
                XCTAssertEqual(pictures[0], pictures[1], "\(input) \(view): the same PNG bytes")
            }
        }
    }
}
