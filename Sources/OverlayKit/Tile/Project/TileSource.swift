import OverlayModel

/// Features prepared once for tiling: projected into flat buffers with importance, copied
/// across the antimeridian, tagged with the zooms and layer each is drawn at, with ids and
/// properties as the tiles carry them, and what the tile set's metadata says of the input.
///
/// The features wait in a feature store (`ProjectedFeatureStore`): in memory (`MemoryFeatureStore`:
/// three doubles per vertex, fastest), or on disk (`DiskFeatureStore`: temporary files, a byte
/// per feature in memory, whatever the input's size).
public struct TileSource: Sendable {
    /// What the input held that cannot be tiled, so nothing disappears unexplained.
    public typealias InputCounts = TileInputCounts

    /// The options the source was projected with (a guessed max zoom may lower it).
    public private(set) var options: TileOptions
    /// The vector layers and which features went where.
    package private(set) var layers: TileLayers
    /// Where the projected features wait to be cut.
    private(set) var store: any ProjectedFeatureStore
    /// Id and properties of every input feature, by input position (empty on disk).
    public var attributes: [TileAttributes] { (store as? MemoryFeatureStore)?.attributes ?? [] }
    /// Every feature's properties encoded for MVT once, shared by the tiles (nil on disk).
    var propertyTable: MVTPropertyTable? { (store as? MemoryFeatureStore)?.propertyTable }
    /// The projected, wrapped features (a geometry collection gives several); empty on disk.
    package var features: [ProjectedFeature] { (store as? MemoryFeatureStore)?.features ?? [] }
    /// The disk store, or nil when the features are in memory.
    var disk: DiskFeatureStore? { store as? DiskFeatureStore }
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
    /// `tippecanoe` minzoom/maxzoom values that are not numbers (ignored).
    package let invalidZoomMembers: Int
    /// What the metadata says of each layer (by layer index; one more, for features left in
    /// their input's layer by a reader that named none), and what MVT cannot hold.
    package let layerSummaries: [TileLayerSummary]
    package let losses: TileEncodingLosses
    /// The spacing of the lines' and polygons' vertices, for `MaxZoomGuess`: measured only
    /// when a zoom is guessed (it sorts every feature's vertices, a tenth of reading the 10m
    /// land), else empty.
    let vertexSpacing: MaxZoomGuess.VertexSpacing
    /// What the features reach (polygon area, line length, points), for `estimatedTiles`.
    let reach: FeatureReach

    /// Projects `input` (all of it in memory already).
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options.
    public init(features input: [Feature], options: TileOptions) throws {
        try options.validate()
        var projection = try FeatureProjection(options: options)
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
                 minimumPartBytes: Int, diskFolder: String? = nil, onWarning: (Diagnostic) -> Void) throws {
        try options.validate()
        let (projection, table) = try Self.project(&reader, options: options, readThreads: readThreads,
                                                   minimumPartBytes: minimumPartBytes, diskFolder: diskFolder,
                                                   onWarning: onWarning)
        try self.init(projection, propertyTable: table)
    }

    /// Projects several inputs one after another, as one input would be (input positions and
    /// generated ids run on from one input to the next), each feature going to the layer of its
    /// input unless its `tippecanoe` member names another.
    ///
    /// With a `diskFolder`, the projected features and their attributes go to temporary files
    /// there (unlinked at once: nothing is left behind on any exit) and memory holds a byte per
    /// feature; `TilePyramid.build` then reads them back.
    ///
    /// `onRead`, when given, hears the inputs' bytes read so far (out of their sizes summed, when
    /// every input is a file whose reader says: GeoJSON, GeoJSONSeq, KML) and the features read,
    /// once before the first and then every 1,024 features (from the reading threads too).
    /// - Throws: `Diagnostic` `tile.bad-option` for out-of-range options; the readers' errors;
    ///   `io.*` when the temporary files cannot be written.
    public init(reading inputs: inout [TileInput], options: TileOptions, readThreads: Int = 1,
                diskFolder: String? = nil, onWarning: (Diagnostic) -> Void = { _ in },
                onRead: (@Sendable (ReadPosition?, Int) -> Void)? = nil) throws {
        try options.validate()
        var merged = try FeatureProjection(options: options, diskFolder: diskFolder)
        var table: MVTPropertyTable?
        // The inputs' sizes, summed before any is read (nil when one is not a file or its reader does not say).
        let sizes = inputs.map { $0.reader.readPosition?.totalBytes }
        let totalBytes = sizes.contains(where: { $0 == nil }) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        var bytesBefore = 0, featuresBefore = 0
        for index in inputs.indices {
            merged.layers.register(inputs[index].layer)
            let reading = onRead.map { onRead in
                Reading(bytesBefore: bytesBefore, totalBytes: totalBytes, featuresBefore: featuresBefore, onRead: onRead)
            }
            let (projection, partTable) = try Self.project(&inputs[index].reader, options: options, readThreads: readThreads,
                                                           minimumPartBytes: ParallelSequenceProjection.minimumPartBytes,
                                                           diskFolder: diskFolder, reading: reading, onWarning: onWarning)
            bytesBefore += sizes[index] ?? 0
            featuresBefore += projection.counts.features
            merged.append(projection)
            merged.assignInputLayer(inputs[index].layer)
            // A table built in parts holds one input's features: with several it is built again.
            table = inputs.count == 1 ? partTable : nil
        }
        merged.removeUnusedLayers()
        try self.init(merged, propertyTable: table)
    }

    /// Where a progress line's reading counts start for one input of several, and where they go.
    private struct Reading {
        var bytesBefore: Int, totalBytes: Int?, featuresBefore: Int
        var onRead: @Sendable (ReadPosition?, Int) -> Void
    }

    /// Reads and projects every feature of `reader`, in parts on `readThreads` threads when it is
    /// a GeoJSON text sequence file not begun, or part by part on the workers of a reader that
    /// decodes its parts side by side (GeoParquet row groups: `RowGroupProjection`), then with
    /// the property table built in parts too. `reading` hears the bytes and features read, every
    /// 1,024 features (in parts: every part).
    private static func project(_ reader: inout some FeatureReader, options: TileOptions, readThreads: Int,
                                minimumPartBytes: Int, diskFolder: String?, reading: Reading? = nil,
                                onWarning: (Diagnostic) -> Void) throws -> (FeatureProjection, MVTPropertyTable?) {
        if readThreads > 1, reader.decodesPartsInParallel {
            let onFeatures = reading.map { reading in
                { (features: Int) in reading.onRead(nil, reading.featuresBefore + features) }
            }
            onFeatures?(0)
            let (projection, table) = try RowGroupProjection.project(&reader, options: options, diskFolder: diskFolder,
                                                                     onFeatures: onFeatures, onWarning: onWarning)
            return (projection, table)
        }
        if readThreads > 1, let file = reader.sliceableFile, let size = file.expectedSize {
            try options.validate()
            let parts = try SequenceRecordBoundaries.ranges(of: file, size: size, parts: readThreads,
                                                            minimumBytes: minimumPartBytes)
            if parts.count > 1 {
                let position = reading.map {
                    SharedReadPosition(readers: parts.count, bytesBefore: $0.bytesBefore, totalBytes: $0.totalBytes,
                                       featuresBefore: $0.featuresBefore, onRead: $0.onRead)
                }
                let (projection, table) = try ParallelSequenceProjection.project(file, parts: parts, options: options,
                                                                                 diskFolder: diskFolder, position: position,
                                                                                 onWarning: onWarning)
                return (projection, table)
            }
        }
        var projection = try FeatureProjection(options: options, diskFolder: diskFolder)
        var features = 0
        func report() {
            guard let reading else { return }
            let position = reader.readPosition.map {
                ReadPosition(bytesRead: reading.bytesBefore + $0.bytesRead, totalBytes: reading.totalBytes)
            }
            reading.onRead(position, reading.featuresBefore + features)
        }
        report()
        while let feature = try reader.next() {
            reader.takeWarnings().forEach(onWarning)
            if let warning = PolarLatitudes.warning(for: feature) { onWarning(warning) }
            try projection.add(feature)
            features += 1
            if features & 1023 == 0 { report() }
        }
        reader.takeWarnings().forEach(onWarning)
        return (projection, nil)
    }

    /// `propertyTable` when already built from the projection's attributes (in parts, on their threads).
    init(_ projection: FeatureProjection, propertyTable table: MVTPropertyTable? = nil) throws {
        options = projection.options
        inputCounts = projection.counts
        var bounds = projection.bounds
        for feature in projection.projected { bounds = bounds.union(feature.mapRect) }
        boundingMapRect = bounds
        longitudeExtent = projection.longitudeExtent
        layers = projection.layers
        layerSummaries = projection.layerSummaries
        losses = projection.losses
        uncoercibleValues = projection.uncoercible
        featuresFilteredOut = projection.filteredOut
        invalidZoomMembers = projection.invalidZoomMembers
        unmatchedPropertyNames = projection.namedProperties.subtracting(projection.namesSeen).sorted()
        if let disk = projection.disk {
            store = disk
            vertexSpacing = projection.vertexSpacing
            reach = projection.reach
        } else {
            let features = AntimeridianWrap.wrap(projection.projected, buffer: Double(options.buffer) / Double(options.extent))
            store = MemoryFeatureStore(features: features, attributes: projection.attributes,
                                       propertyTable: table ?? MVTPropertyTable(projection.attributes),
                                       featureCount: projection.counts.features)
            var spacing = MaxZoomGuess.VertexSpacing()
            var reached = FeatureReach()
            var counted = Set<Int>()
            for feature in features {
                if options.guessesZooms { spacing.add(feature) }
                reached.add(feature, countingArea: feature.type == .polygon && counted.insert(feature.source).inserted)
            }
            vertexSpacing = spacing
            reach = reached
        }
        var settled = options
        try FeatureSettling.settle(&settled, store: &store, vertexSpacing: vertexSpacing, sketch: projection.sketch,
                                   featureCount: inputCounts.features)
        options = settled
    }

    /// What the tile set's metadata says of the input.
    package var facts: TileSetFacts {
        TileSetFacts(options: options, boundingMapRect: boundingMapRect, layers: layers, layerSummaries: layerSummaries,
                     losses: losses, inputCounts: inputCounts)
    }

    /// By input position, the first zoom point thinning shows each feature at (empty when
    /// nothing is thinned).
    package var thinnedMinZooms: [UInt8] { store.thinnedMinZooms }
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
