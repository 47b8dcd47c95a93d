import Foundation
import OverlayKit

/// The MLT decoder on raw tile bytes (issue 52: counts, runs and present bits bounded).
enum MLTTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? MLTDecoder.decode(bytes)
    }
}

/// The MVT decoder on raw tile bytes, and each feature's geometry in degrees.
enum MVTTarget {
    static func run(_ bytes: [UInt8]) {
        guard let layers = try? MVTTileDecoder().decodeLayers(bytes) else { return }
        _ = DecodedTileGeography.features(of: layers, tile: TileID(z: 3, x: 2, y: 5))
    }
}

/// A tile set file (PMTiles or MBTiles, recognised by its bytes, as `info` opens it): its
/// inspection (every directory, run and a sample of tiles decoded) and tile 0/0/0's layers.
/// The `pmtiles` and `mbtiles` targets differ by their seeds.
enum TileSetFileTarget {
    static func run(_ bytes: [UInt8]) {
        let path = FuzzFiles.write(bytes, name: "set")
        defer { unlink(path) }
        guard let set = try? TileSet(path: path) else { return }
        _ = try? set.inspect(largest: 2)
        _ = try? set.layers(at: TileID(z: 0, x: 0, y: 0))
    }
}

/// A profile file as `validate --profile FILE` reads it: YAML, or JSON when it starts with `{`.
enum ProfileTarget {
    static func run(_ bytes: [UInt8]) {
        let path = FuzzFiles.write(bytes, name: bytes.first == UInt8(ascii: "{") ? "profile.json" : "profile.yaml")
        defer { unlink(path) }
        _ = try? ValidationProfile.named(path)
    }
}

/// The work files of a run split over workers (`tile-job`). A small job is prepared once; each
/// input's first byte picks one of its files (`job.json`, `plan.json`, a shard's `.records` or
/// summary, a partition's tile log, `.low` file or report), the rest replaces that file, and the
/// steps that read it run (and whatever follows them), each stopping at its first error.
enum TileJobTarget {
    /// A fixed folder, so the seeds' `job.json` can name the output (a job whose output is
    /// anything else is not run: a fuzzed path must never be written).
    static let folder = NSTemporaryDirectory() + "overlaykit-fuzz-tile-job"
    static let output = folder + "/out.pmtiles"

    private static let prepared: (work: String, partitions: [Int], files: [(name: String, bytes: [UInt8])])? = {
        let work = folder + "/job"
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        var tiler = Tiler(output: output, layer: "l")
        tiler.options.maxZoom = 3
        tiler.replaceExisting = true
        let input = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"n":1},"geometry":{"type":"Polygon","coordinates":[[[-10,-10],[30,-10],[30,20],[-10,20],[-10,-10]]]}},
            {"type":"Feature","properties":{"n":"a"},"geometry":{"type":"LineString","coordinates":[[-100,40],[100,-40]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[120,30],[-60,-20],[5,5]]}}]}
            """#
        guard let job = try? TileJob.create(work: work, tiler: tiler, partitionZoom: 1) else { return nil }
        var reader = GeoJSONReader(input: ByteInput(bytes: Array(input.utf8)))
        guard (try? job.split(shard: 0, reading: &reader)) != nil, let partitions = try? job.plan() else { return nil }
        for partition in partitions { guard (try? job.cut(partition: partition)) != nil else { return nil } }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []).sorted()
        return (work, partitions, names.compactMap { name in
            FileManager.default.contents(atPath: work + "/" + name).map { (name, Array($0)) }
        })
    }()

    /// Cuts the small job once (from `LLVMFuzzerInitialize`).
    static func prepare() { _ = prepared }

    static func run(_ bytes: [UInt8]) {
        guard let prepared, !prepared.files.isEmpty, let selector = bytes.first else { return }
        let chosen = prepared.files[Int(selector) % prepared.files.count].name
        for file in prepared.files {
            _ = FileManager.default.createFile(atPath: prepared.work + "/" + file.name,
                                           contents: Data(file.name == chosen ? Array(bytes.dropFirst()) : file.bytes))
        }
        guard let job = try? TileJob(work: prepared.work), job.tiler.output == output, job.tiler.threads <= 2 else { return }
        var partitions = prepared.partitions
        if chosen == "job.json" || chosen.hasPrefix("shard-") {
            guard let planned = try? job.plan() else { return }
            partitions = planned
        }
        if !chosen.hasPrefix("partition-") {
            for partition in partitions { guard (try? job.cut(partition: partition)) != nil else { return } }
        }
        _ = try? job.finish()
    }
}

/// Files the targets above hand to readers that open paths.
enum FuzzFiles {
    /// A folder of this process's own.
    static let folder: String = {
        let path = NSTemporaryDirectory() + "overlaykit-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// `bytes` written to `name` in ``folder``; its path.
    static func write(_ bytes: [UInt8], name: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
