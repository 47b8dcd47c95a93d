import Foundation
import OverlayModel

/// One `tile` run split over many workers (machines, processes, Spark tasks) whose joined output
/// equals the run's in one process, byte for byte, with every density option: the same tiles,
/// the same features in each tile in the same order, the same metadata and per-zoom counts.
///
/// The work happens in a folder every worker can read and write (a shared file system, or one
/// disk for GNU parallel), in four steps:
///
/// 1. ``split(shard:layer:reading:onWarning:)``, once per shard of the input (consecutive slices,
///    numbered in input order from 0 or 1, on any worker): projects the shard and files its features by
///    partition, the tiles of the partition zoom. Each piece goes, clipped down the pyramid as one
///    run clips it, to every partition it reaches; the partition holding the feature's anchor
///    owns it and also keeps its whole pieces and its anchor.
/// 2. ``plan()``, once: joins the shards' summaries as one run's projection would (input
///    positions, layers, metadata), settles guessed zooms, and gives every partition the state of
///    point thinning at its first point: the global Z-order rank of a point is its partition's
///    offset plus its rank there, and thinning depends only on the rank and the point before
///    (the last of the partitions before, by key). Returns the partitions.
/// 3. ``cut(partition:)``, once per partition (on any worker): thins its points from its
///    partition's state (and the neighbours' for their points in its tiles' buffers), cuts the
///    zooms from the partition zoom down for its tiles (budget, tiny shapes, clustering
///    included), and passes its owned features on for the zooms above.
/// 4. ``finish(onProgress:)``, once: cuts the zooms above the partitions from the features passed
///    on, and writes every tile and the metadata to the output.
///
/// Memory per worker is bounded by its partition's share (tiles too large to hold are cut while
/// read, as in one run's disk store); the driver holds only the plan.
public struct TileJob: Sendable {
    /// The work folder.
    public let work: String
    /// The run: its options, output and settings (`run`'s own inputs are not used).
    public let tiler: Tiler
    /// The zoom whose tiles are the partitions (4^z of them, the empty ones left out).
    public let partitionZoom: Int

    /// The file a step leaves in the work folder.
    enum File {
        case job, plan, sharedBorders
        case shardRecords(Int), shardSummary(Int)
        case partitionTiles(Int), partitionLow(Int), partitionReport(Int)

        func path(in work: String) -> String {
            let name: String
            switch self {
            case .job: name = "job.json"
            case .plan: name = "plan.json"
            case .sharedBorders: name = "shared-borders.bin"
            case .shardRecords(let index): name = String(format: "shard-%06d.records", index)
            case .shardSummary(let index): name = String(format: "shard-%06d.json", index)
            case .partitionTiles(let index): name = String(format: "partition-%06d.tiles", index)
            case .partitionLow(let index): name = String(format: "partition-%06d.low", index)
            case .partitionReport(let index): name = String(format: "partition-%06d.json", index)
            }
            return (work.hasSuffix("/") ? work : work + "/") + name
        }
    }

    /// Whether `name` is a file a job's step writes.
    private static func isJobFile(_ name: String) -> Bool {
        name == "job.json" || name == "plan.json" || name == "shared-borders.bin" || name.hasPrefix("shard-") || name.hasPrefix("partition-")
    }

    private struct Settings: Codable {
        var tiler: Tiler
        var partitionZoom: Int
    }

    /// Starts a job in `work` (made when missing; its parent must exist): saves `tiler`'s
    /// settings, so every step runs with the same ones. A folder holding an earlier job's files
    /// is refused unless `tiler.replaceExisting`, which removes them (shards of two inputs must
    /// never mix).
    /// - Parameters:
    ///   - work: the job's folder, shared by every step.
    ///   - tiler: the run's settings.
    ///   - partitionZoom: the zoom whose tiles are the partitions (at most the max zoom,
    ///     and 8): 4^z tasks, the empty ones skipped. The output does not depend on it.
    /// - Throws: `tile.bad-option` for settings out of range; `io.*` when the folder cannot be written.
    public static func create(work: String, tiler: Tiler, partitionZoom: Int) throws -> TileJob {
        if let first = settingProblems(tiler: tiler, partitionZoom: partitionZoom).first { throw first.diagnostic }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: work, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
            } catch {
                throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot make the job's folder \(work): \(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw Diagnostic(.error, code: .ioCreateFailed, message: "\(work) is not a folder")
        }
        let earlier = ((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []).filter(Self.isJobFile)
        if !earlier.isEmpty {
            guard tiler.replaceExisting else {
                throw Diagnostic(.error, code: .ioOutputExists,
                                 message: "\(work) holds another job's files (\(earlier.sorted()[0]), …); use --force to start over")
            }
            for name in earlier { try? FileManager.default.removeItem(atPath: (work.hasSuffix("/") ? work : work + "/") + name) }
        }
        let job = TileJob(work: work, tiler: tiler, partitionZoom: partitionZoom)
        try job.save(Settings(tiler: tiler, partitionZoom: partitionZoom), to: .job)
        return job
    }

    /// Every setting of a job out of its range: the run's (``Tiler/problems``, what the command
    /// line refuses) and the partition zoom. `create` refuses them and so does reading `job.json`
    /// back, by this one list.
    static func settingProblems(tiler: Tiler, partitionZoom: Int) -> [TileSettingProblem] {
        var found = tiler.problems
        let highest = min(8, tiler.options.maxZoom)
        if partitionZoom < 0 || partitionZoom > highest {
            found.append(TileSettingProblem(setting: "partitionZoom", requirement: "must be 0…\(max(0, highest)) (at most the max zoom and 8)",
                                            value: "\(partitionZoom)"))
        }
        return found
    }

    /// The job begun in `work`.
    /// - Throws: `tile.bad-work-file` when `work` holds no job, or a `job.json` whose settings
    ///   `create` would refuse (an edited or foreign file).
    public init(work: String) throws {
        self.work = work
        let path = File.job.path(in: work)
        let settings = try Self.load(Settings.self, from: path)
        if let first = Self.settingProblems(tiler: settings.tiler, partitionZoom: settings.partitionZoom).first {
            throw Diagnostic(.error, code: .tileBadWorkFile,
                             message: "\(path) holds a setting the job cannot run with: \(first); start the job again with tile-job create")
        }
        tiler = settings.tiler
        partitionZoom = settings.partitionZoom
    }

    private init(work: String, tiler: Tiler, partitionZoom: Int) {
        self.work = work
        self.tiler = tiler
        self.partitionZoom = partitionZoom
    }
}
