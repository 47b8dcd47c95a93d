import Dispatch
import Foundation
import OverlayModel

/// `TilePyramid` for features that live in temporary files instead of memory (tippecanoe's
/// and planetiler's way): zoom by zoom, every tile's features are read from the level's files
/// in tile order, the tile is cut feature by feature, and each feature's clipped parts are
/// written to the next zoom's files. Memory holds one batch of small tiles (or one large
/// tile's output) at a time, whatever the input's size; the disk holds two zooms.
///
/// The tiles are the same, byte for byte, as `TilePyramid`'s: a tile's features arrive in the
/// same order, and clipping each feature on its own gives what clipping them together does.
enum ExternalPyramid {
    /// Tiles whose records take more bytes than this are cut while they are read, alone;
    /// smaller ones are read whole and cut in parallel batches of about `batchBytes`.
    static let batchBytes = 32 << 20

    /// Builds tiles from `minZoom` to the source's max zoom from `store`'s first level.
    /// Arguments and result as `TilePyramid.build`; tiles of more than half `batchBytes` are
    /// cut while read (tests make every tile one).
    static func build(_ source: TileSource, store: SpilledFeatures, minZoom: Int, parallelism: Int,
                      batchBytes: Int = batchBytes,
                      emit: @escaping @Sendable (inout VectorTile) throws -> Int,
                      emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)?) throws -> [TilePyramid.ZoomCounts] {
        let maxZoom = source.options.maxZoom
        var counts = TilePyramid.ZoomCounts.zooms(through: maxZoom)
        let context = Context(options: source.options, visibility: source.visibility, layers: source.layerOf,
                              candidates: source.sharedBorderCandidates, minZoom: minZoom,
                              emit: emit, emitBlock: emitBlock)
        var runs = store.takeFirstLevel()
        for zoom in 0...maxZoom {
            let next = zoom < maxZoom ? try (0..<4).map { _ in try SpillFile(in: store.folder, usage: store.usage) } : []
            var reader = try LevelReader(runs: runs, zoom: zoom)
            try cutLevel(&reader, into: next, context: context, parallelism: parallelism, batchBytes: batchBytes,
                         counts: &counts)
            runs = next  // the level just read is freed here (its files have no name)
        }
        return Array(counts[min(minZoom, maxZoom)...])
    }

    /// What every tile of a run shares.
    struct Context: @unchecked Sendable {
        let options: TileOptions
        let visibility: FeatureVisibility
        let layers: @Sendable (Int) -> Int
        let candidates: SharedBorderCandidates?
        let minZoom: Int
        let emit: @Sendable (inout VectorTile) throws -> Int
        let emitBlock: (@Sendable (inout VectorTile, TileBlock) throws -> Int)?
    }

    /// One tile's records read whole.
    private struct Group {
        var tile: TileID
        var records: [UInt8]
    }

    /// Cuts every tile of one level, writing their children's records to `next`.
    private static func cutLevel(_ reader: inout LevelReader, into next: [SpillFile], context: Context, parallelism: Int,
                                 batchBytes: Int, counts: inout [TilePyramid.ZoomCounts]) throws {
        var batch = [Group](), batchSize = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            try cutBatch(batch, into: next, context: context, parallelism: parallelism, counts: &counts)
            batch.removeAll(keepingCapacity: true)
            batchSize = 0
        }
        while let tile = try reader.nextTile() {
            var records = [UInt8]()
            var complete = true
            while complete, try reader.nextRecordOfTile({ SpillRecord.appendFramed($0, to: &records) }) != nil {
                if records.count > batchBytes / 2 { complete = false }
            }
            if complete {
                batchSize += records.count
                batch.append(Group(tile: tile, records: records))
                if batchSize >= batchBytes || batch.count >= 4096 { try flush() }
                continue
            }
            // A large tile: what was read, then the rest straight from the files.
            try flush()
            var children = ChildRecords(files: next)
            var local = TilePyramid.ZoomCounts.zooms(through: context.options.maxZoom)
            try cutTile(tile, context: context, children: &children, counts: &local) { body in
                try forEachRecord(in: records, body)
                records = []
                while try reader.nextRecordOfTile(body) != nil {}
            }
            try children.finish()
            add(local, to: &counts)
        }
        try flush()
    }

    /// Cuts a batch of small tiles on `parallelism` threads and appends their children in order.
    private static func cutBatch(_ batch: [Group], into next: [SpillFile], context: Context, parallelism: Int,
                                 counts: inout [TilePyramid.ZoomCounts]) throws {
        let slices = min(batch.count, max(1, parallelism * 4))
        let results = SliceResults(count: slices)
        let work = { @Sendable (slice: Int) in
            var local = TilePyramid.ZoomCounts.zooms(through: context.options.maxZoom)
            var outputs = [ChildRecords]()
            do {
                for index in stride(from: slice * batch.count / slices, to: (slice + 1) * batch.count / slices, by: 1) {
                    var children = ChildRecords(files: nil)
                    try cutTile(batch[index].tile, context: context, children: &children, counts: &local) { body in
                        try forEachRecord(in: batch[index].records, body)
                    }
                    outputs.append(children)
                }
                results.set(slice, counts: local, children: outputs, error: nil)
            } catch {
                results.set(slice, counts: local, children: [], error: error)
            }
        }
        if parallelism <= 1 {
            for slice in 0..<slices { work(slice) }
        } else {
            DispatchQueue.concurrentPerform(iterations: slices, execute: work)
        }
        if let error = results.error { throw error }
        for slice in 0..<slices {
            add(results.counts[slice], to: &counts)
            for children in results.children[slice] where !next.isEmpty {
                for (file, bytes) in zip(next, children.buffers) where !bytes.isEmpty { try file.append(bytes) }
            }
        }
    }

    private final class SliceResults: @unchecked Sendable {
        private let lock = NSLock()
        var counts: [[TilePyramid.ZoomCounts]]
        var children: [[ChildRecords]]
        var error: Error?
        init(count: Int) {
            counts = Array(repeating: [], count: count)
            children = Array(repeating: [], count: count)
        }
        func set(_ slice: Int, counts: [TilePyramid.ZoomCounts], children: [ChildRecords], error: Error?) {
            lock.lock()
            defer { lock.unlock() }
            self.counts[slice] = counts
            self.children[slice] = children
            if let error, self.error == nil { self.error = error }
        }
    }

    private static func add(_ local: [TilePyramid.ZoomCounts], to counts: inout [TilePyramid.ZoomCounts]) {
        for (zoom, zoomCounts) in local.enumerated() { counts[zoom] += zoomCounts }
    }

    /// Calls `body` with each length-prefixed record in `bytes`.
    private static func forEachRecord(in bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try bytes.withUnsafeBytes { all in
            var at = 0
            while at + 4 <= all.count {
                let length = Int(all.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                try body(UnsafeRawBufferPointer(rebasing: all[at + 4..<at + 4 + length]))
                at += 4 + length
            }
        }
    }

    /// The four children's records of one tile, in memory, or flushed to the next level's
    /// files as they grow (a large tile); a solid tile takes them all back.
    struct ChildRecords {
        var buffers: [[UInt8]] = [[], [], [], []]
        private let files: [SpillFile]?
        private let marks: [Int]
        private static let flushBytes = 4 << 20

        init(files: [SpillFile]?) {
            self.files = files
            marks = files?.map(\.size) ?? []
        }

        mutating func append(_ feature: ProjectedFeature, child: Int, tile: TileID, attributes: UnsafeRawBufferPointer) throws {
            SpillRecord.append(feature, source: feature.source, tile: (UInt32(tile.x), UInt32(tile.y)),
                               attributes: attributes, to: &buffers[child])
            try flushIfFull(child)
        }

        /// Appends a copy of a whole record, filed under the child.
        mutating func appendCopy(_ record: UnsafeRawBufferPointer, child: Int, tile: TileID) throws {
            SpillRecord.appendCopy(record, tile: (UInt32(tile.x), UInt32(tile.y)), to: &buffers[child])
            try flushIfFull(child)
        }

        private mutating func flushIfFull(_ child: Int) throws {
            if let files, buffers[child].count >= Self.flushBytes {
                try files[child].append(buffers[child])
                buffers[child].removeAll(keepingCapacity: true)
            }
        }

        /// Forgets every record (the tile was solid: no child is cut one by one).
        mutating func discard() throws {
            buffers = [[], [], [], []]
            if let files { for (file, mark) in zip(files, marks) { try file.truncate(to: mark) } }
        }

        /// Writes what is buffered (files only).
        mutating func finish() throws {
            guard let files else { return }
            for (file, bytes) in zip(files, buffers) where !bytes.isEmpty { try file.append(bytes) }
            buffers = [[], [], [], []]
        }
    }

    /// Cuts tile `id` from the records `forEach` hands over, emits it, and writes each
    /// feature's parts in its children to `children` (unless it is the max zoom, or solid:
    /// then its whole subtree is emitted as blocks).
    static func cutTile(_ id: TileID, context: Context, children: inout ChildRecords, counts: inout [TilePyramid.ZoomCounts],
                        forEach: (_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let options = context.options
        var accumulator = TileBuilder.Accumulator(tile: id, options: options, visibility: context.visibility,
                                                  keepsPropertySources: false, layers: context.layers,
                                                  candidates: context.candidates)
        let splitting = id.z < options.maxZoom
        var solid: [ProjectedFeature]? = context.emitBlock != nil && splitting && options.buffer > 0 ? [] : nil
        var solidAttributes = [Int: TileAttributes]()
        var leftoverAttributes = [Int: [UInt8]]()
        let childIDs = TileSource.children(of: id)
        let placement = ChildPlacement(tile: id, options: options)
        try forEach { bytes in
            let header = SpillRecord.header(bytes)
            guard header.type != nil else { return }
            let source = SpillRecord.source(bytes)
            // Decoded only when drawn, checked for solidity or clipped.
            var decoded: (feature: ProjectedFeature, attributesAt: Int)?
            func feature() -> (feature: ProjectedFeature, attributesAt: Int) {
                if let decoded { return decoded }
                let (read, attributesAt) = SpillRecord.feature(bytes)
                decoded = (read!, attributesAt)
                return decoded!
            }
            if !accumulator.addIfHidden(source: source, featureBounds: header.bounds) {
                let (feature, attributesAt) = feature()
                var attributes: TileAttributes?
                accumulator.add(feature, attributes: { _ in
                    if let attributes { return attributes }
                    let read = AttributeCodec.attributes(bytes, at: attributesAt, source: source)
                    attributes = read
                    return read
                })
                let candidates = accumulator.leftoverCandidates
                if candidates.ring == source || candidates.line == source {
                    leftoverAttributes = leftoverAttributes.filter { $0.key == candidates.ring || $0.key == candidates.line }
                    leftoverAttributes[source] = Array(bytes[attributesAt...])
                }
            }
            if solid != nil {
                let (feature, attributesAt) = feature()
                if SolidTile.isSolid([feature], tile: id, options: options) {
                    solid?.append(feature)
                    solidAttributes[source] = AttributeCodec.attributes(bytes, at: attributesAt, source: source)
                } else {
                    solid = nil
                    solidAttributes = [:]
                }
            }
            guard splitting else { return }
            if let untouched = placement.untouchedChildren(header.bounds) {
                for child in 0..<4 where untouched[child] { try children.appendCopy(bytes, child: child, tile: childIDs[child]) }
                return
            }
            let (feature, attributesAt) = feature()
            let attributeBytes = UnsafeRawBufferPointer(rebasing: bytes[attributesAt...])
            for (child, parts) in TileSource.split([feature], tile: id, bounds: TileBuilder.Bounds(feature), options: options)
                .enumerated() {
                for part in parts {
                    try children.append(part, child: child, tile: childIDs[child], attributes: attributeBytes)
                }
            }
        }
        let leftovers = leftoverAttributes
        let attributesOf = { (source: Int) -> TileAttributes in
            guard let bytes = leftovers[source] else { return TileAttributes(id: nil, properties: nil) }
            return bytes.withUnsafeBytes { AttributeCodec.attributes($0, at: 0, source: source) }
        }
        var (tile, bounds) = accumulator.finish(attributes: attributesOf, propertyTable: nil)
        let cutter = TileCutter(options: options, visibility: context.visibility, propertyTable: nil, layers: context.layers,
                                candidates: context.candidates, attributes: { solidAttributes[$0] ?? TileAttributes(id: nil, properties: nil) })
        cutter.cluster(&tile)
        if id.z >= context.minZoom { try TilePyramid.emitCounted(&tile, counts: &counts, emit: context.emit) }
        if let solid, !solid.isEmpty, let emitBlock = context.emitBlock {
            try children.discard()
            try TilePyramid.visitSolid(solid, id, bounds: bounds, cutter: cutter, minZoom: context.minZoom, counts: &counts,
                                       emitBlock: emitBlock)
        }
    }
}

/// One level's files read as one sequence of tiles: each file holds records in tile order
/// (Z-order of x and y), a tile's records lie in one file or, at zoom 0, in several files in
/// turn; the next tile is the smallest next key over the files.
struct LevelReader {
    private var readers: [SpillReader]
    private var heads: [UInt64?]
    private let zoom: Int
    private var current: UInt64?
    private var currentRun = 0

    init(runs: [SpillFile], zoom: Int) throws {
        readers = try runs.map { try SpillReader($0) }
        heads = Array(repeating: nil, count: runs.count)
        self.zoom = zoom
        for index in readers.indices { heads[index] = try peek(index) }
    }

    private mutating func peek(_ index: Int) throws -> UInt64? {
        try readers[index].next(advance: false) { bytes in
            let tile = SpillRecord.tile(bytes)
            return SpatialOrder.key(column: tile.x, row: tile.y)
        }
    }

    /// The next tile that has records (skipping what is left of the current one), nil at the end.
    mutating func nextTile() throws -> TileID? {
        while try nextRecordOfTile({ _ in }) != nil {}
        guard let smallest = heads.compactMap({ $0 }).min() else { return nil }
        current = smallest
        currentRun = heads.firstIndex(of: smallest)!
        let index = currentRun
        let tile = try readers[index].next(advance: false) { SpillRecord.tile($0) }!
        return TileID(z: zoom, x: Int(tile.x), y: Int(tile.y))
    }

    /// Calls `body` with the current tile's next record; nil when the tile has no more.
    mutating func nextRecordOfTile(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void? {
        guard let current else { return nil }
        while currentRun < readers.count {
            if heads[currentRun] == current {
                try readers[currentRun].next { try body($0) }
                heads[currentRun] = try peek(currentRun)
                return ()
            }
            currentRun += 1
        }
        self.current = nil
        return nil
    }
}
