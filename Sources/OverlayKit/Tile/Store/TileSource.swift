import OverlayModel

/// Features prepared once for tiling: projected into flat buffers with importance, wrapped
/// across the antimeridian, with ids and properties in a table the tiles share.
///
/// In memory the flat buffers keep every feature to three doubles per vertex plus the attribute
/// table; with a spill folder the buffers and attributes go to temporary files instead
/// (`spilled`) and memory holds a few bytes per feature.
public struct TileSource: Sendable {
    /// What the input held that cannot be tiled, so nothing disappears unexplained.
    public struct InputCounts: Hashable, Sendable {
        /// Features read.
        public var features = 0
        /// Features with a null geometry.
        public var withoutGeometry = 0
        /// Features whose geometry has no positions.
        public var withoutPositions = 0
    }

    /// The options the source was projected with (a guessed max zoom may lower it).
    public private(set) var options: TileOptions
    /// Which zooms each input feature is drawn at (its `tippecanoe` member, point thinning).
    package private(set) var visibility: FeatureVisibility
    /// Which layer each input feature goes to.
    package private(set) var layers: TileLayers

    /// With ``TileOptions/sharedBorders``: the features whose polygons tiles hold back to keep
    /// borders shared (found from every polygon of the input once it is read).
    private(set) var sharedBorderCandidates: SharedBorderCandidates?

    /// The layer of the input feature at a position, as a function the tile cutters take.
    var layerOf: @Sendable (Int) -> Int {
        let layers = layers
        return { layers.layer(of: $0) }
    }
    /// Id and properties of every input feature, by input position.
    public let attributes: [TileAttributes]
    /// Every feature's properties encoded for MVT once, shared by the tiles.
    let propertyTable: MVTPropertyTable
    /// The projected, wrapped features (a geometry collection gives several); empty when they
    /// are in `spilled`.
    package private(set) var features: [ProjectedFeature]
    /// The features and attributes in temporary files instead (`ExternalPyramid` tiles them),
    /// or nil when they are in memory.
    let spilled: SpilledFeatures?
    /// How many input features had which kind of geometry, or none.
    public let inputCounts: InputCounts
    /// The input's extent in map points (`MapRect.null` when empty), before wrapping.
    public let boundingMapRect: MapRect
    /// West and east in degrees, the antimeridian decided from the geometry (as `info` does).
    package let longitudeExtent: LongitudeExtent
    /// Per property name, the values ``TileOptions/attributeTypes`` could not coerce and left out.
    public let uncoercibleValues: [String: Int]
    /// Features read that ``TileOptions/featureFilter`` left out (not in ``inputCounts``).
    public let featuresFilteredOut: Int
    /// Property names given to ``TileOptions/attributes`` or ``TileOptions/attributeTypes`` that no
    /// tiled feature has, sorted.
    public let unmatchedPropertyNames: [String]

    /// Projects `input` (all of it in memory already).
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options.
    public init(features input: [Feature], options: TileOptions) throws {
        var projection = try Projection(options: options)
        for feature in input { try projection.add(feature) }
        try self.init(projection)
    }

    /// Projects every feature `reader` yields, one at a time: the features themselves are not
    /// kept, only their flat projected buffers and attributes. Warnings the reader finds go to
    /// `onWarning` as they appear.
    ///
    /// With `readThreads` above 1, a GeoJSON text sequence read from a regular file (and not
    /// begun) is cut at record boundaries and each part is parsed and projected on a thread of
    /// its own; features, ids, properties, warnings and the first
    /// error come out exactly as one thread would give them. `reader` is then left unread.
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options; the reader's errors.
    public init(reading reader: inout some FeatureReader, options: TileOptions, readThreads: Int = 1,
                onWarning: (Diagnostic) -> Void = { _ in }) throws {
        try self.init(reading: &reader, options: options, readThreads: readThreads,
                      minimumPartBytes: ParallelSequenceProjection.minimumPartBytes, onWarning: onWarning)
    }

    /// The one-reader `init(reading:options:readThreads:onWarning:)`, with the smallest part a thread gets
    /// (tests cut small files into many parts).
    package init(reading reader: inout some FeatureReader, options: TileOptions, readThreads: Int,
                 minimumPartBytes: Int, spillFolder: String? = nil, onWarning: (Diagnostic) -> Void) throws {
        let (projection, table) = try Self.project(&reader, options: options, readThreads: readThreads,
                                                   minimumPartBytes: minimumPartBytes, spillFolder: spillFolder,
                                                   onWarning: onWarning)
        try self.init(projection, propertyTable: table)
    }

    /// Projects several inputs one after another, as one input would be (input positions and
    /// generated ids run on from one input to the next), each feature going to the layer of its
    /// input unless its `tippecanoe` member names another.
    ///
    /// With a `spillFolder`, the projected features and their attributes go to temporary files
    /// there (unlinked at once: nothing is left behind on any exit) and memory holds a few
    /// bytes per feature; `TilePyramid.build` then reads them back zoom by zoom.
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options; the readers' errors;
    ///   `io.*` when the temporary files cannot be written.
    public init(reading inputs: inout [TileInput], options: TileOptions, readThreads: Int = 1,
                spillFolder: String? = nil, onWarning: (Diagnostic) -> Void = { _ in }) throws {
        var merged = try Projection(options: options, spillFolder: spillFolder)
        var table: MVTPropertyTable?
        for index in inputs.indices {
            let start = merged.counts.features
            merged.layers.register(inputs[index].layer)
            let (projection, partTable) = try Self.project(&inputs[index].reader, options: options, readThreads: readThreads,
                                                           minimumPartBytes: ParallelSequenceProjection.minimumPartBytes,
                                                           spillFolder: spillFolder, onWarning: onWarning)
            merged.append(projection)
            merged.layers.assignInputLayer(inputs[index].layer, from: start)
            // A table built in parts holds one input's features: with several it is built again.
            table = inputs.count == 1 ? partTable : nil
        }
        merged.layers.removeUnused()
        try self.init(merged, propertyTable: table)
    }

    /// Reads and projects every feature of `reader`, in parts on `readThreads` threads when it is
    /// a GeoJSON text sequence file not begun (then with the property table built in parts too).
    private static func project(_ reader: inout some FeatureReader, options: TileOptions, readThreads: Int,
                                minimumPartBytes: Int, spillFolder: String?,
                                onWarning: (Diagnostic) -> Void) throws -> (Projection, MVTPropertyTable?) {
        if readThreads > 1, let sequence = reader as? GeoJSONReader, let file = sequence.unreadFile,
           let size = file.expectedSize {
            try options.validate()
            let parts = try SequenceRecordBoundaries.ranges(of: file, size: size, parts: readThreads,
                                                            minimumBytes: minimumPartBytes)
            if parts.count > 1 {
                let (projection, table) = try ParallelSequenceProjection.project(file, parts: parts, options: options,
                                                                                 spillFolder: spillFolder, onWarning: onWarning)
                return (projection, table)
            }
        }
        var projection = try Projection(options: options, spillFolder: spillFolder)
        while let feature = try reader.next() {
            reader.takeWarnings().forEach(onWarning)
            if let warning = PolarLatitudes.warning(for: feature) { onWarning(warning) }
            try projection.add(feature)
        }
        reader.takeWarnings().forEach(onWarning)
        return (projection, nil)
    }

    /// `propertyTable` when already built from the projection's attributes (in parts, on their threads).
    init(_ projection: Projection, propertyTable table: MVTPropertyTable? = nil) throws {
        options = projection.options
        attributes = projection.attributes
        propertyTable = table ?? MVTPropertyTable(projection.attributes)
        inputCounts = projection.counts
        var bounds = projection.bounds
        for feature in projection.projected { bounds = bounds.union(feature.mapRect) }
        boundingMapRect = bounds
        longitudeExtent = projection.longitudeExtent
        visibility = projection.visibility
        layers = projection.layers
        uncoercibleValues = projection.uncoercible
        featuresFilteredOut = projection.filteredOut
        unmatchedPropertyNames = projection.namedProperties.subtracting(projection.namesSeen).sorted()
        let buffer = Double(options.buffer) / Double(options.extent)
        spilled = projection.spilled
        let sketch = projection.sketch
        var candidates = sketch.map { _ in SharedBorderCandidates(featureCount: projection.counts.features, options: projection.options) }
        if let spilled {
            features = []
            try spilled.prepareFirstLevel(featureCount: inputCounts.features, buffer: buffer) { feature in
                if let sketch { candidates?.add(feature, sketch: sketch) }
            }
        } else {
            if let sketch {
                for feature in projection.projected { candidates?.add(feature, sketch: sketch) }
            }
            features = AntimeridianWrap.wrap(projection.projected, buffer: buffer)
        }
        candidates?.finish()
        sharedBorderCandidates = candidates
        thinPoints()
    }

    /// Each feature's anchor (its first vertex on the map), by input position, for the features
    /// whose parts are all points (`pointsOnly`) or for all.
    func anchors(pointsOnly: Bool) -> SpatialOrder {
        let count = inputCounts.features
        if let spilled {
            var entries = [SpatialOrder.Entry]()
            entries.reserveCapacity(count)
            for source in 0..<count where !(pointsOnly && spilled.notPoint[source]) && spilled.anchorRank[source] != .max {
                entries.append(SpatialOrder.Entry(key: spilled.anchorKeys[source], source: source))
            }
            return SpatialOrder(keyed: entries)
        }
        var x = [Double](repeating: .nan, count: count), y = [Double](repeating: .nan, count: count)
        var excluded = [Bool](repeating: false, count: count)
        let world = MapProjection.worldSize
        for feature in features {
            if pointsOnly && feature.type != .point { excluded[feature.source] = true }
            guard feature.coordinates.count >= 2 else { continue }
            let first = feature.coordinates[0]
            // A wrapped copy lies off the map: the one on it wins.
            if x[feature.source].isNaN || (!(0..<world).contains(x[feature.source]) && (0..<world).contains(first)) {
                x[feature.source] = first
                y[feature.source] = feature.coordinates[1]
            }
        }
        var entries = [(source: Int, x: Double, y: Double)]()
        for source in 0..<count where !excluded[source] && !x[source].isNaN { entries.append((source, x[source], y[source])) }
        return SpatialOrder(entries)
    }

    /// Calls `body` once per input feature, in input order, with the geometry type of its first
    /// part (nil when it has nothing to tile) and its id and properties — from memory or read
    /// back from the spilled files.
    func forEachInputFeature(_ body: (_ position: Int, _ type: TileGeometryType?, _ attributes: TileAttributes) -> Void) throws {
        if let spilled {
            var previous = -1
            try spilled.forEachInputRecord { feature, source, bytes, attributesAt in
                guard source != previous else { return }
                previous = source
                body(source, feature?.type, AttributeCodec.attributes(bytes, at: attributesAt, source: source))
            }
            return
        }
        var types = [TileGeometryType?](repeating: nil, count: attributes.count)
        for feature in features where types[feature.source] == nil { types[feature.source] = feature.type }
        for (position, attributes) in attributes.enumerated() { body(position, types[position], attributes) }
    }

    /// The spacing of the lines' and polygons' vertices, for `MaxZoomGuess`.
    var vertexSpacing: MaxZoomGuess.VertexSpacing {
        if let spilled { return spilled.vertexSpacing }
        var spacing = MaxZoomGuess.VertexSpacing()
        for feature in features { spacing.add(feature) }
        return spacing
    }

    /// The first zoom thinning shows each point at (nothing to do at rate 1).
    private mutating func thinPoints() {
        // Clustering stands for every point in its cluster's count: nothing is thinned away.
        guard options.pointDropRate > 1, options.resolvedBaseZoom > 0, options.clusterDistance == 0 else {
            visibility.thinnedMinZooms = []
            return
        }
        visibility.thinnedMinZooms = PointThinning.minZooms(anchors(pointsOnly: true), featureCount: inputCounts.features,
                                                            rate: options.pointDropRate, baseZoom: options.resolvedBaseZoom,
                                                            maxZoom: options.maxZoom)
    }

    /// Every `every`-th input feature (all its parts), with everything else shared: the same
    /// attributes, property table and visibility (thinning decided on the whole input).
    func sample(every: Int) -> TileSource {
        var copy = self
        copy.features = features.filter { $0.source % every == 0 }
        return copy
    }

    /// Tiles to `maxZoom` (at most the zoom the source was projected for) with every point from
    /// `baseZoom` down, for zooms and base zooms guessed from the data once it is read.
    package mutating func setMaxZoom(_ maxZoom: Int, baseZoom: Int?) {
        options.maxZoom = min(maxZoom, options.maxZoom)
        options.baseZoom = baseZoom.map { min($0, options.maxZoom) }
        thinPoints()
    }

    /// The features projected so far, in input order.
    struct Projection {
        let options: TileOptions
        let projector: FeatureProjector
        var attributes = [TileAttributes]()
        var projected = [ProjectedFeature]()
        var counts = InputCounts()
        var longitudeExtent = LongitudeExtent()
        var visibility = FeatureVisibility()
        var layers = TileLayers()
        var uncoercible = [String: Int]()
        var filteredOut = 0
        /// The names options name, and those of them some tiled feature has.
        let namedProperties: Set<String>
        var namesSeen = Set<String>()
        /// The spilled features' extent (before wrapping); `projected`'s is measured at the end.
        var bounds = MapRect.null
        /// Where the features and attributes go instead of `projected` and `attributes`, if anywhere.
        let spilled: SpilledFeatures?
        /// With ``TileOptions/sharedBorders``: every polygon vertex counted, for `SharedBorderCandidates`.
        var sketch: SharedVertexSketch?
        private let spillFile: SpillFile?
        private var scratch = [ProjectedFeature](), record = [UInt8](), attributeBytes = [UInt8]()

        init(options: TileOptions, spillFolder: String? = nil) throws {
            try options.validate()
            self.options = options
            if let spillFolder {
                let store = SpilledFeatures(folder: spillFolder), file = try SpillFile(in: spillFolder, usage: store.usage)
                store.add(file, firstSource: 0)
                spilled = store
                spillFile = file
            } else {
                spilled = nil
                spillFile = nil
            }
            namedProperties = options.namedProperties
            sketch = options.sharedBorders ? SharedVertexSketch() : nil
            let world = MapProjection.worldSize
            let tolerance = options.tolerance / (Double(1 << options.maxZoom) * Double(options.extent)) * world
            let circleTolerance = tolerance > 0 ? tolerance : world / (Double(1 << options.maxZoom) * Double(options.extent))
            projector = FeatureProjector(squaredTolerance: tolerance * tolerance, circleTolerance: circleTolerance,
                                         lineMetrics: options.lineMetrics)
        }

        mutating func add(_ feature: Feature) throws {
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
            var whereZooms: UInt32?
            if let filter = options.featureFilter {
                // A filter naming $zoom keeps the feature at the zooms it holds at (none: left out).
                let zooms = filter.usesZoom ? filter.zooms(feature, id: id, maxZoom: options.maxZoom) : nil
                if zooms == 0 || (zooms == nil && !filter.matches(feature, id: id)) {
                    filteredOut += 1  // not counted in `counts`: indices and generated ids number the tiled features
                    return
                }
                whereZooms = zooms
            }
            counts.features += 1
            visibility.add(feature, whereZooms: whereZooms)
            layers.add(feature)
            if !namedProperties.isEmpty, let properties = feature.properties {
                for member in properties where namedProperties.contains(member.key) { namesSeen.insert(member.key) }
            }
            let tileAttributes = TileAttributes(id: id, properties: options.tileProperties(feature.properties,
                                                                                            uncoercible: &uncoercible))
            if let spillFile {
                try spill(feature.shape, attributes: tileAttributes, source: index, to: spillFile)
                return
            }
            attributes.append(tileAttributes)
            guard let shape = feature.shape else {
                counts.withoutGeometry += 1
                return
            }
            let before = projected.count
            if projector.project(shape, source: index, into: &projected) == 0 { counts.withoutPositions += 1 }
            longitudeExtent.add(shape)
            if sketch != nil { for part in projected[before...] { count(part) } }
        }

        /// Counts a polygon's vertices in the sketch.
        private mutating func count(_ part: ProjectedFeature) {
            guard part.type == .polygon else { return }
            for ring in part.rings { sketch?.addRing(part.coordinates, start: ring.start, count: ring.count, stride: 3) }
        }

        /// `add`'s work when the features go to a file: each part a record with the
        /// attributes, or one record of attributes alone for a feature with nothing to tile.
        private mutating func spill(_ shape: Shape?, attributes: TileAttributes, source: Int, to file: SpillFile) throws {
            attributeBytes.removeAll(keepingCapacity: true)
            AttributeCodec.append(attributes, generatedID: options.generateID && options.promoteID == nil, to: &attributeBytes)
            record.removeAll(keepingCapacity: true)
            scratch.removeAll(keepingCapacity: true)
            if let shape {
                if projector.project(shape, source: source, into: &scratch) == 0 { counts.withoutPositions += 1 }
                longitudeExtent.add(shape)
            } else {
                counts.withoutGeometry += 1
            }
            for part in scratch {
                if sketch != nil { count(part) }
                bounds = bounds.union(part.mapRect)
                SpillRecord.append(part, source: source, tile: (0, 0), attributes: attributeBytes, to: &record)
            }
            if scratch.isEmpty { SpillRecord.append(nil, source: source, tile: (0, 0), attributes: attributeBytes, to: &record) }
            try file.append(record)
        }

        /// Appends the features of `later`, projected with the same options from the input that
        /// follows this one's: its source indices (and generated ids) move past this one's.
        mutating func append(_ later: Projection) {
            let offset = counts.features
            guard offset > 0 else {
                let filtered = filteredOut  // features this part's filter left out are all it may hold
                var registered = layers  // layer names made before any feature
                self = later  // the first part: nothing moves, and nothing is copied
                filteredOut += filtered
                registered.append(later.layers)
                layers = registered
                return
            }
            spilled?.append(later.spilled!, offset: offset)
            if let laterSketch = later.sketch { sketch?.merge(laterSketch) }
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
                projected.append(feature)
            }
            counts.features += later.counts.features
            counts.withoutGeometry += later.counts.withoutGeometry
            counts.withoutPositions += later.counts.withoutPositions
            uncoercible.merge(later.uncoercible, uniquingKeysWith: +)
            filteredOut += later.filteredOut
            namesSeen.formUnion(later.namesSeen)
            longitudeExtent.merge(later.longitudeExtent)
            visibility.append(later.visibility)
            layers.append(later.layers)
        }
    }

    /// Clips a tile's features into its four children with the buffer (geojson-vt's split):
    /// x first, then y, each with `AxisClip`. Returns top-left, bottom-left, top-right,
    /// bottom-right; empty where nothing reaches a child.
    static func split(_ features: [ProjectedFeature], tile: TileID, bounds: TileBuilder.Bounds,
                      options: TileOptions) -> [[ProjectedFeature]] {
        let lines = ChildPlacement(tile: tile, options: options)
        let left = AxisClip.clip(features, lines.left.0, lines.left.1, axis: 0, minAll: bounds.minX, maxAll: bounds.maxX)
        let right = AxisClip.clip(features, lines.right.0, lines.right.1, axis: 0, minAll: bounds.minX, maxAll: bounds.maxX)
        func vertical(_ part: [ProjectedFeature]?) -> ([ProjectedFeature], [ProjectedFeature]) {
            guard let part else { return ([], []) }
            return (AxisClip.clip(part, lines.top.0, lines.top.1, axis: 1, minAll: bounds.minY, maxAll: bounds.maxY) ?? [],
                    AxisClip.clip(part, lines.bottom.0, lines.bottom.1, axis: 1, minAll: bounds.minY, maxAll: bounds.maxY) ?? [])
        }
        let (topLeft, bottomLeft) = vertical(left)
        let (topRight, bottomRight) = vertical(right)
        return [topLeft, bottomLeft, topRight, bottomRight]
    }

    /// The children of a tile in `split`'s order.
    static func children(of tile: TileID) -> [TileID] {
        [TileID(z: tile.z + 1, x: 2 * tile.x, y: 2 * tile.y), TileID(z: tile.z + 1, x: 2 * tile.x, y: 2 * tile.y + 1),
         TileID(z: tile.z + 1, x: 2 * tile.x + 1, y: 2 * tile.y), TileID(z: tile.z + 1, x: 2 * tile.x + 1, y: 2 * tile.y + 1)]
    }
}

extension JSONValue {
    /// A feature id as a JSON value.
    public init(featureID: FeatureID) {
        switch featureID {
        case .string(let text): self = .string(text)
        case .integer(let value): self = .integer(value)
        case .number(let value): self = .number(value)
        }
    }
}
