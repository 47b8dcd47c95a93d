import Foundation
import TestSupport
import XCTest

/// `tile --job` and `tile-job`: the steps as processes write what one `tile` writes; a job's
/// folder is never mixed with another's; a missing or out-of-order step says which.
final class TileJobCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Examples/countries.geojsons in `count` consecutive slices.
    private func shards(_ count: Int) throws -> [String] {
        let lines = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Examples/countries.geojsons"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.isEmpty }
        return try (0..<count).map { index in
            let path = folder.appendingPathComponent("slice-\(index).geojsons").path
            let slice = lines[index * lines.count / count..<(index + 1) * lines.count / count]
            try (slice.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    func testStepsAsProcessesWriteWhatOneRunWrites() throws {
        let options = ["-z", "6", "--layer", "countries"]
        let one = folder.appendingPathComponent("one.pmtiles").path
        let single = try CLI.run(["tile", CLI.packageRoot.appendingPathComponent("Examples/countries.geojsons").path, "-o", one] + options)
        XCTAssertEqual(single.status, 0, single.stderr)
        let work = folder.appendingPathComponent("work").path, split = folder.appendingPathComponent("split.pmtiles").path
        let setUp = try CLI.run(["tile", "--job", work, "-o", split, "--partition-zoom", "3"] + options)
        XCTAssertEqual(setUp.status, 0, setUp.stderr)
        XCTAssertTrue(setUp.stderr.contains("tile-job split"), setUp.stderr)
        // Numbered from 1, as GNU parallel's {#}.
        for (index, shard) in try shards(3).enumerated() {
            let result = try CLI.run(["tile-job", "split", work, "\(index + 1)", shard])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let plan = try CLI.run(["tile-job", "plan", work])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let partitions = plan.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(partitions.count, 5, plan.stdoutText)
        let early = try CLI.run(["tile-job", "finish", work])
        XCTAssertEqual(early.status, 65, "finish before the partitions are cut")
        XCTAssertTrue(early.stderr.contains("tile.bad-work-file"), early.stderr)
        let cut = try CLI.run(["tile-job", "cut", work] + partitions)
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let finish = try CLI.run(["tile-job", "finish", work])
        XCTAssertEqual(finish.status, 0, finish.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: split)), try Data(contentsOf: URL(fileURLWithPath: one)),
                       "the same PMTiles archive, byte for byte")
    }

    func testAJobsFolderIsNeverMixedAndMissingStepsAreNamed() throws {
        let work = folder.appendingPathComponent("work").path, output = folder.appendingPathComponent("out.pmtiles").path
        XCTAssertEqual(try CLI.run(["tile", "--job", work, "-o", output]).status, 0)
        let again = try CLI.run(["tile", "--job", work, "-o", output])
        XCTAssertEqual(again.status, 74, "another job's files are not overwritten without --force")
        XCTAssertTrue(again.stderr.contains("io.output-exists") && again.stderr.contains("--force"), again.stderr)
        XCTAssertEqual(try CLI.run(["tile", "--job", work, "-o", output, "-f"]).status, 0)
        for arguments in [["tile", "--job", work, "-o", output, "-f", "x.geojson"], ["tile", "x.geojson", "-o", output, "--partition-zoom", "2"],
                          ["tile", "--job", work, "-o", output, "-f", "--plan"]] {
            XCTAssertEqual(try CLI.run(arguments).status, 64, "\(arguments)")
        }
        XCTAssertEqual(try CLI.run(["tile", "--job", work, "-o", output, "-f", "-z", "3", "--partition-zoom", "5"]).status, 64,
                       "a partition zoom below the max zoom")
        let noShard = try CLI.run(["tile-job", "plan", work])
        XCTAssertEqual(noShard.status, 65)
        XCTAssertTrue(noShard.stderr.contains("no split shard"), noShard.stderr)
        let shards = try shards(3)
        for index in [0, 2] { XCTAssertEqual(try CLI.run(["tile-job", "split", work, "\(index)", shards[index]]).status, 0) }
        let gap = try CLI.run(["tile-job", "plan", work])
        XCTAssertEqual(gap.status, 65)
        XCTAssertTrue(gap.stderr.contains("missing: 1"), gap.stderr)
        XCTAssertEqual(try CLI.run(["tile-job", "split", work, "1", shards[1]]).status, 0)
        XCTAssertEqual(try CLI.run(["tile-job", "plan", work]).status, 0)
        let unknown = try CLI.run(["tile-job", "cut", work, "999999"])
        XCTAssertEqual(unknown.status, 65)
        XCTAssertTrue(unknown.stderr.contains("no partition 999999"), unknown.stderr)
        let nowhere = try CLI.run(["tile-job", "plan", folder.appendingPathComponent("nothing").path])
        XCTAssertEqual(nowhere.status, 65)
        XCTAssertTrue(nowhere.stderr.contains("job.json is missing"), nowhere.stderr)
    }
}
