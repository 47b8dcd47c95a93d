import OverlayModel

extension TileSetMetadata.VectorLayer.Field {
    /// The fields of a layer holding these features: property names and their value types
    /// ("String", "Number", "Boolean", or "Mixed"), in order of first appearance; null values
    /// say nothing about a type.
    public static func fields(of attributes: some Sequence<TileAttributes>) -> [Self] {
        var order = [String](), types = [String: String]()
        for attribute in attributes {
            for member in attribute.properties ?? JSONObject() {
                let type: String
                switch member.value {
                case .null: continue
                case .bool: type = "Boolean"
                case .integer, .number: type = "Number"
                default: type = "String"
                }
                if let known = types[member.key] {
                    if known != type { types[member.key] = "Mixed" }
                } else {
                    order.append(member.key)
                    types[member.key] = type
                }
            }
        }
        return order.map { Self(name: $0, type: types[$0] ?? "String") }
    }
}
