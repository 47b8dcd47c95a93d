import ArgumentParser
import OverlayKit

extension GeoParquetWriteOptions.Version: ExpressibleByArgument {}
extension GeoParquetWriteOptions.Compression: ExpressibleByArgument {}
extension GeoParquetWriteOptions.Order: ExpressibleByArgument {}

/// How GeoParquet output is laid out, for every command that writes features (`convert`,
/// `filter`); given with another output format, a usage error.
struct GeoParquetOutputOptions: ParsableArguments {
    @Option(name: .customLong("geoparquet-version"), help: "GeoParquet output: 1.1 (WKB, geo metadata, bbox covering column) or 2.0 (also Parquet's GEOMETRY type and geospatial statistics).")
    var version: GeoParquetWriteOptions.Version?

    @Option(help: "GeoParquet output: the page codec.")
    var compression: GeoParquetWriteOptions.Compression?

    @Option(name: .customLong("row-group-size"), parsing: .unconditional, help: "GeoParquet output: the most rows in one row group (default 65536).")
    var rowGroupSize: Int?

    @Option(help: "GeoParquet output: row order; hilbert sorts by the Hilbert index of each bbox centre so row groups are spatially compact.")
    var sort: GeoParquetWriteOptions.Order?

    /// Checks the values, and that they are given only for GeoParquet output.
    func validate(for format: FileFormat) throws {
        if let rowGroupSize, rowGroupSize < 1 { throw ValidationError("--row-group-size must be 1 or more") }
        guard format != .geoparquet else { return }
        let given = [("--geoparquet-version", version != nil), ("--compression", compression != nil),
                     ("--row-group-size", rowGroupSize != nil), ("--sort", sort != nil)].filter(\.1).map(\.0)
        if let first = given.first {
            throw ValidationError("\(first) applies to GeoParquet output only, but the output is \(format.rawValue)")
        }
    }

    /// The writer's options.
    var writeOptions: GeoParquetWriteOptions {
        var options = GeoParquetWriteOptions()
        if let version { options.version = version }
        if let compression { options.compression = compression }
        if let rowGroupSize { options.rowGroupRows = rowGroupSize }
        if let sort { options.order = sort }
        return options
    }
}
