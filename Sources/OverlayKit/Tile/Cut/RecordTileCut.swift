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

    /// Cuts tile `id` from the records of `runs`, emits it, and writes each feature's pieces in
    /// its children to `children` (unless it is the max zoom, or solid: then its whole subtree
    /// is emitted as blocks).
    func cut(_ id: TileID, share: TileSampling.Share = .whole, runs: [RecordRun], children: inout ChildRecords, counts: inout [TileZoomCounts]) throws {
        let options = walk.options
        var accumulator = TileBuilder.Accumulator(tile: id, options: options, keepsPropertySources: false, defersAttributes: true)
        // Once the tile is heavy, it is held through its emit with no other heavy tile beside it.
        var heavy = false
        defer { if heavy { walk.heavyTiles.leave() } }
        let splitting = children.splits
        var solid: [ProjectedFeature]? = walk.findsSolidTiles && splitting && options.buffer > 0 ? [] : nil
        var solidAttributes = [Int: TileAttributes]()
        var leftoverAttributes = [Int: [UInt8]]()
        let childIDs = TileSplit.children(of: id)
        let placement = ChildPlacement(tile: id, options: options)
        for run in runs {
            try run.forEachRecord { record in
                let header = record.header
                guard header.type != nil else { return }
                var source = record.source
                var tags = record.tags
                var fixed: (source: Int, tags: FeatureTags)?
                if let fixup = run.fixup {
                    (source, tags) = fixup.apply(source: source, tags: tags)
                    fixed = (source, tags)
                }
                // Decoded only when drawn, checked for solidity or clipped.
                var decoded: (feature: ProjectedFeature, attributesAt: Int)?
                func feature() -> (feature: ProjectedFeature, attributesAt: Int) {
                    if let decoded { return decoded }
                    var (read, attributesAt) = record.feature()
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
                        let read = record.attributes(at: attributesAt, source: source)
                        attributes = read
                        return read
                    }, stored: record.attributeBytes(from: attributesAt))
                    if !heavy && accumulator.featureCount >= HeavyTileGate.features {
                        walk.heavyTiles.enter()
                        heavy = true
                    }
                    let candidates = accumulator.leftoverCandidates
                    if candidates.ring == source || candidates.line == source {
                        leftoverAttributes = leftoverAttributes.filter { $0.key == candidates.ring || $0.key == candidates.line }
                        leftoverAttributes[source] = Array(record.attributeBytes(from: attributesAt))
                    }
                }
                if solid != nil {
                    let (feature, attributesAt) = feature()
                    if SolidTile.isSolid([feature], tile: id, options: options) {
                        solid?.append(feature)
                        solidAttributes[source] = record.attributes(at: attributesAt, source: source)
                    } else {
                        solid = nil
                        solidAttributes = [:]
                    }
                }
                guard splitting else { return }
                if let untouched = placement.untouchedChildren(header.bounds) {
                    for child in 0..<4 where untouched[child] {
                        try children.appendCopy(record, child: child, tile: childIDs[child], fixed: fixed)
                    }
                    return
                }
                let (feature, attributesAt) = feature()
                let order = record.order
                let attributeBytes = record.attributeBytes(from: attributesAt)
                for (child, parts) in TileSplit.split([feature], tile: id, bounds: FeatureBounds(feature), options: options)
                    .enumerated() {
                    for part in parts {
                        try children.append(part, group: order.group, part: Int(order.part), anchor: record.anchor,
                                            child: child, tile: childIDs[child], attributes: attributeBytes)
                    }
                }
            }
        }
        let leftovers = leftoverAttributes
        let attributesOf = { (source: Int) -> TileAttributes in
            guard let bytes = leftovers[source] else { return TileAttributes(id: nil, properties: nil) }
            return bytes.withUnsafeBytes { StoredRecord.attributes($0, source: source) }
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
