import OverlayModel

/// Cuts one tile while its records are read (a tile too big to hold): the tile is built feature
/// by feature, and each feature's pieces in the four children are written to the children's
/// files. A feature inside a child's buffered square is copied to it as its record bytes,
/// without being decoded (`ChildPlacement`); a feature hidden at the zoom is counted from the
/// record's header alone; only features that straddle a clip line are decoded and clipped.
///
/// The tile and its children's records are the same as cutting the tile's features in memory
/// gives: records arrive in the run's order, and clipping each feature on its own gives what
/// clipping them together does.
struct RecordTileCut {
    let walk: TilePyramid.Walk

    /// The four children's records, in memory, or flushed to the next level's files as they grow;
    /// a solid tile takes them all back.
    struct Children {
        /// The children's files in `TileSplit.children(of:)`'s order; nil at the max zoom.
        let files: [RecordFile]?
        private var buffers: [[UInt8]] = [[], [], [], []]
        private let marks: [Int]
        private static let flushBytes = 4 << 20

        init(files: [RecordFile]?) {
            self.files = files
            marks = files?.map(\.size) ?? []
        }

        mutating func append(_ feature: ProjectedFeature, group: UInt8, part: Int, anchor: UInt64, child: Int, tile: TileID,
                             attributes: UnsafeRawBufferPointer) throws {
            FeatureRecord.append(feature, source: feature.source, tags: feature.tags, group: group, part: part, anchor: anchor,
                                 tile: (UInt32(tile.x), UInt32(tile.y)), attributes: attributes, to: &buffers[child])
            try flushIfFull(child)
        }

        /// Appends a copy of a whole record, filed under the child (with the run's input position
        /// and tags when they differ from the record's).
        mutating func appendCopy(_ record: UnsafeRawBufferPointer, child: Int, tile: TileID,
                                 fixed: (source: Int, tags: FeatureTags)?) throws {
            FeatureRecord.appendCopy(record, tile: (UInt32(tile.x), UInt32(tile.y)), fixed: fixed, to: &buffers[child])
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

        /// Writes what is buffered.
        mutating func finish() throws {
            guard let files else { return }
            for (file, bytes) in zip(files, buffers) where !bytes.isEmpty { try file.append(bytes) }
            buffers = [[], [], [], []]
            for file in files { try file.flush() }
        }
    }

    /// Cuts tile `id` from the records of `runs`, emits it, and writes each feature's pieces in
    /// its children to `children` (unless it is the max zoom, or solid: then its whole subtree
    /// is emitted as blocks).
    func cut(_ id: TileID, share: TileSampling.Share = .whole, runs: [RecordRun], children: inout Children, counts: inout [TileZoomCounts]) throws {
        let options = walk.options
        var accumulator = TileBuilder.Accumulator(tile: id, options: options, keepsPropertySources: false, defersAttributes: true)
        // Once the tile is heavy, it is held through its emit with no other heavy tile beside it.
        var heavy = false
        defer { if heavy { walk.heavyTiles.leave() } }
        let splitting = children.files != nil
        var solid: [ProjectedFeature]? = walk.findsSolidTiles && splitting && options.buffer > 0 ? [] : nil
        var solidAttributes = [Int: TileAttributes]()
        var leftoverAttributes = [Int: [UInt8]]()
        let childIDs = TileSplit.children(of: id)
        let placement = ChildPlacement(tile: id, options: options)
        for run in runs {
            var reader = try RecordReader(run.file)
            while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                let header = FeatureRecord.header(bytes)
                guard header.type != nil else { return }
                var source = FeatureRecord.source(bytes)
                var tags = FeatureRecord.tags(bytes)
                var fixed: (source: Int, tags: FeatureTags)?
                if let fixup = run.fixup {
                    (source, tags) = fixup.apply(source: source, tags: tags)
                    fixed = (source, tags)
                }
                // Decoded only when drawn, checked for solidity or clipped.
                var decoded: (feature: ProjectedFeature, attributesAt: Int)?
                func feature() -> (feature: ProjectedFeature, attributesAt: Int) {
                    if let decoded { return decoded }
                    var (read, attributesAt) = FeatureRecord.feature(bytes)
                    read!.source = source
                    read!.tags = tags
                    decoded = (read!, attributesAt)
                    return decoded!
                }
                if !accumulator.addIfHidden(tags: tags, featureBounds: header.bounds) {
                    let (feature, attributesAt) = feature()
                    var attributes: TileAttributes?
                    accumulator.add(feature, attributes: { _ in
                        if let attributes { return attributes }
                        let read = AttributeCodec.attributes(bytes, at: attributesAt, source: source)
                        attributes = read
                        return read
                    }, stored: UnsafeRawBufferPointer(rebasing: bytes[attributesAt...]))
                    if !heavy && accumulator.featureCount >= HeavyTileGate.features {
                        walk.heavyTiles.enter()
                        heavy = true
                    }
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
                    for child in 0..<4 where untouched[child] {
                        try children.appendCopy(bytes, child: child, tile: childIDs[child], fixed: fixed)
                    }
                    return
                }
                let (feature, attributesAt) = feature()
                let order = FeatureRecord.order(bytes)
                let attributeBytes = UnsafeRawBufferPointer(rebasing: bytes[attributesAt...])
                for (child, parts) in TileSplit.split([feature], tile: id, bounds: FeatureBounds(feature), options: options)
                    .enumerated() {
                    for part in parts {
                        try children.append(part, group: order.group, part: Int(order.part), anchor: FeatureRecord.anchor(bytes),
                                            child: child, tile: childIDs[child], attributes: attributeBytes)
                    }
                }
            }) != nil {}
        }
        let leftovers = leftoverAttributes
        let attributesOf = { (source: Int) -> TileAttributes in
            guard let bytes = leftovers[source] else { return TileAttributes(id: nil, properties: nil) }
            return bytes.withUnsafeBytes { AttributeCodec.attributes($0, at: 0, source: source) }
        }
        var (tile, bounds) = accumulator.finish(attributes: attributesOf, propertyTable: nil)
        let cutter = TileCutter(options: options, propertyTable: nil,
                                attributes: { solidAttributes[$0] ?? TileAttributes(id: nil, properties: nil) })
        cutter.cluster(&tile)
        if id.z >= walk.minZoom { try walk.emitCounted(&tile, share: share, counts: &counts) }
        if let solid, !solid.isEmpty {
            try children.discard()
            try walk.visitSolid(solid, id, share: share, bounds: bounds, cutter: cutter, counts: &counts)
        }
    }
}
