import Foundation
import TestSupport
import XCTest

/// `overlaykit tile` into PMTiles, MBTiles and directories, read back by real clients: the PyPI
/// `pmtiles` reader, Python's sqlite3 + `mapbox_vector_tile`, and GDAL's `ogrinfo`.
final class TileArchiveCommandTests: XCTestCase {
    let layer = "ne_50m_admin_0_countries"

    /// Tiles the 50m countries (z0–3) into a directory, a .pmtiles and a .mbtiles.
    func makeOutputs() throws -> (folder: URL, directory: URL, pmtiles: URL, mbtiles: URL) {
        let input = try Prerequisite.corpus("real/\(layer).geojson")
        let folder = try CLI.temporaryFolder(self)
        let directory = folder.appendingPathComponent("tiles")
        let pmtiles = folder.appendingPathComponent("tiles.pmtiles")
        let mbtiles = folder.appendingPathComponent("tiles.mbtiles")
        for output in [directory, pmtiles, mbtiles] {
            let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "3", "--threads", "2"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        return (folder, directory, pmtiles, mbtiles)
    }

    func python(_ script: String, _ arguments: [String], module: String) throws -> String {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: [module], install: "pip install \(module)"))
        let result = try CLI.runTool(python, ["-c", script] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText
    }

    /// The PyPI reader sees the header we meant, and every tile equals the directory's after gunzip.
    func testPMTilesReaderAgreesWithTheDirectory() throws {
        let outputs = try makeOutputs()
        let script = """
            import gzip, json, os, sys
            from pmtiles.reader import Reader, MmapSource, all_tiles
            with open(sys.argv[1], 'rb') as f:
                r = Reader(MmapSource(f))
                h = r.header()
                meta = r.metadata()
                tiles = mismatched = 0
                for (z, x, y), data in all_tiles(r.get_bytes):
                    tiles += 1
                    if gzip.decompress(data) != open(os.path.join(sys.argv[2], str(z), str(x), f'{y}.mvt'), 'rb').read():
                        mismatched += 1
            files = sum(len([n for n in names if n.endswith('.mvt')]) for _, _, names in os.walk(sys.argv[2]))
            print(json.dumps({'min_zoom': h['min_zoom'], 'max_zoom': h['max_zoom'], 'clustered': h['clustered'],
                              'tile_type': h['tile_type'].value, 'tile_compression': h['tile_compression'].value,
                              'internal_compression': h['internal_compression'].value,
                              'min_lon_e7': h['min_lon_e7'], 'max_lon_e7': h['max_lon_e7'],
                              'addressed': h['addressed_tiles_count'], 'tiles': tiles, 'mismatched': mismatched, 'files': files,
                              'layer': meta['vector_layers'][0]['id'], 'fields': len(meta['vector_layers'][0]['fields']),
                              'zooms': len(meta['overlaykit']['zooms'])}))
            """
        let text = try python(script, [outputs.pmtiles.path, outputs.directory.path], module: "pmtiles.reader")
        let report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        XCTAssertEqual(report["min_zoom"] as? Int, 0)
        XCTAssertEqual(report["max_zoom"] as? Int, 3)
        XCTAssertEqual(report["clustered"] as? Bool, true)
        XCTAssertEqual(report["tile_type"] as? Int, 1, "MVT")
        XCTAssertEqual(report["tile_compression"] as? Int, 2, "gzip")
        XCTAssertEqual(report["internal_compression"] as? Int, 2, "gzip")
        XCTAssertEqual(report["min_lon_e7"] as? Int, -1_800_000_000)
        XCTAssertEqual(report["max_lon_e7"] as? Int, 1_800_000_000)
        XCTAssertEqual(report["mismatched"] as? Int, 0)
        XCTAssertGreaterThan(report["tiles"] as? Int ?? 0, 50)
        XCTAssertEqual(report["tiles"] as? Int, report["files"] as? Int, "every directory tile is in the archive")
        XCTAssertEqual(report["addressed"] as? Int, report["tiles"] as? Int)
        XCTAssertEqual(report["layer"] as? String, layer)
        XCTAssertGreaterThan(report["fields"] as? Int ?? 0, 50, "~160 country properties, nulls-only ones excepted")
        XCTAssertEqual(report["zooms"] as? Int, 4, "the drop report travels in the PMTiles metadata")
    }

    /// Python's sqlite3 sees TMS rows of gzip MVT equal to the directory's tiles, and the metadata table.
    func testMBTilesTilesAndMetadataReadBackInPython() throws {
        let outputs = try makeOutputs()
        let script = """
            import gzip, json, os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            meta = dict(db.execute('SELECT name, value FROM metadata'))
            rows = mismatched = 0
            for z, x, row, data in db.execute('SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles'):
                rows += 1
                y = (1 << z) - 1 - row
                if gzip.decompress(data) != open(os.path.join(sys.argv[2], str(z), str(x), f'{y}.mvt'), 'rb').read():
                    mismatched += 1
            layers = json.loads(meta['json'])
            print(json.dumps({'rows': rows, 'mismatched': mismatched, 'format': meta['format'], 'maxzoom': meta['maxzoom'],
                              'bounds': meta['bounds'], 'layer': layers['vector_layers'][0]['id'],
                              'tilestats': layers['tilestats']['layers'][0]['geometry'],
                              'report': 'zooms' in json.loads(meta['overlaykit'])}))
            """
        let text = try python(script, [outputs.mbtiles.path, outputs.directory.path], module: "sqlite3")
        let report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        XCTAssertGreaterThan(report["rows"] as? Int ?? 0, 50)
        XCTAssertEqual(report["mismatched"] as? Int, 0)
        XCTAssertEqual(report["format"] as? String, "pbf")
        XCTAssertEqual(report["maxzoom"] as? String, "3")
        XCTAssertTrue((report["bounds"] as? String ?? "").hasPrefix("-180,"), "\(report)")
        XCTAssertEqual(report["layer"] as? String, layer)
        XCTAssertEqual(report["tilestats"] as? String, "Polygon")
        XCTAssertEqual(report["report"] as? Bool, true)
    }

    /// GDAL opens the MBTiles file and a zoom level of the directory (its MVT driver reads the
    /// parent's metadata.json), lists the layer and fields, and counts the features we count.
    func testGDALOpensTheDirectoryAndMBTilesWithOurFeatureCounts() throws {
        let ogrinfo = URL(fileURLWithPath: try Prerequisite.executable("ogrinfo", install: "Debian: gdal-bin"))
        let outputs = try makeOutputs()
        func info(_ arguments: [String]) throws -> String {
            let result = try CLI.runTool(ogrinfo, ["-ro", "-so"] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdoutText
        }
        func featureCount(_ text: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix("Feature Count:") }
                .flatMap { Int($0.dropFirst("Feature Count:".count).trimmingCharacters(in: .whitespaces)) }
        }
        // Our own decode of the same tiles (mapbox_vector_tile), per zoom and per sample tile.
        let samples = ["2/2/1", "3/4/2", "3/1/3", "1/0/0"]
        let script = """
            import glob, json, os, sys
            import mapbox_vector_tile
            def count(path):
                return len(mapbox_vector_tile.decode(open(path, 'rb').read())[sys.argv[2]]['features'])
            zooms = {z: sum(count(p) for p in glob.glob(os.path.join(sys.argv[1], str(z), '*', '*.mvt'))) for z in range(4)}
            samples = {s: count(os.path.join(sys.argv[1], s + '.mvt')) for s in sys.argv[3:]}
            print(json.dumps({'zooms': zooms, 'samples': samples}))
            """
        let text = try python(script, [outputs.directory.path, layer] + samples, module: "mapbox_vector_tile")
        let ours = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: [String: Int]]

        for zoom in [2, 3] {
            let mbtiles = try info(["-oo", "ZOOM_LEVEL=\(zoom)", outputs.mbtiles.path, layer])
            XCTAssertTrue(mbtiles.contains("Geometry: Multi Polygon"), mbtiles)
            XCTAssertTrue(mbtiles.contains("ADMIN: String"), mbtiles)
            XCTAssertTrue(mbtiles.contains("POP_EST: Real") || mbtiles.contains("POP_EST: Integer"), mbtiles)
            XCTAssertEqual(featureCount(mbtiles), ours["zooms"]?[String(zoom)], "MBTiles z\(zoom)")

            let directory = try info([outputs.directory.appendingPathComponent(String(zoom)).path, layer])
            XCTAssertTrue(directory.contains("ADMIN: String"), directory)
            XCTAssertEqual(featureCount(directory), ours["zooms"]?[String(zoom)], "directory z\(zoom)")
        }
        for sample in samples {
            let tile = try info(["-al", outputs.directory.appendingPathComponent(sample + ".mvt").path])
            XCTAssertEqual(featureCount(tile), ours["samples"]?[sample], "tile \(sample)")
        }
        let listing = try info([outputs.mbtiles.path])
        XCTAssertTrue(listing.contains("1: \(layer) (Multi Polygon)"), listing)
    }

    /// A run that fails leaves the old archive; --progress reports zoom, tiles and rate.
    func testFailedRunKeepsTheOldArchiveAndProgressIsReported() throws {
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("one.geojson")
        try #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#
            .write(to: input, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("one.pmtiles")
        var result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "6", "--progress"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("tile: z6 11 tiles (1 at z6)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("tile: 11 tiles, z0–z6"), result.stderr)
        XCTAssertTrue(result.stderr.contains("tiles/s"), result.stderr)
        let before = try Data(contentsOf: output)

        let bad = folder.appendingPathComponent("bad.geojson")
        try #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#.write(to: bad, atomically: true, encoding: .utf8)
        result = try CLI.run(["tile", bad.path, "-o", output.path, "--force"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(try Data(contentsOf: output), before, "the old archive is untouched")
        result = try CLI.run(["tile", input.path, "-o", output.path])
        XCTAssertEqual(result.status, 74, "an existing archive needs --force")
        result = try CLI.run(["tile", input.path, "-o", folder.appendingPathComponent("x.mbtiles").path, "--format", "geojson"])
        XCTAssertEqual(result.status, 64, "GeoJSON tiles go in a directory")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, ["bad.geojson", "one.geojson", "one.pmtiles"], "no temporaries or locks left")
    }

    /// kill -9 in the middle of a run leaves no output (never a partial one); the next run
    /// clears the killed run's temporary sibling and lock and succeeds.
    func testKilledRunLeavesNoPartialOutput() throws {
        let input = try Prerequisite.corpus("real/\(layer).geojson")
        let folder = try CLI.temporaryFolder(self)
        for name in ["killed.pmtiles", "killed.mbtiles", "killed"] {
            let output = folder.appendingPathComponent(name)
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["tile", input.path, "-o", output.path, "--max-zoom", "9", "--threads", "1"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until tiles are being written (the temporary sibling exists), then kill.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                if names.contains(where: { $0.hasPrefix(name + ".tmp-") }) { break }
                usleep(20_000)
            }
            usleep(200_000)
            XCTAssertTrue(process.isRunning, "\(name): the run should still be writing tiles")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(name): no partial output after kill -9")

            let result = try CLI.run(["tile", input.path, "-o", output.path, "--max-zoom", "1"])
            XCTAssertEqual(result.status, 0, "\(name): the lock died with the killed run; \(result.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            XCTAssertEqual(names.filter { $0.hasPrefix(name + ".tmp-") || $0 == name + ".lock" }, [], "\(name): temporaries and lock removed")
        }
    }
}
