import Foundation
import OverlayModel
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

    /// One run's directory output, and the job's with `shards` shards at `partitionZoom`.
    private func outputs(_ input: String, shards count: Int, partitionZoom: Int, _ configure: (inout Tiler) -> Void) throws
        -> (one: [String: Data], job: [String: Data]) {
        let one = folder.appendingPathComponent("one-\(UUID().uuidString)")
        var tiler = Tiler(output: one.path, layer: "mixed")
        tiler.threads = 2
        configure(&tiler)
        var reader = try FeatureIO.reader(for: ByteInput(path: input))
        _ = try tiler.run(reading: &reader)
        let distributed = folder.appendingPathComponent("job-\(UUID().uuidString)")
        tiler.output = distributed.path
        let work = folder.appendingPathComponent("work-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let job = try TileJob.create(work: work.path, tiler: tiler, partitionZoom: partitionZoom)
        for (index, shard) in try shards(of: input, count: count).enumerated() {
            var shardReader = try FeatureIO.reader(for: ByteInput(path: shard))
            // Each step as a fresh worker would run it: from the work folder alone.
            try TileJob(work: work.path).split(shard: index, reading: &shardReader)
        }
        for partition in try TileJob(work: work.path).plan() { try TileJob(work: work.path).cut(partition: partition) }
        _ = try job.finish()
        return (try TileFixtures.files(one), try TileFixtures.files(distributed))
    }

    private func assertSame(_ outputs: (one: [String: Data], job: [String: Data]), _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(outputs.one.count, 10, label, file: file, line: line)
        XCTAssertEqual(outputs.one.keys.sorted(), outputs.job.keys.sorted(), "\(label): the same tiles", file: file, line: line)
        var differing = [String]()
        for (path, bytes) in outputs.one where outputs.job[path] != bytes { differing.append(path) }
        XCTAssertEqual(differing.sorted(), [], "\(label): files differ", file: file, line: line)
    }

    func testSplitRunEqualsOneRunWithTippecanoesDefaults() throws {
        let input = try TileFixtures.writeMixedInput(in: folder)
        for (shards, zoom) in [(1, 0), (2, 1), (3, 2), (8, 3)] {
            assertSame(try outputs(input, shards: shards, partitionZoom: zoom) { $0.options.maxZoom = 7 },
                       "\(shards) shards, partition zoom \(zoom)")
        }
    }
}
