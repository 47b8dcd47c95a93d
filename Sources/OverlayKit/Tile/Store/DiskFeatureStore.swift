import OverlayModel

/// Projected features in temporary files instead of memory (tippecanoe's and planetiler's way):
/// each reading thread writes its features, already copied across the antimeridian, into three
/// files (west copies, the features, east copies: `AntimeridianWrap`'s order), and each
/// feature's anchor (its first vertex on the map, for thinning and zoom guesses) into a fourth.
/// Zoom 0 is those files read in order; `TilePyramid` cuts tiles from them, writing each large
/// tile's children to new files and cutting small subtrees in memory.
///
/// Memory holds one byte per feature (the zoom thinning first shows it at) and the files'
/// buffers, whatever the input's size. The files have no name from the moment they are made
/// (`RecordFile`), so nothing is ever left behind.
final class DiskFeatureStore: @unchecked Sendable {
    /// Where the files are made.
    let folder: String
    /// What the files hold now and at most.
    let usage = RecordFileUsage()
    /// What each reading thread wrote, in input order.
    private(set) var parts = [Part]()
    /// By input position, the first zoom point thinning shows each feature at (empty: every zoom).
    var thinnedMinZooms = [UInt8]()
    /// By input position, `FeatureTags.sharedBordersThrough` (empty: 0, shared borders off).
    var sharedBordersThrough = [UInt8]()
    /// The anchors sorted on disk, made the first time they are asked for.
    private var sortedAnchors: SortedAnchors?

    /// An empty store writing into `folder`.
    init(folder: String) {
        self.folder = folder
    }

    /// Bytes of the first level's files.
    var bytes: Int { parts.reduce(0) { $0 + $1.groups.reduce(0) { $0 + $1.size } } }

    /// Takes `later`'s parts (the next input, or the next part of this one).
    func append(_ later: DiskFeatureStore) {
        for part in later.parts { part.count(in: usage) }
        parts += later.parts
    }

    /// Starts a part for one reading thread.
    func makePart() throws -> Part {
        let part = try Part(folder: folder, usage: usage)
        parts.append(part)
        return part
    }

    /// Zoom 0: every part's west copies, then every part's features, then every part's east
    /// copies, each file with what its records still need (input positions, layers, thinning).
    func firstLevel() -> [RecordRun] {
        let thinned = thinnedMinZooms, shared = sharedBordersThrough
        return (0..<3).flatMap { group in
            parts.map { part in
                RecordRun(file: part.groups[group], fixup: RecordRun.Fixup(sourceOffset: part.sourceOffset,
                                                                           layerMap: part.layerMap,
                                                                           inputLayer: part.inputLayer ?? 0,
                                                                           thinned: thinned, shared: shared))
            }
        }
    }

    /// Calls `body` with every piece of every feature in zoom 0's files (west copies, features,
    /// east copies), with its input position; nothing else is decoded.
    func forEachPiece(_ body: (ProjectedFeature) throws -> Void) throws {
        for group in 0..<3 {
            for part in parts {
                var reader = try RecordReader(part.groups[group])
                while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                    guard FeatureRecord.header(bytes).type != nil, var feature = FeatureRecord.feature(bytes).feature else { return }
                    feature.source += part.sourceOffset
                    try body(feature)
                }) != nil {}
            }
        }
    }

    /// The anchor files with the offset of their input positions.
    var anchorFiles: [(file: RecordFile, sourceOffset: Int)] { parts.map { ($0.anchors, $0.sourceOffset) } }

    /// One reading thread's files. Input positions in them count from the part's start and
    /// layers are the part's own until the whole input is read (`sourceOffset`, `layerMap`).
    final class Part: ProjectedFeatureSink, @unchecked Sendable {
        /// West copies, features, east copies.
        let groups: [RecordFile]
        /// 16-byte anchors: the key (`SpatialOrder.key`), then the input position with the top
        /// bit set when some part of the feature is not a point.
        let anchors: RecordFile
        /// Added to the input positions written.
        var sourceOffset = 0
        /// The part's layer indices in the run's (nil: the same); ``TileLayers/inputLayer`` marks
        /// features of their input's layer, ``inputLayer`` once it is named.
        var layerMap: [UInt16]?
        var inputLayer: UInt16?
        private var record = [UInt8]()
        private var anchorBytes = [UInt8]()

        init(folder: String, usage: RecordFileUsage) throws {
            groups = try (0..<3).map { _ in try RecordFile(in: folder, usage: usage) }
            anchors = try RecordFile(in: folder, usage: usage)
        }

        func count(in usage: RecordFileUsage) {
            for file in groups + [anchors] { file.count(in: usage) }
        }

        /// Writes one input feature: its pieces by group (each numbered in the feature's order),
        /// or one record of attributes alone when it has nothing to tile; and its anchor.
        func write(_ pieces: AntimeridianWrap.Pieces, source: Int, tags: FeatureTags, attributes: [UInt8],
                   anchor: (key: UInt64, pointsOnly: Bool)?) throws {
            var part = 0
            for (group, features) in [pieces.west, pieces.center, pieces.east].enumerated() {
                for feature in features {
                    record.removeAll(keepingCapacity: true)
                    FeatureRecord.append(feature, source: source, tags: tags, group: UInt8(group), part: part,
                                         anchor: anchor?.key ?? 0, tile: (0, 0), attributes: attributes, to: &record)
                    try groups[group].append(record)
                    part += 1
                }
            }
            if part == 0 {
                record.removeAll(keepingCapacity: true)
                FeatureRecord.append(nil, source: source, tags: tags, group: 1, part: 0, tile: (0, 0),
                                     attributes: attributes, to: &record)
                try groups[1].append(record)
            }
            if let anchor {
                anchorBytes.removeAll(keepingCapacity: true)
                withUnsafeBytes(of: anchor.key.littleEndian) { anchorBytes.append(contentsOf: $0) }
                let marked = UInt64(source) | (anchor.pointsOnly ? 0 : 1 << 63)
                withUnsafeBytes(of: marked.littleEndian) { anchorBytes.append(contentsOf: $0) }
                try anchors.append(anchorBytes)
            }
        }

        /// Maps the part's layers through `remap` (joining it to an earlier part or input).
        func remapLayers(_ remap: [UInt16]) {
            guard !remap.isEmpty else { return }
            layerMap = (layerMap ?? (0..<remap.count).map(UInt16.init)).map { $0 == TileLayers.inputLayer || Int($0) >= remap.count ? $0 : remap[Int($0)] }
        }

        /// Maps the run's layers through `compaction` (layers no feature went to were dropped).
        func compactLayers(_ compaction: [UInt16], layerCount: Int) {
            let map = layerMap ?? (0..<layerCount).map(UInt16.init)
            layerMap = map.map { $0 == TileLayers.inputLayer || Int($0) >= compaction.count ? $0 : compaction[Int($0)] }
            if let input = inputLayer, Int(input) < compaction.count { inputLayer = compaction[Int(input)] }
        }
    }
}

/// One file of records in the run's order, and what its records still need before they are
/// cut: the offset of their input positions and their final layers and thinned zooms (known
/// only once the whole input is read; applied as zoom 0 is read, so deeper levels' records
/// carry them).
struct RecordRun: @unchecked Sendable {
    /// The records.
    let file: RecordFile
    /// What zoom 0's records still need; nil for records written by the pyramid.
    let fixup: Fixup?

    /// A run of records that need nothing more.
    init(file: RecordFile) {
        self.file = file
        fixup = nil
    }

    init(file: RecordFile, fixup: Fixup) {
        self.file = file
        self.fixup = fixup
    }

    /// The input-position offset, layer map and thinning of one part's records.
    struct Fixup: @unchecked Sendable {
        var sourceOffset: Int
        var layerMap: [UInt16]?
        var inputLayer: UInt16
        /// By input position, the first zoom thinning shows a point at (empty: none thinned).
        var thinned: [UInt8]
        /// `FeatureTags.sharedBordersThrough` by input position (empty: none).
        var shared: [UInt8] = []
        /// The same for a partition of a distributed run: only its points and its neighbours'.
        var thinnedByPosition: [Int: UInt8]? = nil

        /// This fixup with a partition's thinning.
        func thinning(_ zooms: [Int: UInt8]) -> Fixup {
            var copy = self
            copy.thinnedByPosition = zooms
            return copy
        }

        /// The record's input position and tags as the run knows them.
        @inline(__always)
        func apply(source: Int, tags: FeatureTags) -> (source: Int, tags: FeatureTags) {
            var tags = tags
            let position = source + sourceOffset
            if tags.layer == TileLayers.inputLayer {
                tags.layer = inputLayer
            } else if let layerMap, Int(tags.layer) < layerMap.count {
                let mapped = layerMap[Int(tags.layer)]
                tags.layer = mapped == TileLayers.inputLayer ? inputLayer : mapped
            }
            if position < thinned.count { tags.thinnedMinZoom = thinned[position] }
            if let zoom = thinnedByPosition?[position] { tags.thinnedMinZoom = zoom }
            if position < shared.count { tags.sharedBordersThrough = shared[position] }
            return (position, tags)
        }
    }
}

extension DiskFeatureStore: ProjectedFeatureStore {
    /// Merged from sorted runs on disk (`SortedAnchors`, made once): memory bounded whatever the
    /// input's size.
    func forEachAnchor(_ body: (FeatureAnchor) throws -> Void) throws {
        let sorted = try sortedAnchors ?? SortedAnchors(anchorFiles, folder: folder, usage: usage)
        sortedAnchors = sorted
        try sorted.forEach(body)
    }

    func thinPoints(with walker: PointThinning.Walker?, featureCount: Int) throws {
        thinnedMinZooms = try thinnedZooms(with: walker, featureCount: featureCount)
    }

    func setSharedBordersThrough(_ tags: [UInt8]) { sharedBordersThrough = tags }

    var zoomZero: ZoomZeroFeatures { .records(firstLevel(), folder: folder, usage: usage) }

    var temporaryFiles: (folder: String, bytes: Int, usage: RecordFileUsage)? { (folder, bytes, usage) }
}
