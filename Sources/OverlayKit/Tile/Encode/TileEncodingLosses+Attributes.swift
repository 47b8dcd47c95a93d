import OverlayModel

extension TileEncodingLosses {
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
