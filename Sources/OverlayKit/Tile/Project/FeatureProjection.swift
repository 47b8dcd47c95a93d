import OverlayModel

/// Input features projected for tiling, one at a time, in input order: each feature's flat
/// buffers (`FeatureProjector`), its tags (the zooms its `tippecanoe` member and a `--where`
/// naming `$zoom` allow, and its layer), its id and properties as the tiles carry them, and what
/// the tile set's metadata says of the input (counts, extent, fields and geometry types per
/// layer, what MVT cannot hold), gathered while the features stream past.
///
/// The features go to memory (`projected`, `attributes`) or, with a disk store, to that store's
/// files, already copied across the antimeridian, with each feature's anchor for thinning.
/// Projections of consecutive parts of the input (read on several threads) join with `append`
/// into what one projection of the whole would be.
struct FeatureProjection {
    let options: TileOptions
    let projector: FeatureProjector
    /// `TileOptions.clipBox`'s clip, applied to each shape before it is projected.
    let clip: RectClip?
    var attributes = [TileAttributes]()
    var projected = [ProjectedFeature]()
    var counts = TileInputCounts()
    var longitudeExtent = LongitudeExtent()
    var layers = TileLayers()
    /// What the metadata says of each layer (by the layer's index in `layers`, the last entry
    /// for features of their input's layer), and what MVT cannot hold of the tiled features.
    var layerSummaries = [TileLayerSummary()]
    var losses = TileEncodingLosses()
    var uncoercible = [String: Int]()
    var filteredOut = 0
    /// `tippecanoe` minzoom/maxzoom values that are not numbers (ignored).
    var invalidZoomMembers = 0
    /// The names options name, and those of them some tiled feature has.
    let namedProperties: Set<String>
    var namesSeen = Set<String>()
    /// The extent of what went to disk (before wrapping); `projected`'s is measured at the end.
    var bounds = MapRect.null
    /// The disk store the features go to instead of `projected` and `attributes`, if any.
    let disk: DiskFeatureStore?
    /// Where the features go instead of memory: this projection's files in the disk store, or
    /// a distributed run's partitions (`TileJob`).
    private let sink: (any ProjectedFeatureSink)?
    /// The spacing of the lines' and polygons' vertices and what the features reach, measured
    /// on the way to disk (in memory they are measured on the wrapped features).
    var vertexSpacing = MaxZoomGuess.VertexSpacing()
    var reach = FeatureReach()
    /// With shared borders on disk: every polygon piece's vertices counted as it is written,
    /// for `SharedBorderCandidates` (in memory they are counted on the wrapped features; a
    /// distributed run's plan counts them from the shards' files).
    var sketch: SharedVertexSketch?
    private var scratch = [ProjectedFeature](), attributeBytes = [UInt8]()

    /// An empty projection writing its features to `sink` (a distributed run's partitions).
    init(options: TileOptions, sink: any ProjectedFeatureSink) {
        self.init(options: options, disk: nil, sink: sink)
    }

    /// An empty projection; with `diskFolder` the features go to a new disk store there.
    init(options: TileOptions, diskFolder: String? = nil) throws {
        if let diskFolder {
            let store = DiskFeatureStore(folder: diskFolder)
            self.init(options: options, disk: store, sink: try store.makePart())
        } else {
            self.init(options: options, disk: nil, sink: nil)
        }
    }

    private init(options: TileOptions, disk: DiskFeatureStore?, sink: (any ProjectedFeatureSink)?) {
        self.disk = disk
        self.sink = sink
        self.options = options
        namedProperties = options.namedProperties
        clip = options.clipMapRect.map { RectClip(rect: $0) }
        sketch = disk != nil && options.sharedBorders ? SharedVertexSketch() : nil
        let world = MapProjection.worldSize
        let tolerance = options.tolerance / (Double(1 << options.maxZoom) * Double(options.extent)) * world
        let circleTolerance = tolerance > 0 ? tolerance : world / (Double(1 << options.maxZoom) * Double(options.extent))
        projector = FeatureProjector(squaredTolerance: tolerance * tolerance, circleTolerance: circleTolerance,
                                     lineMetrics: options.lineMetrics)
    }

    /// The index of a layer's summary in `layerSummaries` (the last one for ``TileLayers/inputLayer``).
    private func summaryIndex(_ layer: UInt16) -> Int {
        layer == TileLayers.inputLayer ? layerSummaries.count - 1 : Int(layer)
    }

    /// Projects the next input feature.
    mutating func add(_ feature: Feature) throws {
        var feature = feature
        if let clip {
            // Before anything counts the feature: a GeoParquet reader told the box never hands
            // over the rows it skipped, so what lies outside must leave no trace (ids, positions,
            // fields, the --where count), whichever format the features came from.
            guard let shape = feature.shape, let inside = clip.clip(shape) else { return }
            // Drawn where the clip put each vertex (its copies one world over, its new vertices on 180°).
            feature.shape = FarLongitudes.placedAtMapPoints(inside)
        }
        let index = counts.features
        let id: JSONValue?
        if let key = options.promoteID {
            let value = feature.properties?[key]
            id = value == .null ? nil : value
        } else if options.generateID {
            id = .integer(Int64(index))
        } else {
            id = feature.id.map(JSONValue.init(featureID:))
        }
        var tags = FeatureTags()
        if let filter = options.featureFilter {
            // A filter naming $zoom keeps the feature at the zooms it holds at (none: left out).
            let zooms = filter.usesZoom ? try filter.zooms(feature, id: id, maxZoom: options.maxZoom) : nil
            if try zooms == 0 || (zooms == nil && !filter.matches(feature, id: id)) {
                filteredOut += 1  // not counted in `counts`: indices and generated ids number the tiled features
                return
            }
            if let zooms { tags.whereZooms = zooms }
        }
        counts.features += 1
        let member = FeatureVisibility.memberZooms(feature)
        tags.memberMinZoom = member.min
        tags.memberMaxZoom = member.max
        invalidZoomMembers += member.invalid
        tags.layer = layers.add(feature)
        if layerSummaries.count < layers.names.count + 1 {
            layerSummaries.insert(contentsOf: Array(repeating: TileLayerSummary(), count: layers.names.count + 1 - layerSummaries.count),
                                  at: layerSummaries.count - 1)
        }
        if !namedProperties.isEmpty, let properties = feature.properties {
            for member in properties where namedProperties.contains(member.key) { namesSeen.insert(member.key) }
        }
        // A KML style travels as simplestyle properties, so a map's style can draw its colors.
        let properties = SimpleStyle.properties(feature.properties, carrying: feature.style)
        let tileAttributes = TileAttributes(id: id, properties: options.tileProperties(properties, uncoercible: &uncoercible))
        scratch.removeAll(keepingCapacity: true)
        if let shape = feature.shape {
            if projector.project(shape, source: index, into: &scratch) == 0 { counts.withoutPositions += 1 }
            longitudeExtent.add(shape)
        } else {
            counts.withoutGeometry += 1
        }
        let summary = summaryIndex(tags.layer)
        layerSummaries[summary].add(tileAttributes.properties, type: scratch.first?.type, position: index)
        if !scratch.isEmpty { losses.count(tileAttributes) }
        for part in scratch.indices { scratch[part].tags = tags }
        if let sink {
            try write(tileAttributes, tags: tags, source: index, to: sink)
            return
        }
        attributes.append(tileAttributes)
        projected += scratch
    }

    /// `add`'s work when the features go to disk: every piece with the attributes, or one
    /// record of attributes alone for a feature with nothing to tile, and the feature's anchor.
    private mutating func write(_ tileAttributes: TileAttributes, tags: FeatureTags, source: Int,
                                to sink: any ProjectedFeatureSink) throws {
        attributeBytes.removeAll(keepingCapacity: true)
        StoredRecord.appendAttributes(tileAttributes, generatedID: options.generateID && options.promoteID == nil, to: &attributeBytes)
        let buffer = Double(options.buffer) / Double(options.extent)
        var pieces = AntimeridianWrap.Pieces(west: [], center: [], east: [])
        var polygonCounted = false
        for feature in scratch {
            bounds = bounds.union(feature.mapRect)
            reach.add(feature, countingArea: feature.type == .polygon && !polygonCounted)
            if feature.type == .polygon { polygonCounted = true }
            let copies = AntimeridianWrap.copies(of: feature, buffer: buffer)
            pieces.west += copies.west
            pieces.center += copies.center
            pieces.east += copies.east
        }
        for piece in pieces.west + pieces.center + pieces.east {
            if options.guessesZooms { vertexSpacing.add(piece) }  // only a guessed zoom reads it
            if sketch != nil && piece.type == .polygon {
                for ring in piece.rings { sketch?.addRing(piece.coordinates, start: ring.start, count: ring.count, stride: 3) }
            }
        }
        try sink.write(pieces, source: source, tags: tags, attributes: attributeBytes, anchor: Self.anchor(of: pieces))
    }

    /// A feature's anchor as `TileSource.anchors` picks it from the wrapped features: the first
    /// vertex of its first piece on the map (in the order west copies, feature, east copies),
    /// else of its first piece; whether every piece is a point.
    static func anchor(of pieces: AntimeridianWrap.Pieces) -> (key: UInt64, pointsOnly: Bool)? {
        let all = pieces.west + pieces.center + pieces.east
        let world = MapProjection.worldSize
        let candidates = all.filter { $0.coordinates.count >= 2 }
        guard let chosen = candidates.first(where: { (0..<world).contains($0.coordinates[0]) }) ?? candidates.first else {
            return nil
        }
        return (SpatialOrder.key(x: chosen.coordinates[0], y: chosen.coordinates[1]), !all.contains { $0.type != .point })
    }

    /// Appends the projection of the input that follows this one's (a later part of the same
    /// input, or the next input): its input positions (and generated ids) move past this one's
    /// and its layers join this one's.
    @discardableResult
    mutating func append(_ later: FeatureProjection) -> [UInt16] {
        let offset = counts.features
        let remap = layers.append(later.layers)
        // Summaries: the later layers' into this one's, in order; the input layer's into the input layer's.
        var summaries = layerSummaries
        for (laterIndex, summary) in later.layerSummaries.enumerated() {
            let laterLayer = laterIndex == later.layerSummaries.count - 1 ? TileLayers.inputLayer : UInt16(laterIndex)
            let mapped = laterLayer == TileLayers.inputLayer ? TileLayers.inputLayer : remap[Int(laterLayer)]
            if mapped != TileLayers.inputLayer && Int(mapped) >= summaries.count - 1 {
                summaries.insert(contentsOf: Array(repeating: TileLayerSummary(), count: Int(mapped) - summaries.count + 2),
                                 at: summaries.count - 1)
            }
            summaries[mapped == TileLayers.inputLayer ? summaries.count - 1 : Int(mapped)].merge(summary, positionOffset: offset)
        }
        layerSummaries = summaries
        if let disk, let laterDisk = later.disk {
            for part in laterDisk.parts {
                part.sourceOffset += offset
                part.remapLayers(remap)
            }
            disk.append(laterDisk)
        }
        bounds = bounds.union(later.bounds)
        attributes.reserveCapacity(attributes.count + later.attributes.count)
        if options.generateID && options.promoteID == nil {
            for (index, attribute) in later.attributes.enumerated() {
                attributes.append(TileAttributes(id: .integer(Int64(offset + index)), properties: attribute.properties))
            }
        } else {
            attributes += later.attributes
        }
        projected.reserveCapacity(projected.count + later.projected.count)
        for var feature in later.projected {
            feature.source += offset
            if feature.tags.layer != TileLayers.inputLayer { feature.tags.layer = remap[Int(feature.tags.layer)] }
            projected.append(feature)
        }
        counts.features += later.counts.features
        counts.withoutGeometry += later.counts.withoutGeometry
        counts.withoutPositions += later.counts.withoutPositions
        uncoercible.merge(later.uncoercible, uniquingKeysWith: +)
        filteredOut += later.filteredOut
        invalidZoomMembers += later.invalidZoomMembers
        namesSeen.formUnion(later.namesSeen)
        longitudeExtent.merge(later.longitudeExtent)
        losses += later.losses
        vertexSpacing.merge(later.vertexSpacing)
        reach.merge(later.reach)
        if let laterSketch = later.sketch { sketch?.merge(laterSketch) }
        return remap
    }

    /// Names the layer of the features read since the last call that go to their input's
    /// layer: `name` (the input's), registered before the input was read.
    @discardableResult
    mutating func assignInputLayer(_ name: String) -> UInt16 {
        let index = layers.assignInputLayer(name)
        if Int(index) >= layerSummaries.count - 1 {
            layerSummaries.insert(contentsOf: Array(repeating: TileLayerSummary(), count: Int(index) - layerSummaries.count + 2),
                                  at: layerSummaries.count - 1)
        }
        let pending = layerSummaries[layerSummaries.count - 1]
        layerSummaries[Int(index)].merge(pending, positionOffset: 0)
        layerSummaries[layerSummaries.count - 1] = TileLayerSummary()
        for position in projected.indices where projected[position].tags.layer == TileLayers.inputLayer {
            projected[position].tags.layer = index
        }
        for part in disk?.parts ?? [] where part.inputLayer == nil { part.inputLayer = index }
        return index
    }

    /// Drops the layers no feature went to and numbers the rest anew (features and summaries).
    @discardableResult
    mutating func removeUnusedLayers() -> [UInt16]? {
        let layerCount = layers.names.count
        guard let compaction = layers.removeUnused() else { return nil }
        var summaries = [TileLayerSummary](repeating: TileLayerSummary(), count: layers.names.count + 1)
        for (old, new) in compaction.enumerated() where new != TileLayers.inputLayer { summaries[Int(new)] = layerSummaries[old] }
        layerSummaries = summaries
        for position in projected.indices where Int(projected[position].tags.layer) < compaction.count {
            projected[position].tags.layer = compaction[Int(projected[position].tags.layer)]
        }
        for part in disk?.parts ?? [] { part.compactLayers(compaction, layerCount: layerCount) }
        return compaction
    }

    /// What a projection found of its input, without the features: what a distributed run's
    /// shards hand to its plan, which joins them as one projection of the whole input would.
    struct Summary: Codable {
        var counts: TileInputCounts
        var longitudeExtent: LongitudeExtent
        var layers: TileLayers
        var layerSummaries: [TileLayerSummary]
        var losses: TileEncodingLosses
        var uncoercible: [String: Int]
        var filteredOut: Int
        var invalidZoomMembers: Int
        var namesSeen: Set<String>
        var bounds: MapRect
        var vertexSpacing: MaxZoomGuess.VertexSpacing
        var reach: FeatureReach
    }

    /// This projection's summary.
    var summary: Summary {
        Summary(counts: counts, longitudeExtent: longitudeExtent, layers: layers, layerSummaries: layerSummaries, losses: losses,
                uncoercible: uncoercible, filteredOut: filteredOut, invalidZoomMembers: invalidZoomMembers, namesSeen: namesSeen,
                bounds: bounds, vertexSpacing: vertexSpacing, reach: reach)
    }

    /// A projection holding `summary` and no features (to join shards' summaries).
    init(options: TileOptions, summary: Summary) {
        self.init(options: options, disk: nil, sink: nil)
        counts = summary.counts
        longitudeExtent = summary.longitudeExtent
        layers = summary.layers
        layerSummaries = summary.layerSummaries
        losses = summary.losses
        uncoercible = summary.uncoercible
        filteredOut = summary.filteredOut
        invalidZoomMembers = summary.invalidZoomMembers
        namesSeen = summary.namesSeen
        bounds = summary.bounds
        vertexSpacing = summary.vertexSpacing
        reach = summary.reach
    }
}
