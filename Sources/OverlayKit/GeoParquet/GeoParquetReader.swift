import OverlayModel

/// Reads GeoParquet (1.0, 1.1 and 2.0 / Parquet GEOMETRY) as features, one row group at a
/// time: memory is bounded by the row groups decoded at once. The geometry column is the `geo`
/// metadata's primary one unless another is named; every other column that is not a geometry
/// column (nor the 1.1 bbox covering column) becomes a property, in schema order.
///
/// ``FeatureReadHints`` make it read less: row groups whose declared box (GeoParquet 2.0
/// geospatial statistics, or the 1.1 covering columns' min and max) cannot meet the hint's
/// extent are skipped (counted in ``statistics``), and so are the pages of a row group read
/// whose covering columns' page index (Parquet's ColumnIndex and OffsetIndex) shows they cannot
/// meet it: every column decodes only the rows kept; properties not named are not decoded; and
/// with more than one thread, row groups are decoded side by side and handed over in order, so
/// the features are those of one thread, in the same order.
///
/// A folder (``init(folder:geometryColumn:hints:slice:)``) is read as one input: its Parquet
/// files in path order (`HivePartitionedFolder`), each file's `key=value` folders appended to
/// its features' properties as strings (unless the file has a column of that name).
public struct GeoParquetReader: FeatureReader {
    /// What a read skipped.
    public struct Statistics: Sendable, Equatable {
        /// The files read.
        public var files = 0
        /// The row groups of every file.
        public var rowGroups = 0
        /// The row groups outside the slice asked for.
        public var rowGroupsOutsideSlice = 0
        /// The row groups skipped because their declared box (or the box of every one of their
        /// pages) cannot meet the hint's extent.
        public var rowGroupsSkipped = 0
        /// The row groups read (or to be read).
        public var rowGroupsRead = 0
        /// The pages of the 1.1 covering columns (the four counted together) left unread because
        /// their page index shows they cannot meet the hint's extent (in row groups not skipped whole).
        public var pagesSkipped = 0
        /// The rows those pages hold, left out of the row groups read (or skipped by their pages).
        public var rowsSkipped = 0
    }

    /// One row group to read: which file, which group, and which of its rows (nil: all).
    private struct Task: Sendable {
        var file: Int
        var group: Int
        var rows: [Range<Int>]? = nil
    }

    private let files: [GeoParquetFile]
    /// Per file: the property fields decoded and the partition values appended.
    private let fields: [[ParquetSchemaTree.Node]]
    private let extras: [[JSONObject.Member]]
    private let tasks: [Task]
    private let threads: Int
    private var taskIndex = 0
    private var pending: [Feature] = []
    private var pendingIndex = 0
    private var failure: (any Error)?
    private var decoder: DecoderOwner?
    /// Hands freed memory back once per ``trimBytes`` of row groups read through ``next()``.
    /// Row groups are decoded on worker threads and freed by the consumer, so glibc's arenas
    /// each grow to their own fragmented peak, which rose with the rows read (`convert`
    /// buildings: 1M rows 1.9× the peak RSS of 100k); trimming keeps resident memory near what is live.
    var trimmer = FreedMemoryTrimmer(bytesPerTrim: GeoParquetReader.trimBytes)
    /// Compressed column bytes of row groups read between two trims (about one buildings row
    /// group of 20,000 rows: a trim walks the arenas, a few per row group would cost more than it frees).
    static let trimBytes = 1 << 20
    /// What the read skips: known from the footers when the reader is made.
    public let statistics: Statistics

    /// The document context: the collection members overlaykit's writer kept in its metadata
    /// (the first file's; GeoParquet carries no KML resources).
    public var documentContext: DocumentContext { DocumentContext(collectionMembers: files.first?.collectionMembers ?? JSONObject()) }

    /// Opens `input` and reads its footer and `geo` metadata.
    /// - Parameters:
    ///   - input: the file (or bytes in memory).
    ///   - geometryColumn: a geometry column to read instead of the primary one (nil: the primary one).
    /// - Throws: a `Diagnostic` (`geoparquet.*`) naming the file and what is wrong.
    public init(input: ByteInput, geometryColumn: String? = nil) throws {
        try self.init(input: input, geometryColumn: geometryColumn, hints: FeatureReadHints())
    }

    /// Opens `input` to read with `hints`, all of it or one slice of its row groups.
    /// - Parameters:
    ///   - input: the file (or bytes in memory).
    ///   - geometryColumn: a geometry column to read instead of the primary one (nil: the primary one).
    ///   - hints: the extent, properties and threads the caller needs (see ``FeatureReadHints``).
    ///   - slice: the slice of the row groups to read (nil: all).
    /// - Throws: a `Diagnostic` (`geoparquet.*`) naming the file and what is wrong.
    public init(input: ByteInput, geometryColumn: String? = nil, hints: FeatureReadHints,
                slice: GeoParquetRowGroupSlice? = nil) throws {
        try self.init(files: [(try GeoParquetFile(input: input, geometryColumn: geometryColumn), [])], hints: hints, slice: slice)
    }

    /// Opens every Parquet file of the folder `folder` (a Hive-partitioned data set) as one input.
    /// - Parameters:
    ///   - folder: the folder's path.
    ///   - geometryColumn: a geometry column to read instead of the primary one (nil: the primary one).
    ///   - hints: the extent, properties and threads the caller needs (see ``FeatureReadHints``).
    ///   - slice: the slice of all files' row groups to read (nil: all).
    /// - Throws: `geoparquet.empty-folder` when no Parquet file is in it, `io.open-failed` when it
    ///   cannot be listed, and what opening each file throws.
    public init(folder: String, geometryColumn: String? = nil, hints: FeatureReadHints = FeatureReadHints(),
                slice: GeoParquetRowGroupSlice? = nil) throws {
        let listed = try HivePartitionedFolder(path: folder)
        let opened = try listed.files.map { file in
            (try GeoParquetFile(input: try ByteInput(path: file.path), geometryColumn: geometryColumn), file.partitions)
        }
        try self.init(files: opened, hints: hints, slice: slice)
    }

    /// Opens the GeoParquet file or folder at `path`: a folder as ``init(folder:geometryColumn:hints:slice:)``,
    /// a file as ``init(input:geometryColumn:hints:slice:)``.
    /// - Parameters:
    ///   - path: a GeoParquet file, or a folder of them.
    ///   - geometryColumn: a geometry column to read instead of the primary one (nil: the primary one).
    ///   - hints: the extent, properties and threads the caller needs (see ``FeatureReadHints``).
    ///   - slice: the slice of the row groups to read (nil: all).
    /// - Throws: what opening the file or folder throws.
    public init(path: String, geometryColumn: String? = nil, hints: FeatureReadHints = FeatureReadHints(),
                slice: GeoParquetRowGroupSlice? = nil) throws {
        if HivePartitionedFolder.isFolder(path) {
            try self.init(folder: path, geometryColumn: geometryColumn, hints: hints, slice: slice)
        } else {
            try self.init(input: try ByteInput(path: path), geometryColumn: geometryColumn, hints: hints, slice: slice)
        }
    }

    /// True when `path` is a folder that holds GeoParquet files (or `key=value` folders) at its
    /// first level, so a command reads it as a data set, not as a directory of tiles.
    /// - Parameter path: the path to look at.
    /// - Returns: whether the folder reads as a GeoParquet data set.
    public static func isDataSetFolder(_ path: String) -> Bool {
        HivePartitionedFolder.looksLikeDataSet(path)
    }

    private init(files opened: [(GeoParquetFile, [JSONObject.Member])], hints: FeatureReadHints, slice: GeoParquetRowGroupSlice?) throws {
        files = opened.map(\.0)
        let wanted = hints.properties
        fields = files.map { file in file.propertyFields.filter { wanted?.contains($0.element.name) ?? true } }
        extras = opened.map { file, partitions in
            let columns = Set(file.propertyFields.map(\.element.name)).union(file.metadata.geometryColumnNames)
            return partitions.filter { !columns.contains($0.key) && (wanted?.contains($0.key) ?? true) }
        }
        var all = [Task]()
        for (index, file) in files.enumerated() {
            all += file.footer.rowGroups.indices.map { Task(file: index, group: $0) }
        }
        var statistics = Statistics(files: files.count, rowGroups: all.count)
        if let slice {
            let range = slice.range(ofTotal: all.count)
            statistics.rowGroupsOutsideSlice = all.count - range.count
            all = Array(all[range])
        }
        if let extent = hints.extent {
            let files = files
            let kept = all.filter { task in files[task.file].declaredBox(ofRowGroup: task.group)?.mayMeet(extent) ?? true }
            statistics.rowGroupsSkipped = all.count - kept.count
            // Inside the row groups kept, the pages the covering's page index rules out.
            all = []
            for var task in kept {
                let rowCount = files[task.file].footer.rowGroups[task.group].rowCount
                if let selection = try files[task.file].pageSelection(ofRowGroup: task.group, query: extent),
                   selection.rowCount < rowCount {
                    statistics.pagesSkipped += selection.pagesSkipped
                    statistics.rowsSkipped += rowCount - selection.rowCount
                    if selection.ranges.isEmpty {
                        statistics.rowGroupsSkipped += 1
                        continue
                    }
                    task.rows = selection.ranges
                }
                all.append(task)
            }
        }
        statistics.rowGroupsRead = all.count
        self.statistics = statistics
        tasks = all
        threads = hints.threads
    }

    /// The number of rows the footers declare (every file's, before any row group is skipped).
    public var rowCount: Int { files.reduce(0) { $0 + $1.footer.rowCount } }

    /// The next feature, reading the next row group when the current one is used up.
    public mutating func next() throws -> Feature? {
        while pendingIndex >= pending.count {
            if let failure { throw failure }
            // The used-up row group is let go before the next one is waited for: kept, it
            // would be one row group more alive at the peak.
            if !pending.isEmpty {
                pending = []
                trimmer.finished(bytes: compressedBytes(of: tasks[taskIndex - 1]))
            }
            guard taskIndex < tasks.count else { return nil }
            do {
                pending = try nextRowGroup()
            } catch {
                // The same error again on every later call, as a reader that stopped there.
                failure = error
                throw error
            }
            pendingIndex = 0
            taskIndex += 1
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// No warnings: whatever cannot be read is an error.
    public mutating func takeWarnings() -> [Diagnostic] { [] }

    /// Row groups are decoded on worker threads (``forEachPart(_:consume:)``, and ahead of ``next()``).
    public var decodesPartsInParallel: Bool { true }

    /// The GeoJSON text the row groups still to be read would make, estimated from their footers:
    /// per row, the fixed members (`{"type":"Feature","properties":{…},"geometry":{…}}`,
    /// 64 bytes) and each property's key (`"name":,`); the property columns'
    /// uncompressed bytes as they are (a string's text is itself, a number's about its width);
    /// the geometry column's times 1.5 (a coordinate's 8 bytes are 9–12 characters with
    /// their separators). Covering columns and properties not read count nothing. Within 10% of
    /// the GeoJSONSeq twin on the scale generator's points and buildings written by DuckDB, and
    /// within 25% on files of our writer and pyarrow (`GeoParquetScaleTests`), where the file
    /// itself is a fifth to a third of it.
    public var featureTextBytes: Int? {
        var bytes = 0.0
        for task in tasks[taskIndex...] {
            let file = files[task.file]
            let names = Set(fields[task.file].map(\.element.name))
            let keyBytes = names.reduce(0) { $0 + $1.utf8.count + 4 }
            let group = file.footer.rowGroups[task.group]
            let rows = task.rows.map { $0.reduce(0) { $0 + $1.count } } ?? group.rowCount
            var columns = 0.0
            for column in group.columns {
                guard let top = column.path.first else { continue }
                if top == file.metadata.geometry.name {
                    columns += 1.5 * Double(column.uncompressedSize)
                } else if names.contains(top) {
                    columns += Double(column.uncompressedSize)
                }
            }
            // A row group read in part (page index) counts its share of the columns.
            let share = group.rowCount > 0 ? Double(rows) / Double(group.rowCount) : 0
            bytes += Double(rows) * Double(Self.featureTextBytesPerRow + keyBytes) + columns * share
        }
        return Int(saturating: bytes.rounded())
    }

    /// The fixed members of one feature as GeoJSON text, with a line break.
    static let featureTextBytesPerRow = 64

    /// The features of task `taskIndex`: decoded here, or taken from the workers.
    private mutating func nextRowGroup() throws -> [Feature] {
        guard threads > 1, tasks.count > 1 else { return try decode(tasks[taskIndex]) }
        if decoder == nil {
            let files = files, fields = fields, extras = extras, tasks = tasks
            // One row group per thread ahead, not two as `forEachPart` allows: these features
            // cross to the consumer and wait there, so each row group ahead is one more alive at
            // the peak (`convert` buildings 1M rows: 2 per thread peaked near 175 MB, above 1.5×
            // 100k rows), and the workers stay busy whenever the consumer is the slower side.
            decoder = DecoderOwner(try OrderedRowGroupDecoder(count: tasks.count, threads: threads, window: threads) { index in
                let task = tasks[index]
                return Result { try files[task.file].features(ofRowGroup: task.group, fields: fields[task.file], extra: extras[task.file], rows: task.rows) }
            })
        }
        guard let outcome = decoder?.decoder.next() else { return [] }
        return try outcome.get()
    }

    /// Reads what ``next()`` has not yet returned, one row group at a time: `transform` makes
    /// something of each row group's features (on the worker threads when the hints asked for
    /// more than one, so features never cross threads and are freed where they were made),
    /// and `consume` gets each result on the caller's thread, in row-group order. `consume` sees
    /// exactly what transforming the features ``next()`` returns, group by group, would give,
    /// and an error where ``next()`` would have thrown it. Memory: the row groups being decoded
    /// (one per thread) and at most twice the threads' results waiting.
    /// - Parameters:
    ///   - transform: what to make of one row group's features, in order (a part of the rest
    ///     of a row group ``next()`` had begun); it may run on any thread.
    ///   - consume: takes each result in order, on the caller's thread; what it throws stops the read.
    /// - Throws: what reading a row group throws, or what `consume` throws.
    public mutating func forEachPart<Part: Sendable>(_ transform: @escaping @Sendable ([Feature]) -> Part,
                                                       consume: (Part) throws -> Void) throws {
        if pendingIndex < pending.count {
            let rest = Array(pending[pendingIndex...])
            (pending, pendingIndex) = ([], 0)
            try consume(transform(rest))
        }
        if let failure { throw failure }
        guard taskIndex < tasks.count else { return }
        // Workers already started by `next()` hand features over; so does a single thread.
        guard decoder == nil, threads > 1, tasks.count - taskIndex > 1 else {
            while let features = try nextGroupForEach() { try consume(transform(features)) }
            return
        }
        let files = files, fields = fields, extras = extras, remaining = Array(tasks[taskIndex...])
        let workers = try OrderedRowGroupDecoder<Part>(count: remaining.count, threads: threads, window: 2 * threads) { index in
            let task = remaining[index]
            return Result { transform(try files[task.file].features(ofRowGroup: task.group, fields: fields[task.file], extra: extras[task.file])) }
        }
        defer { workers.cancel() }
        while let outcome = workers.next() {
            let part: Part
            do {
                part = try outcome.get()
            } catch {
                // The same error again on every later call, as `next()` does.
                failure = error
                throw error
            }
            taskIndex += 1
            try consume(part)
        }
    }

    /// The next row group's features for `forEachPart(_:consume:)` read as `next()` reads them; nil at the end.
    private mutating func nextGroupForEach() throws -> [Feature]? {
        guard taskIndex < tasks.count else { return nil }
        do {
            let features = try nextRowGroup()
            taskIndex += 1
            return features
        } catch {
            failure = error
            throw error
        }
    }

    /// The compressed bytes of `task`'s column chunks, as its file's footer states them.
    private func compressedBytes(of task: Task) -> Int {
        files[task.file].footer.rowGroups[task.group].columns.reduce(0) { $0.addingSaturating(Int(clamping: $1.compressedSize)) }
    }

    private func decode(_ task: Task) throws -> [Feature] {
        try files[task.file].features(ofRowGroup: task.group, fields: fields[task.file], extra: extras[task.file], rows: task.rows)
    }

    /// Stops the workers when the last copy of the reader is gone.
    private final class DecoderOwner {
        let decoder: OrderedRowGroupDecoder<[Feature]>
        init(_ decoder: OrderedRowGroupDecoder<[Feature]>) { self.decoder = decoder }
        deinit { decoder.cancel() }
    }
}
