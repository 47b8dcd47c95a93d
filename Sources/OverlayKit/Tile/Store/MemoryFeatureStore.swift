import OverlayModel

/// The feature store in memory: the projected features, already copied across the
/// antimeridian, as flat buffers, with every input feature's id and properties and their MVT
/// encoding shared by the tiles. Fastest; memory follows the input.
struct MemoryFeatureStore: ProjectedFeatureStore {
    /// The projected, wrapped features (a geometry collection gives several).
    var features: [ProjectedFeature]
    /// Id and properties of every input feature, by input position.
    let attributes: [TileAttributes]
    /// Every feature's properties encoded for MVT once.
    let propertyTable: MVTPropertyTable?
    /// Input features (positions run from 0 to this).
    let featureCount: Int

    func forEachAnchor(_ body: (FeatureAnchor) throws -> Void) throws {
        var x = [Double](repeating: .nan, count: featureCount), y = [Double](repeating: .nan, count: featureCount)
        var notPoint = [Bool](repeating: false, count: featureCount)
        let world = MapProjection.worldSize
        for feature in features {
            if feature.type != .point { notPoint[feature.source] = true }
            guard feature.coordinates.count >= 2 else { continue }
            let first = feature.coordinates[0]
            // A wrapped copy lies off the map: the one on it wins.
            if x[feature.source].isNaN || (!(0..<world).contains(x[feature.source]) && (0..<world).contains(first)) {
                x[feature.source] = first
                y[feature.source] = feature.coordinates[1]
            }
        }
        var entries = [SortedAnchors.Entry]()
        for source in 0..<featureCount where !x[source].isNaN {
            entries.append(SortedAnchors.Entry(key: SpatialOrder.key(x: x[source], y: y[source]), source: source,
                                               pointsOnly: !notPoint[source]))
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.source < $1.source }
        for entry in entries { try body(entry) }
    }

    func forEachPiece(_ body: (ProjectedFeature) throws -> Void) throws {
        for feature in features { try body(feature) }
    }

    var thinnedMinZooms: [UInt8] {
        guard features.contains(where: { $0.tags.thinnedMinZoom > 0 }) else { return [] }
        var zooms = [UInt8](repeating: 0, count: featureCount)
        for feature in features { zooms[feature.source] = feature.tags.thinnedMinZoom }
        return zooms
    }

    mutating func thinPoints(with walker: PointThinning.Walker?, featureCount: Int) throws {
        let zooms = try thinnedZooms(with: walker, featureCount: featureCount)
        for index in features.indices {
            features[index].tags.thinnedMinZoom = zooms.isEmpty ? 0 : zooms[features[index].source]
        }
    }

    mutating func setSharedBordersThrough(_ tags: [UInt8]) {
        for index in features.indices { features[index].tags.sharedBordersThrough = tags[features[index].source] }
    }

    var zoomZero: ZoomZeroFeatures { .features(features, attributes: attributes, propertyTable: propertyTable) }

    var temporaryFiles: (folder: String, bytes: Int, usage: RecordFileUsage)? { nil }
}
