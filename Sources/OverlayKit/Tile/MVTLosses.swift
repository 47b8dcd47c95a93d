import OverlayModel

extension MVTEncoder.Losses {
    /// What MVT cannot hold of the features a source tiles, counted once per input feature (or
    /// property value), not once per tile it lands in: ids that are not unsigned integers, null
    /// values, and object or array values (written as JSON text). Features without geometry
    /// reach no tile and are not counted. O(features + properties).
    public init(source: TileSource) {
        self.init()
        var counted = Set<Int>()
        for feature in source.features where counted.insert(feature.source).inserted {
            let attributes = source.attributes[feature.source]
            if let id = attributes.id, MVTEncoder.unsignedID(id) == nil { idsNotWritten += 1 }
            for member in attributes.properties ?? JSONObject() {
                switch member.value {
                case .null: nullValuesNotWritten += 1
                case .array, .object: valuesWrittenAsJSON += 1
                default: break
                }
            }
        }
    }
}
