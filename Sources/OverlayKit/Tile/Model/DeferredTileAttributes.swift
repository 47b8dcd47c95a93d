import OverlayModel

/// Where a tile keeps the ids and properties it has not decoded yet (``DeferredTileAttributes``).
protocol DeferredAttributeStorage: Sendable {
    /// The id and properties kept in `slot`, for the feature at input position `source` (an id
    /// made from the input position is not stored).
    func attributes(slot: Int, source: Int) -> TileAttributes
}

/// The ids and properties of a tile's features, kept in their compact stored form until the
/// tile is encoded (`VectorTile.feature(at:)`), feature by feature.
///
/// A dense tile on the disk store holds hundreds of thousands of points while its budget is
/// fitted; decoded, each point's properties are a few hundred bytes of boxed values, stored a
/// few dozen. The encoders decode one feature at a time, so the tile's decoded properties are
/// never all in memory at once.
struct DeferredTileAttributes: Sendable {
    /// The stored ids and properties.
    var storage: any DeferredAttributeStorage
    /// By feature: its slot in `storage`, or -1 when the feature carries its own.
    var slots: [Int32]
}

extension VectorTile {
    /// Feature `index` with its id and properties, decoded from ``deferred`` when kept there.
    func feature(at index: Int) -> TileFeature {
        var feature = features[index]
        guard let deferred, index < deferred.slots.count, deferred.slots[index] >= 0 else { return feature }
        let source = index < sources.count ? sources[index] : 0
        let attributes = deferred.storage.attributes(slot: Int(deferred.slots[index]), source: source)
        feature.id = attributes.id
        feature.properties = attributes.properties
        return feature
    }

    /// Decodes every deferred id and properties into ``features`` (for callers that read them).
    mutating func resolveDeferredAttributes() {
        guard deferred != nil else { return }
        for index in features.indices { features[index] = feature(at: index) }
        deferred = nil
    }
}
