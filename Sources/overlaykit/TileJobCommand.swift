import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

/// `overlaykit tile-job`: the steps of a `tile` run split over workers (`TileJob`), each a
/// process a scheduler (GNU parallel, Spark, a batch system) can start anywhere the work folder is.
struct TileJobCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile-job",
        abstract: "Run the steps of a tile run split over workers: split each shard, plan, cut each partition, finish.",
        discussion: """
            Set a run up with 'overlaykit tile --job DIR -o OUT [tile options]'. The joined output \
            equals one 'tile' run with the same options, byte for byte, whatever the number of \
            shards, workers and partitions. DIR must be a folder every worker reads and writes.
            """,
        subcommands: [Split.self, Plan.self, Cut.self, Finish.self]
    )

    /// Step 1: one shard of the input.
    struct Split: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read one shard of the input (the N-th slice, numbered from 0 in input order) and file its features by partition.")

        @Argument(help: "The job's folder.")
        var work: String

        @Argument(help: "The shard's number: 0, 1, 2, … in input order, with no gap.")
        var shard: Int

        @Argument(help: "The shard (GeoJSON, GeoJSONSeq, KML, KMZ or GeoParquet, or a folder of GeoParquet files); '-' or none reads standard input.")
        var input: String?

        @Option(help: "The layer of the input this shard belongs to (default: the run's -l, else 'features').")
        var layer: String?

        @OptionGroup var format: InputFormatOptions

        @Option(name: .customLong("row-groups"), help: ArgumentHelp("GeoParquet (a file or a folder of them): read only the K-th (from 0) of N consecutive slices of the row groups, so N workers share one input without splitting it first.", valueName: "K/N"))
        var rowGroups: String?

        func validate() throws {
            guard shard >= 0 else { throw ValidationError("the shard number must be 0 or more") }
            if let rowGroups {
                guard GeoParquetRowGroupSlice(parsing: rowGroups) != nil else {
                    throw ValidationError("--row-groups takes K/N with 0 ≤ K < N ≤ \(GeoParquetRowGroupSlice.maxCount), not '\(rowGroups)'")
                }
                guard let input, input != "-" else { throw ValidationError("--row-groups reads a GeoParquet file or folder: name it") }
                if let from = format.from, from != .geoparquet { throw ValidationError("--row-groups reads GeoParquet, not \(from.rawValue)") }
            }
        }

        func run() throws {
            try runReportingErrors {
                let job = try TileJob(work: work)
                var reader: any FeatureReader
                // The run's box (tile --job --bbox) skips row groups here as it does in one run.
                let hints = FeatureReadHints(extent: job.tiler.options.clipBox, threads: ReadAheadFeatureReader.usableCores)
                if let rowGroups, let slice = GeoParquetRowGroupSlice(parsing: rowGroups), let input {
                    reader = try GeoParquetReader(path: input, geometryColumn: format.geometryColumn, hints: hints, slice: slice)
                } else {
                    reader = try format.openReader(input, hints: hints).1
                }
                let report = try job.split(shard: shard, layer: layer, reading: &reader, onWarning: Report.diagnostic)
                Report.standardError("tile-job split: shard \(shard), \(report.features) features into \(report.partitions) partitions\n")
            }
        }
    }

    /// Step 2: the plan.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the shards into the plan; print the partitions to cut, one per line.")

        @Argument(help: "The job's folder.")
        var work: String

        func run() throws {
            try runReportingErrors {
                let partitions = try TileJob(work: work).plan()
                print(partitions.map(String.init).joined(separator: "\n"))
            }
        }
    }

    /// Step 3: one partition (or several, one after another).
    struct Cut: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cut partitions the plan printed: their tiles from the partition zoom down.")

        @Argument(help: "The job's folder.")
        var work: String

        @Argument(help: "Partition numbers, as the plan printed them.")
        var partitions: [Int]

        func validate() throws {
            guard !partitions.isEmpty else { throw ValidationError("name at least one partition") }
        }

        func run() throws {
            try runReportingErrors {
                let job = try TileJob(work: work)
                for partition in partitions {
                    let report = try job.cut(partition: partition)
                    let tiles = report.zooms.reduce(0) { $0 + $1.tiles }
                    Report.standardError("tile-job cut: partition \(partition), \(tiles) tiles\n")
                }
            }
        }
    }

    /// Step 4: the zooms above the partitions and the output.
    struct Finish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cut the zooms above the partitions and write every tile and the metadata to the output.")

        @Argument(help: "The job's folder.")
        var work: String

        @Flag(help: "Print the same notes a 'tile' run prints.")
        var notes = false

        func run() throws {
            try runReportingErrors {
                let job = try TileJob(work: work)
                let report = try job.finish()
                let size = report.fileBytes.map { "\($0) bytes" } ?? "\(report.encodedBytes) bytes of tiles"
                Report.standardError("tile: \(report.tiles) tiles, z\(report.metadata.minZoom)–z\(report.metadata.maxZoom), "
                    + "\(size) in \(job.tiler.output)\n")
                if notes { report.diagnostics.forEach(Report.diagnostic) }
            }
        }
    }
}
