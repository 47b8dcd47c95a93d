import OverlayModel

/// Builds one tile from the features clipped to it (geojson-vt's `createTile` + `transform`):
/// a threshold filter on the stored importance simplifies each ring for the zoom, rings and
/// lines below the tolerance are dropped (and counted), polygon rings are wound for MVT, and
/// map points become integer tile units.
enum TileBuilder {
    /// The ring lengths of a single point.
    fileprivate static let singlePoint = [1]

    static func build(_ features: [ProjectedFeature], tile: TileID, options: TileOptions,
                      attributes: [TileAttributes], propertyTable: MVTPropertyTable? = nil,
                      onFeature: ((_ source: Int, _ change: TileStatistics, _ kept: Bool) -> Void)? = nil) -> (VectorTile, FeatureBounds) {
        build(features, tile: tile, options: options, attributesOf: { attributes[$0] }, propertyTable: propertyTable,
              onFeature: onFeature)
    }

    /// `build` with the attributes of each input position from a function (features read back
    /// from the disk store).
    static func build(_ features: [ProjectedFeature], tile: TileID, options: TileOptions,
                      attributesOf: (Int) -> TileAttributes, propertyTable: MVTPropertyTable? = nil,
                      onFeature: ((_ source: Int, _ change: TileStatistics, _ kept: Bool) -> Void)? = nil) -> (VectorTile, FeatureBounds) {
        var accumulator = Accumulator(tile: tile, options: options, keepsPropertySources: propertyTable != nil,
                                      capacity: features.count)
        for feature in features {
            accumulator.add(feature, attributes: attributesOf, onFeature: onFeature)
        }
        return accumulator.finish(attributes: attributesOf, propertyTable: propertyTable)
    }

    /// One tile built feature by feature, so its features can be streamed (from a spill file)
    /// instead of held: `build` is a loop over `add` and one `finish`.
    struct Accumulator {
        private var builder: Builder
        private(set) var bounds = FeatureBounds()
        private var output = [TileFeature]()
        private var propertySources = [Int]()
        private var sources = [Int]()
        private var layers = [UInt16]()
        private let keepsPropertySources: Bool
        private let zoom: Int
        /// With `TileOptions.sharedBorders`, the polygons their tags hold back at this zoom wait
        /// here for `finish`, which builds each layer's together (`SharedBorderTile`); their
        /// places in `output` are kept for them.
        /// In the order their layers first came; a tile has few layers, so a layer is found by a
        /// scan (no hashing per held feature).
        private var held = [HeldLayer]()
        private var heldCallback: ((_ source: Int, _ change: TileStatistics, _ kept: Bool) -> Void)?
        /// Bounds the points held while they stream in, where the budget would reduce the tile anyway.
        private var pointCap: PointStreamCap?
        /// The capped points' stored attributes, when they are decoded only as the tile is encoded.
        private var arena: EncodedAttributeArena?

        /// One layer's held polygons, their attributes and their places in `output`.
        private struct HeldLayer {
            let layer: UInt16
            var features = [ProjectedFeature]()
            var attributes = [TileAttributes]()
            var slots = [Int]()
        }

        /// A tile's builder; `keepsPropertySources` when the tile will be encoded through a
        /// property table (then each feature's input position is kept for it). With
        /// `defersAttributes`, the points of a capped tile added with their stored attributes
        /// keep them stored (`VectorTile.deferred`).
        init(tile: TileID, options: TileOptions, keepsPropertySources: Bool, capacity: Int = 0,
             defersAttributes: Bool = false) {
            builder = Builder(tile: tile, options: options)
            self.keepsPropertySources = keepsPropertySources
            zoom = tile.z
            pointCap = PointStreamCap.forTile(zoom: tile.z, options: options)
            if defersAttributes && pointCap != nil && !keepsPropertySources { arena = EncodedAttributeArena() }
            let capacity = min(capacity, pointCap.map { $0.cap.addingSaturating(1) } ?? capacity)
            output.reserveCapacity(capacity)
            sources.reserveCapacity(capacity)
            layers.reserveCapacity(capacity)
            if keepsPropertySources { propertySources.reserveCapacity(capacity) }
        }

        /// Features the tile holds so far.
        var featureCount: Int { output.count }

        /// The input positions whose attributes a tiny-shape stand-in may still need at `finish`.
        var leftoverCandidates: (ring: Int?, line: Int?) { (builder.tinyRings.last?.source, builder.tinyLines.last?.source) }

        /// Counts a feature tagged `tags` with `featureBounds` when it is hidden at this zoom
        /// (its bounds still count) and returns true; false when it is to be `add`ed.
        mutating func addIfHidden(tags: FeatureTags, featureBounds: FeatureBounds) -> Bool {
            guard let hidden = FeatureVisibility.hidden(tags, zoom: zoom) else { return false }
            bounds.include(featureBounds)
            switch hidden {
            case .thinned: builder.statistics.thinnedFeatures += 1
            case .outsideZoomRange: builder.statistics.outsideZoomRange += 1
            case .filteredAtZoom: builder.statistics.filteredAtZoom += 1
            }
            return true
        }

        /// Adds one feature clipped to the tile; `attributes` gives an input position's id and
        /// properties and is called only for what is drawn. `stored` are the same attributes in
        /// a record's stored bytes (`StoredRecord`), kept instead of decoded where the tile defers them.
        mutating func add(_ feature: ProjectedFeature, attributes: (Int) -> TileAttributes,
                          stored: UnsafeRawBufferPointer? = nil,
                          onFeature: ((_ source: Int, _ change: TileStatistics, _ kept: Bool) -> Void)? = nil) {
            let before = builder.statistics
            let countBefore = output.count
            var heldBack = false
            defer {
                if !heldBack { onFeature?(feature.source, builder.statistics.subtracting(before), output.count > countBefore) }
                // After the report: the points thinned out now are reported as dropped by the tile's budget.
                if pointCap != nil, let kept = pointCap!.thinIfOver() { keepOutput(at: kept) }
            }
            let featureBounds = FeatureBounds(feature)
            if addIfHidden(tags: feature.tags, featureBounds: featureBounds) { return }
            bounds.include(featureBounds)
            if builder.options.sharedBorders && feature.type == .polygon && zoom < Int(feature.tags.sharedBordersThrough) {
                heldBack = true
                if let onFeature { heldCallback = onFeature }
                let layer = feature.tags.layer
                var group = held.count - 1
                while group >= 0 && held[group].layer != layer { group -= 1 }
                if group < 0 {
                    held.append(HeldLayer(layer: layer))
                    group = held.count - 1
                }
                held[group].features.append(feature)
                held[group].attributes.append(attributes(feature.source))
                held[group].slots.append(output.count)
                output.append(TileFeature(type: .polygon, xy: [], ringLengths: [], id: nil, properties: nil))
                arena?.appendOwn()
                sources.append(feature.source)
                layers.append(layer)
                if keepsPropertySources { propertySources.append(feature.source) }
                return
            }
            var pointNumber: Int?
            if feature.type == .point, pointCap != nil {
                pointNumber = pointCap!.admit()
                guard pointNumber != nil else {
                    // Its turn is skipped: counted as built and then dropped for the budget.
                    builder.countSkipped(feature)
                    return
                }
            }
            // A capped tile's points keep their stored attributes (while slots last).
            let deferring = arena != nil && feature.type == .point && stored != nil && arena!.hasFreeSlot
            let result = deferring ? builder.add(feature, attributes: { TileAttributes(id: nil, properties: nil) })
                : builder.add(feature, attributes: { attributes(feature.source) })
            if let result {
                output.append(result)
                if deferring { arena!.appendSlot(stored!) } else { arena?.appendOwn() }
                sources.append(feature.source)
                layers.append(feature.tags.layer)
                if keepsPropertySources {
                    // Line metrics add two properties per tile: those features are not pre-encoded.
                    propertySources.append(feature.metrics != nil && feature.type == .line ? -1 : feature.source)
                }
                if pointCap != nil { pointCap!.added(point: pointNumber) }
            } else {
                builder.statistics.droppedFeatures += 1
            }
        }

        /// Keeps the features at `kept` (ascending positions in `output`); the others count as
        /// dropped for the budget.
        private mutating func keepOutput(at kept: [Int]) {
            builder.statistics.droppedForBudget += output.count - kept.count
            output = kept.map { output[$0] }
            arena?.keep(at: kept)
            sources = kept.map { sources[$0] }
            layers = kept.map { layers[$0] }
            if keepsPropertySources { propertySources = kept.map { propertySources[$0] } }
        }

        /// The tile, and the bounds of every feature added (drawn or not).
        mutating func finish(attributes: (Int) -> TileAttributes, propertyTable: MVTPropertyTable?) -> (VectorTile, FeatureBounds) {
            if !held.isEmpty { buildHeld() }
            for standIn in builder.leftoverStandIns(attributes: attributes) {
                output.append(standIn.feature)
                arena?.appendOwn()
                sources.append(standIn.source)
                layers.append(standIn.layer)
                if keepsPropertySources { propertySources.append(standIn.source) }
            }
            builder.statistics.features = output.count
            var vectorTile = VectorTile(id: builder.tile, extent: builder.options.extent, features: output,
                                        statistics: builder.statistics, sourcePointCount: builder.sourcePoints,
                                        pointCount: builder.keptPoints, propertyTable: propertyTable,
                                        propertySources: keepsPropertySources ? propertySources : [], sources: sources,
                                        layers: layers)
            vectorTile.deferred = arena?.deferred()
            return (vectorTile, bounds)
        }

        /// Builds the held polygons layer by layer with their shared borders, into their places.
        private mutating func buildHeld() {
            var emptySlots = [Int]()
            for group in held {
                let outcomes = builder.sharedBorderOutcomes(group.features)
                for index in group.features.indices {
                    let before = builder.statistics
                    let attributes = group.attributes[index]
                    let result = builder.add(group.features[index], attributes: { attributes },
                                             ringOutcomes: outcomes.map { ($0, index) })
                    if let result {
                        output[group.slots[index]] = result
                    } else {
                        builder.statistics.droppedFeatures += 1
                        emptySlots.append(group.slots[index])
                    }
                    heldCallback?(group.features[index].source, builder.statistics.subtracting(before), result != nil)
                }
            }
            held = []
            guard !emptySlots.isEmpty else { return }
            let empty = Set(emptySlots)
            let kept = output.indices.filter { !empty.contains($0) }
            output = kept.map { output[$0] }
            arena?.keep(at: kept)
            sources = kept.map { sources[$0] }
            layers = kept.map { layers[$0] }
            if keepsPropertySources { propertySources = kept.map { propertySources[$0] } }
        }
    }

    /// Per-tile state: the zoom's tolerance and the transform to tile units.
    private struct Builder {
        let options: TileOptions
        /// Tolerance in map points at this zoom; 0 at maxZoom (full detail).
        let tolerance: Double
        let squaredTolerance: Double
        /// Rings smaller than this area (map points²) are tiny: tolerance², or less with
        /// `accumulatesTinyShapes` (tippecanoe's tiny-polygon size); 0 at maxZoom.
        let tinyRingArea: Double
        /// 2^(z − 28): map points to tiles at this zoom, exactly (a power of two).
        let scale: Double
        let tileX: Double, tileY: Double, extent: Double
        var statistics = TileStatistics()
        var sourcePoints = 0
        var keptPoints = 0
        /// Tiny rings and lines added up into stand-ins (only with `accumulatesTinyShapes`).
        var tinyRings: TinyShapeAccumulator
        var tinyLines: TinyShapeAccumulator
        /// The input feature being added.
        private var currentSource = 0
        private var currentLayer: UInt16 = 0

        let tile: TileID

        init(tile: TileID, options: TileOptions) {
            self.tile = tile
            self.options = options
            // Computed in world units first, then scaled by 2^28: equal to geojson-vt's values
            // times the world size, bit for bit.
            tolerance = tile.z == options.maxZoom
                ? 0 : options.tolerance / (Double(1 << tile.z) * Double(options.extent)) * MapProjection.worldSize
            squaredTolerance = tolerance * tolerance
            scale = Double(sign: .plus, exponent: tile.z - 28, significand: 1)
            tileX = Double(tile.x)
            tileY = Double(tile.y)
            extent = Double(options.extent)
            // A stand-in is at least one tile unit across, so it survives rounding to the grid.
            let unit = MapProjection.worldSize / (Double(1 << tile.z) * Double(options.extent))
            let tinySide = options.tinyPolygonSize * unit
            tinyRingArea = options.accumulatesTinyShapes ? min(squaredTolerance, tinySide * tinySide) : squaredTolerance
            tinyRings = TinyShapeAccumulator(threshold: max(tinyRingArea, unit * unit))
            tinyLines = TinyShapeAccumulator(threshold: max(tolerance, unit))
        }

        /// JavaScript's Math.round (halves toward +∞), which geojson-vt's integers come from.
        @inline(__always)
        func round(_ value: Double) -> Int32 {
            let floor = value.rounded(.down)
            return Int32(saturating: value - floor >= 0.5 ? floor + 1 : floor)
        }

        @inline(__always)
        func transformX(_ x: Double) -> Int32 { round(extent * (x * scale - tileX)) }
        @inline(__always)
        func transformY(_ y: Double) -> Int32 { round(extent * (y * scale - tileY)) }

        /// Counts a point whose turn `PointStreamCap` skipped as if it were built (every point of
        /// it is drawn) and then dropped for the budget.
        mutating func countSkipped(_ feature: ProjectedFeature) {
            sourcePoints += feature.vertexCount
            keptPoints += feature.vertexCount
            statistics.droppedForBudget += 1
        }

        /// The feature in tile units, nil when nothing of it is drawn; `attributes` is read only then.
        mutating func add(_ feature: ProjectedFeature, attributes: () -> TileAttributes,
                          ringOutcomes: (SharedBorderTile.Outcomes, feature: Int)? = nil) -> TileFeature? {
            let geometry = feature.coordinates
            currentSource = feature.source
            currentLayer = feature.tags.layer
            var xy = [Int32]()
            var lengths = [Int]()
            switch feature.type {
            case .point:
                let count = feature.vertexCount
                xy.reserveCapacity(count * 2)
                var index = 0
                while index < geometry.count {
                    xy.append(transformX(geometry[index]))
                    xy.append(transformY(geometry[index + 1]))
                    index += 3
                }
                sourcePoints += count
                keptPoints += count
                // One shared array for the usual single point: a dense tile holds many.
                if count == 1 { lengths = TileBuilder.singlePoint } else { lengths.append(count) }
            case .line:
                for ring in feature.rings { addLine(geometry, ring, into: &xy, lengths: &lengths) }
            case .polygon:
                var exteriorDropped = false
                // The rings' outcomes and the points of those drawn with shared borders, bound
                // once (an outcome per ring is then read in place, not copied out).
                let shared = ringOutcomes?.0, sharedFeature = ringOutcomes?.feature ?? 0
                let sharedPoints = shared?.points ?? []
                for (index, ring) in feature.rings.enumerated() {
                    if ring.isOuter { exteriorDropped = false }
                    if options.keepRingsValid && exteriorDropped && !ring.isOuter {
                        sourcePoints += ring.count
                        statistics.droppedDegenerateRings += 1
                        continue
                    }
                    let drawn: Bool
                    switch shared?.outcome(feature: sharedFeature, ring: index) ?? .perRing {
                    case .perRing:
                        drawn = addRing(geometry, ring, into: &xy, lengths: &lengths)
                    case .drawn(let range):
                        sourcePoints += ring.count
                        xy += sharedPoints[range]
                        lengths.append(range.count / 2)
                        keptPoints += range.count / 2
                        drawn = true
                    case .collapsed:
                        sourcePoints += ring.count
                        statistics.droppedDegenerateRings += 1
                        drawn = false
                    case .tiny:
                        sourcePoints += ring.count
                        statistics.droppedTinyRings += 1
                        drawn = false
                    }
                    if !drawn, ring.isOuter { exteriorDropped = true }
                }
            }
            guard !lengths.isEmpty else { return nil }
            let attributes = attributes()
            var properties = attributes.properties
            if let metrics = feature.metrics, feature.type == .line {
                var withMetrics = properties ?? JSONObject()
                withMetrics["mapbox_clip_start"] = .number(metrics.start / metrics.size)
                withMetrics["mapbox_clip_end"] = .number(metrics.end / metrics.size)
                properties = withMetrics
            }
            return TileFeature(type: feature.type, xy: xy, ringLengths: lengths, id: attributes.id, properties: properties)
        }

        /// What `SharedBorderTile` makes of each ring of `features` (one layer's polygons), or nil
        /// when they share no border here.
        func sharedBorderOutcomes(_ features: [ProjectedFeature]) -> SharedBorderTile.Outcomes? {
            let units = TileUnits(tile: tile, extent: options.extent)
            // The farthest the per-ring path reaches beyond a ring's bounds: rounding, and a stand-in's half side.
            let standInHalfSide = tinyRings.threshold.squareRoot() / 2 * scale * extent
            return SharedBorderTile.outcomes(features, units: units, tolerance: tolerance > 0 ? options.tolerance : 0,
                                             tinyRingArea: tinyRingArea, nearGap: 2 + 2 * standInHalfSide)
        }

        /// The ring's vertices whose importance beats `threshold`, as map-point pairs.
        private func filtered(_ geometry: [Double], _ ring: ProjectedRing, threshold: Double) -> [Double] {
            var pairs = [Double]()
            pairs.reserveCapacity(ring.count * 2)
            var index = ring.start * 3
            let end = (ring.start + ring.count) * 3
            while index < end {
                if threshold == 0 || geometry[index + 2] > threshold {
                    pairs.append(geometry[index])
                    pairs.append(geometry[index + 1])
                }
                index += 3
            }
            return pairs
        }

        private mutating func addLine(_ geometry: [Double], _ ring: ProjectedRing, into xy: inout [Int32],
                                      lengths: inout [Int]) {
            sourcePoints += ring.count
            if tolerance > 0 && ring.size < tolerance {
                statistics.droppedTinyLines += 1
                if options.accumulatesTinyShapes, ring.count > 0,
                   tinyLines.add(size: ring.size, x: geometry[ring.start * 3], y: geometry[ring.start * 3 + 1],
                                 source: currentSource, layer: currentLayer) {
                    append(lineStandIn(x: geometry[ring.start * 3], y: geometry[ring.start * 3 + 1]), into: &xy, lengths: &lengths)
                    statistics.tinyStandIns += 1
                }
                return
            }
            let pairs = filtered(geometry, ring, threshold: squaredTolerance)
            if options.keepRingsValid && pairs.count < 4 {
                statistics.droppedDegenerateLines += 1
                return
            }
            append(pairs, into: &xy, lengths: &lengths)
        }

        /// Adds one polygon ring; false when it was dropped.
        private mutating func addRing(_ geometry: [Double], _ ring: ProjectedRing, into xy: inout [Int32],
                                      lengths: inout [Int]) -> Bool {
            sourcePoints += ring.count
            if tolerance > 0 && ring.size < tinyRingArea {
                statistics.droppedTinyRings += 1
                if options.accumulatesTinyShapes, ring.isOuter, ring.count > 0,
                   tinyRings.add(size: ring.size, x: geometry[ring.start * 3], y: geometry[ring.start * 3 + 1],
                                 source: currentSource, layer: currentLayer) {
                    append(wound(squareStandIn(x: geometry[ring.start * 3], y: geometry[ring.start * 3 + 1]), outer: true),
                           into: &xy, lengths: &lengths)
                    statistics.tinyStandIns += 1
                    return true
                }
                return false
            }
            var threshold = squaredTolerance
            var pairs = wound(filtered(geometry, ring, threshold: threshold), outer: ring.isOuter)
            if options.keepRingsValid {
                // Simplify less (a quarter of the squared tolerance, i.e. half the distance, per
                // step) until the ring has 4 points and no crossing the full ring lacks.
                var attempt = pairs
                var tileRing = transformed(attempt)
                var steps = 0
                while true {
                    let tileArea = RingValidity.doubleArea(tileRing)
                    // With shared borders a ring turned over by rounding is as bad as none: it would cut a hole.
                    let tooShort = tileRing.count < 8 || tileArea == 0
                        || (options.sharedBorders && (tileArea > 0) == ring.isOuter)
                    let crossing = !tooShort && RingValidity.hasProperSelfIntersection(tileRing)
                    if !tooShort && !crossing {
                        if steps > 0 { statistics.repairedRings += 1 }
                        pairs = attempt
                        break
                    }
                    if threshold == 0 || (crossing && steps == 4) {
                        if tooShort {
                            statistics.droppedDegenerateRings += 1
                            return false
                        }
                        statistics.selfCrossingRings += 1
                        // Keep the ring as first simplified, unless that one was too short.
                        if pairs.count < 8 { pairs = attempt }
                        break
                    }
                    steps += 1
                    threshold = steps >= 8 ? 0 : threshold / 4
                    attempt = wound(filtered(geometry, ring, threshold: threshold), outer: ring.isOuter)
                    tileRing = transformed(attempt)
                }
            }
            append(pairs, into: &xy, lengths: &lengths)
            return true
        }

        /// A closed square of the tiny-ring threshold's area centred on (x, y), in map points.
        private func squareStandIn(x: Double, y: Double) -> [Double] {
            let half = tinyRings.threshold.squareRoot() / 2
            return [x - half, y - half, x + half, y - half, x + half, y + half, x - half, y + half, x - half, y - half]
        }

        /// A level line of the tiny-line threshold's length starting at (x, y), in map points.
        private func lineStandIn(x: Double, y: Double) -> [Double] {
            [x, y, x + tinyLines.threshold, y]
        }

        /// One stand-in feature per kind of tiny shape seen in the tile but never written, with
        /// the attributes of the last tiny one.
        mutating func leftoverStandIns(attributes: (Int) -> TileAttributes) -> [(feature: TileFeature, source: Int, layer: UInt16)] {
            guard options.accumulatesTinyShapes else { return [] }
            var result = [(feature: TileFeature, source: Int, layer: UInt16)]()
            for (type, leftover) in [(TileGeometryType.polygon, tinyRings.leftover), (.line, tinyLines.leftover)] {
                guard let leftover else { continue }
                var xy = [Int32](), lengths = [Int]()
                let pairs = type == .polygon ? wound(squareStandIn(x: leftover.x, y: leftover.y), outer: true)
                    : lineStandIn(x: leftover.x, y: leftover.y)
                append(pairs, into: &xy, lengths: &lengths)
                statistics.tinyStandIns += 1
                let source = attributes(leftover.source)
                result.append((TileFeature(type: type, xy: xy, ringLengths: lengths, id: source.id,
                                           properties: source.properties), leftover.source, leftover.layer))
            }
            return result
        }

        /// The ring wound clockwise (exterior) or counterclockwise (hole) with y down.
        private func wound(_ pairs: [Double], outer: Bool) -> [Double] {
            let area = RingValidity.doubleArea(pairs)
            guard (area > 0) == outer else { return pairs }
            var reversed = [Double]()
            reversed.reserveCapacity(pairs.count)
            var index = pairs.count - 2
            while index >= 0 {
                reversed.append(pairs[index])
                reversed.append(pairs[index + 1])
                index -= 2
            }
            return reversed
        }

        private func transformed(_ pairs: [Double]) -> [Double] {
            var result = [Double]()
            result.reserveCapacity(pairs.count)
            var index = 0
            while index < pairs.count {
                result.append(Double(transformX(pairs[index])))
                result.append(Double(transformY(pairs[index + 1])))
                index += 2
            }
            return result
        }

        private mutating func append(_ pairs: [Double], into xy: inout [Int32], lengths: inout [Int]) {
            var index = 0
            while index < pairs.count {
                xy.append(transformX(pairs[index]))
                xy.append(transformY(pairs[index + 1]))
                index += 2
            }
            lengths.append(pairs.count / 2)
            keptPoints += pairs.count / 2
        }
    }
}
