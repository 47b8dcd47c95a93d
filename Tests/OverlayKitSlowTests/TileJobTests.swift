import Foundation
import OverlayModel
import TestSupport
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit

/// A run split over workers (`TileJob`: split the shards, plan, cut the partitions, finish)
/// writes what one `Tiler` run writes, file for file, with tippecanoe's defaults (thinning,
/// tiny-polygon stand-ins, the budget) and the other density options, whatever the number of
/// shards and the partition zoom.
final class TileJobTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-job-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `input`'s lines in `count` consecutive slices, as files.
    private func shards(of input: String, count: Int) throws -> [String] {
        let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.isEmpty }
        return try (0..<count).map { index in
            let slice = lines[index * lines.count / count..<(index + 1) * lines.count / count]
            let path = folder.appendingPathComponent("shard-\(UUID().uuidString).geojsons").path
            try Data((slice.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// One run's output, and the job's with `shards` shards at `partitionZoom` (a directory
    /// unless `suffix` names an archive).
    private func outputs(_ input: String, shards count: Int, partitionZoom: Int, suffix: String = "",
                         _ configure: (inout Tiler) -> Void) throws -> (one: [String: Data], job: [String: Data]) {
        let name = UUID().uuidString
        let one = folder.appendingPathComponent("one").appendingPathComponent(name + suffix)
        try FileManager.default.createDirectory(at: one.deletingLastPathComponent(), withIntermediateDirectories: true)
        var tiler = Tiler(output: one.path, layer: "mixed")
        tiler.threads = 2
        configure(&tiler)
        var reader = try FeatureIO.reader(for: ByteInput(path: input))
        let single = try tiler.run(reading: &reader)
        let distributed = folder.appendingPathComponent("job").appendingPathComponent(name + suffix)
        try FileManager.default.createDirectory(at: distributed.deletingLastPathComponent(), withIntermediateDirectories: true)
        tiler.output = distributed.path
        let report = try runJob(tiler, partitionZoom: partitionZoom, shards: try shards(of: input, count: count).map { ($0, nil) })
        XCTAssertEqual(report.zooms, single.zooms, "per-zoom counts")
        XCTAssertEqual(report.input, single.input)
        return (try TileFixtures.files(one), try TileFixtures.files(distributed))
    }

    /// Runs `tiler` as a job over `shards` (files, each with its input's layer), every step as a
    /// fresh worker would run it: from the work folder alone.
    private func runJob(_ tiler: Tiler, partitionZoom: Int, shards: [(path: String, layer: String?)]) throws -> Tiler.Report {
        let work = folder.appendingPathComponent("work-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        _ = try TileJob.create(work: work.path, tiler: tiler, partitionZoom: partitionZoom)
        for (index, shard) in shards.enumerated() {
            var reader = try FeatureIO.reader(for: ByteInput(path: shard.path))
            try TileJob(work: work.path).split(shard: index, layer: shard.layer, reading: &reader)
        }
        for partition in try TileJob(work: work.path).plan() { try TileJob(work: work.path).cut(partition: partition) }
        return try TileJob(work: work.path).finish()
    }

    private func assertSame(_ outputs: (one: [String: Data], job: [String: Data]), _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(outputs.one.isEmpty, label, file: file, line: line)
        XCTAssertEqual(outputs.one.keys.sorted(), outputs.job.keys.sorted(), "\(label): the same tiles", file: file, line: line)
        var differing = [String]()
        for (path, bytes) in outputs.one where outputs.job[path] != bytes { differing.append(path) }
        XCTAssertEqual(differing.sorted(), [], "\(label): files differ", file: file, line: line)
    }

    func testSplitRunEqualsOneRunWithTippecanoesDefaults() throws {
        let input = try TileFixtures.writeMixedInput(in: folder)
        // A directory: every tile and metadata.json, file for file.
        assertSame(try outputs(input, shards: 3, partitionZoom: 2) { $0.options.maxZoom = 5 }, "3 shards, partition zoom 2")
        // PMTiles archives, byte for byte.
        for (shards, zoom) in [(1, 0), (2, 1), (4, 3), (8, 4)] {
            assertSame(try outputs(input, shards: shards, partitionZoom: zoom, suffix: ".pmtiles") { $0.options.maxZoom = 6 },
                       "\(shards) shards, partition zoom \(zoom)")
        }
    }

    /// A box (`tile --job --bbox`): the job file carries it to every worker, whose shards keep
    /// only what lies inside, clipped; the job writes one boxed run's bytes (generated ids and
    /// thinning count only the features inside, in both). Boxes off the tile grid, on it, and
    /// across the antimeridian.
    func testSplitRunWithABoxEqualsOneRunWithIt() throws {
        let input = try TileFixtures.writeMixedInput(in: folder)
        for box in ["-8,38,14,52", "0,0,90,66.51326044311186", "170,-30,-170,30"] {
            for (shards, zoom) in [(3, 2), (5, 4)] {
                assertSame(try outputs(input, shards: shards, partitionZoom: zoom, suffix: ".pmtiles") { tiler in
                    tiler.options.maxZoom = 6
                    tiler.options.generateID = true
                    tiler.options.clipBox = try? GeographicBox(parsing: box)
                }, "box \(box), \(shards) shards, partition zoom \(zoom)")
            }
        }
    }

    /// Clusters with accumulated attributes, generated ids and line metrics; a tight byte budget
    /// (drop densest) with promoted ids; coalescing; GeoJSON tiles from z3; guessed zooms.
    func testSplitRunEqualsOneRunWithEveryDensityOption() throws {
        let input = try TileFixtures.writeMixedInput(in: folder)
        assertSame(try outputs(input, shards: 3, partitionZoom: 2, suffix: ".pmtiles") { tiler in
            tiler.options.maxZoom = 6
            tiler.options.clusterDistance = 40
            tiler.options.clusterAttributes = ["flag": .count]
            tiler.options.generateID = true
            tiler.options.lineMetrics = true
        }, "clusters, generated ids, line metrics")
        assertSame(try outputs(input, shards: 2, partitionZoom: 2, suffix: ".pmtiles") { tiler in
            tiler.options.maxZoom = 6
            tiler.options.budget.maxBytes = 2_000
            tiler.options.promoteID = "v"
        }, "a 2,000-byte budget, promoted ids")
        assertSame(try outputs(input, shards: 2, partitionZoom: 1, suffix: ".mbtiles") { tiler in
            tiler.options.maxZoom = 6
            tiler.options.budget.maxFeatures = 40
            tiler.options.budget.strategy = .coalesceDensest
        }, "coalescing to 40 features")
        assertSame(try outputs(input, shards: 3, partitionZoom: 2) { tiler in
            tiler.options.maxZoom = 5
            tiler.options.minZoom = 3
            tiler.encoding = .geojson
        }, "GeoJSON tiles from z3")
        assertSame(try outputs(input, shards: 2, partitionZoom: 2, suffix: ".pmtiles") { tiler in
            tiler.options.maxZoom = 8
            tiler.options.guessesMaxZoom = true
            tiler.options.guessesBaseZoom = true
        }, "guessed max and base zoom")
        assertSame(try outputs(input, shards: 3, partitionZoom: 2, suffix: ".pmtiles") { tiler in
            tiler.options.maxZoom = 6
            tiler.encoding = .mlt
        }, "MapLibre Tiles")
    }

    /// Several inputs, each its own layer (and members naming others), as shards of their inputs.
    func testSplitRunEqualsOneRunWithSeveralLayers() throws {
        let first = try TileFixtures.writeMixedInput(in: folder)
        let second = folder.appendingPathComponent("second.geojsons").path
        try Data(("""
            {"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[2.3,48.8]}}
            {"type":"Feature","properties":{"n":2},"tippecanoe":{"layer":"named"},"geometry":{"type":"Point","coordinates":[2.4,48.9]}}
            {"type":"Feature","properties":{"n":3},"geometry":{"type":"LineString","coordinates":[[0,0],[10,10]]}}
            """ + "\n").utf8).write(to: URL(fileURLWithPath: second))
        let one = folder.appendingPathComponent("layers-one.pmtiles")
        var tiler = Tiler(output: one.path, layer: "first")
        tiler.options.maxZoom = 6
        var inputs = [TileInput(layer: "first", reader: try FeatureIO.reader(for: ByteInput(path: first))),
                      TileInput(layer: "second", reader: try FeatureIO.reader(for: ByteInput(path: second)))]
        let single = try tiler.run(reading: &inputs)
        let distributed = folder.appendingPathComponent("layers-job.pmtiles")
        tiler.output = distributed.path
        let shards = try shards(of: first, count: 2).map { ($0, "first") } + [(second, "second")]
        let report = try runJob(tiler, partitionZoom: 2, shards: shards.map { (path: $0.0, layer: Optional($0.1)) })
        XCTAssertEqual(report.zooms, single.zooms)
        XCTAssertEqual(report.metadata.vectorLayers.map(\.id), ["first", "second", "named"])
        XCTAssertEqual(try Data(contentsOf: distributed), try Data(contentsOf: one), "the same PMTiles archive, byte for byte")
    }

    /// Shared borders (`-ab`): which polygons tiles hold back is decided once from the whole
    /// input, so a border crossing a partition's edge, or the antimeridian, is simplified and
    /// snapped the same way on both sides, as in one run.
    /// A GeoParquet file split by row groups (`tile-job split --row-groups K/N`), never
    /// converted: each worker reads its slice of the row groups, and the job writes one run's bytes.
    func testSplitByGeoParquetRowGroupsEqualsOneRun() throws {
        let corpus = folder.appendingPathComponent("corpus")
        try Prerequisite.writeScriptCorpus("geoparquet_scale_corpus.py", into: corpus, modules: ["pyarrow"], install: "pip install pyarrow")
        for input in [corpus.appendingPathComponent("covering.parquet").path, corpus.appendingPathComponent("hive").path] {
            // With a box (tile --bbox) each worker's slice skips the row groups outside it, as the one run does.
            for (shards, zoom, box) in [(1, 0, nil), (3, 2, nil), (7, 3, nil), (3, 2, "-100,-70,-20,70"), (7, 3, "-100,-70,-20,70")] {
                let name = UUID().uuidString + ".pmtiles"
                let one = folder.appendingPathComponent("one-\(name)")
                var tiler = Tiler(output: one.path, layer: "mixed")
                tiler.threads = 2
                tiler.options.maxZoom = 6
                tiler.options.clipBox = try box.map { try GeographicBox(parsing: $0) }
                var reader = try GeoParquetReader(path: input, hints: tiler.readHints)
                let single = try tiler.run(reading: &reader)
                if box != nil { XCTAssertGreaterThan(reader.statistics.rowGroupsSkipped, 0, input) }
                let distributed = folder.appendingPathComponent("job-\(name)")
                tiler.output = distributed.path
                let work = folder.appendingPathComponent("work-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                _ = try TileJob.create(work: work.path, tiler: tiler, partitionZoom: zoom)
                for shard in 0..<shards {
                    var part = try GeoParquetReader(path: input, hints: FeatureReadHints(extent: tiler.options.clipBox, threads: 2),
                                                    slice: GeoParquetRowGroupSlice(index: shard, count: shards))
                    try TileJob(work: work.path).split(shard: shard, reading: &part)
                }
                for partition in try TileJob(work: work.path).plan() { try TileJob(work: work.path).cut(partition: partition) }
                let report = try TileJob(work: work.path).finish()
                XCTAssertEqual(report.zooms, single.zooms, "\(input), \(shards) shards")
                XCTAssertEqual(try Data(contentsOf: distributed), try Data(contentsOf: one), "\(input), \(shards) shards, partition zoom \(zoom), box \(box ?? "none")")
            }
        }
    }

    func testSplitRunEqualsOneRunWithSharedBorders() throws {
        let cells = CoverageFixtures.voronoi(west: 166.6, south: -21.4, east: 193.7, north: -3.2, columns: 6, rows: 5, seed: 3)
            .map { [$0] }
        let grid = CoverageFixtures.gridWithEnclaves(west: -12.3, south: 35.1, east: 14.9, north: 58.2, columns: 5, rows: 4, seed: 5)
        let input = folder.appendingPathComponent("coverage.geojsons").path
        try Data(CoverageFixtures.geoJSONSequence(cells + grid).utf8).write(to: URL(fileURLWithPath: input))
        for (shards, zoom) in [(1, 0), (2, 2), (3, 1), (8, 3)] {
            assertSame(try outputs(input, shards: shards, partitionZoom: zoom) { tiler in
                tiler.options.maxZoom = 6
                tiler.options.sharedBorders = true
            }, "\(shards) shards, partition zoom \(zoom)")
        }
    }

    /// The shards' files as a feature store hand the settle step what one run's store hands it:
    /// the same anchors in the same Z-order and the same polygon pieces, so the same shared-border
    /// tags; and the plan's thinning states resume each partition's walk where one run's walk
    /// stands at its first point.
    func testShardStoreHandsTheSettleStepWhatOneRunsStoreDoes() throws {
        let cells = CoverageFixtures.voronoi(west: 166.6, south: -21.4, east: 193.7, north: -3.2, columns: 6, rows: 5, seed: 3)
            .map { [$0] }
        var lines = CoverageFixtures.geoJSONSequence(cells)
        for index in 0..<300 {
            let longitude = -40 + Double(index % 30) * 2.5 + Double(index) * 0.001, latitude = -30 + Double(index / 30) * 5.5
            lines += #"{"type":"Feature","properties":{"n":\#(index)},"geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}}"# + "\n"
        }
        let input = folder.appendingPathComponent("settle.geojsons").path
        try Data(lines.utf8).write(to: URL(fileURLWithPath: input))
        var options = TileOptions()
        options.maxZoom = 7
        options.baseZoom = 5
        options.pointDropRate = 2.5
        options.sharedBorders = true
        var reader = try FeatureIO.reader(for: ByteInput(path: input))
        let one = try TileSource(reading: &reader, options: options)
        var oneAnchors = [FeatureAnchor]()
        try one.store.forEachAnchor { oneAnchors.append($0) }
        var oneWalker = try XCTUnwrap(PointThinning.walker(for: one.options))
        var oneThinning = [Int: UInt8]()
        for anchor in oneAnchors where anchor.pointsOnly { oneThinning[anchor.source] = oneWalker.next(key: anchor.key) }

        for (count, zoom) in [(1, 0), (3, 2), (4, 3)] {
            let work = folder.appendingPathComponent("settle-\(count)-\(zoom)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            var tiler = Tiler(output: folder.appendingPathComponent("unused-\(count)-\(zoom)").path, layer: "mixed")
            tiler.options = options
            let job = try TileJob.create(work: work.path, tiler: tiler, partitionZoom: zoom)
            for (index, path) in try shards(of: input, count: count).enumerated() {
                var part = try FeatureIO.reader(for: ByteInput(path: path))
                try job.split(shard: index, reading: &part)
            }
            try job.plan()
            let plan = try job.loadPlan()
            var store = try ShardFeatureStore(paths: plan.shards.map { TileJob.File.shardRecords($0.number).path(in: work.path) },
                                              shards: plan.shards, partitionZoom: zoom, owned: [:], folder: folder.path)
            var anchors = [FeatureAnchor]()
            try store.forEachAnchor { anchors.append($0) }
            XCTAssertEqual(anchors.map(\.key), oneAnchors.map(\.key), "\(count) shards, partition zoom \(zoom): anchor keys")
            XCTAssertEqual(anchors.map(\.source), oneAnchors.map(\.source), "\(count) shards, partition zoom \(zoom): anchor order")
            XCTAssertEqual(anchors.map(\.pointsOnly), oneAnchors.map(\.pointsOnly))
            func polygons(_ store: some ProjectedFeatureStore) throws -> [String] {
                var pieces = [String]()
                try store.forEachPolygon { pieces.append("\($0.source) \($0.coordinates)") }
                return pieces.sorted()
            }
            XCTAssertEqual(try polygons(store), try polygons(one.store), "\(count) shards, partition zoom \(zoom): polygon pieces")
            var settled = options
            try FeatureSettling.settle(&settled, store: &store, vertexSpacing: MaxZoomGuess.VertexSpacing(), sketch: nil,
                                       featureCount: one.inputCounts.features)
            XCTAssertEqual(store.partitions, plan.partitions.map(\.index))
            for feature in one.features where feature.type == .polygon {
                XCTAssertEqual(store.sharedBordersThrough[feature.source], feature.tags.sharedBordersThrough, "feature \(feature.source)")
            }
            XCTAssertTrue(one.features.contains { $0.tags.sharedBordersThrough > 0 }, "some border is held back")
            // Each partition's walk, resumed from the state the plan settled for it, thins its points
            // as one run's walk does.
            var partitionThinning = [Int: UInt8]()
            for partition in plan.partitions {
                guard let state = partition.thinning else { continue }
                var walker = try XCTUnwrap(PointThinning.walker(
                    for: settled, resumedFrom: state,
                    shadows: try store.shadows(on: partition.index, lowShadows: plan.thinningShadows, options: settled)))
                for anchor in try store.anchors(of: partition.index) where anchor.pointsOnly {
                    partitionThinning[anchor.source] = walker.next(key: anchor.key)
                }
            }
            XCTAssertEqual(partitionThinning, oneThinning, "\(count) shards, partition zoom \(zoom): thinning")
            XCTAssertTrue(oneThinning.values.contains { $0 > 0 }, "some point is thinned")
        }
    }
}
