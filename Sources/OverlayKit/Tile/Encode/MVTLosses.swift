import OverlayModel

extension MVTEncoder.Losses {
    /// What MVT cannot hold of the features a source tiles, counted once per input feature (or
    /// property value), not once per tile it lands in: ids that are not unsigned integers, null
    /// values, and object or array values (written as JSON text). Features without geometry
    /// reach no tile and are not counted. O(features + properties).
    /// - Throws: `io.read-failed` when spilled features cannot be read back.
    public init(source: TileSource) throws {
        self.init()
        var losses = self
        try source.forEachInputFeature { _, type, attributes in
            if type != nil { losses.count(attributes) }
        }
        self = losses
    }

    /// Counts what MVT cannot hold of one tiled feature's id and properties.
    mutating func count(_ attributes: TileAttributes) {
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
