import OverlayModel

extension TileSetMetadata.VectorLayer.Field {
    /// The fields of a layer whose features have these properties: property names and their value types
    /// ("String", "Number", "Boolean", or "Mixed"), in order of first appearance; null values
    /// say nothing about a type.
    public static func fields(of properties: some Sequence<JSONObject?>) -> [Self] {
        var collector = TileSetMetadata.VectorLayer.FieldCollector()
        for object in properties { collector.add(object) }
        return collector.fields
    }
}

extension TileSetMetadata.VectorLayer {
    /// The fields of a layer's features, gathered one feature at a time (features read back
    /// from temporary files are not all in memory at once).
    public struct FieldCollector: Sendable {
        private var order = [String](), types = [String: String]()

        /// No fields yet.
        public init() {}

        /// Adds one feature's properties.
        public mutating func add(_ properties: JSONObject?) {
            for member in properties ?? JSONObject() {
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

        /// Each name in the order first seen, with its type ("Mixed" when it had several).
        public var fields: [Field] { order.map { Field(name: $0, type: types[$0] ?? "String") } }
    }
}
