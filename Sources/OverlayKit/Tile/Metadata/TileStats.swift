import OverlayModel

/// Mapbox tilestats, a tile set's `tilestats` metadata: per layer its feature count, geometry
/// type and attributes (type, distinct values, range). Read from JSON and written back without
/// losing members it does not know (tippecanoe and others add their own); ``formUnion(_:)``
/// unites the tilestats of joined tile sets as tippecanoe's `tile-join` does.
public struct TileStats: Hashable, Sendable {
    /// The layers, in order.
    public var layers: [Layer]
    /// Members besides `layerCount` and `layers`, as read.
    public var other: JSONObject

    /// One layer's statistics.
    public struct Layer: Hashable, Sendable {
        /// The layer name in the tiles (`layer`).
        public var name: String
        /// Features in the layer; nil when not given.
        public var count: Int?
        /// "Point", "LineString", "Polygon", or "Mixed"; nil when not given.
        public var geometry: String?
        /// The layer's attributes (`attributeCount` is their number).
        public var attributes: [Attribute]
        /// Members this type does not know, as read.
        public var other: JSONObject

        /// A layer from its parts.
        public init(name: String, count: Int? = nil, geometry: String? = nil, attributes: [Attribute] = [],
                    other: JSONObject = JSONObject()) {
            self.name = name
            self.count = count
            self.geometry = geometry
            self.attributes = attributes
            self.other = other
        }
    }

    /// One attribute of a layer.
    public struct Attribute: Hashable, Sendable {
        /// The property name (`attribute`).
        public var name: String
        /// Its number of distinct values; nil when not given.
        public var count: Int?
        /// "string", "number", "boolean", or "mixed"; nil when not given.
        public var type: String?
        /// Some of its distinct values (at most ``TileStats/valueLimit`` after a union); nil when not given.
        public var values: [JSONValue]?
        /// Its smallest number, as written; nil when not given.
        public var min: JSONValue?
        /// Its largest number, as written; nil when not given.
        public var max: JSONValue?
        /// Members this type does not know, as read.
        public var other: JSONObject

        /// An attribute from its parts.
        public init(name: String, count: Int? = nil, type: String? = nil, values: [JSONValue]? = nil,
                    min: JSONValue? = nil, max: JSONValue? = nil, other: JSONObject = JSONObject()) {
            self.name = name
            self.count = count
            self.type = type
            self.values = values
            self.min = min
            self.max = max
            self.other = other
        }
    }

    /// tippecanoe's cap on the distinct values listed per attribute.
    public static let valueLimit = 100

    /// Tilestats of these layers.
    public init(layers: [Layer], other: JSONObject = JSONObject()) {
        self.layers = layers
        self.other = other
    }

    /// Reads a `tilestats` object; nil when `json` is not an object. Layers and attributes
    /// without a name are left out; a count that is not a whole number reads as absent.
    public init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        layers = Self.items(object["layers"]).compactMap(Layer.init(json:))
        other = object.without(["layerCount", "layers"])
    }

    /// The statistics as JSON: `layerCount`, `layers` (each `layer`, `count`, `geometry`,
    /// `attributeCount`, `attributes`), then the members read but not known, in order.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("layerCount", .integer(Int64(layers.count)))
        object.append("layers", .array(layers.map(\.json)))
        object.members += other.members
        return .object(object)
    }

    /// Adds the statistics of another tile set joined to this one: layers of one name become
    /// one (``Layer/formUnion(_:)``), the others are appended in order; members only `other`
    /// has are added.
    public mutating func formUnion(_ other: TileStats) {
        for layer in other.layers {
            if let index = layers.firstIndex(where: { $0.name == layer.name }) {
                layers[index].formUnion(layer)
            } else {
                layers.append(layer)
            }
        }
        self.other.addMissing(other.other)
    }

    fileprivate static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    fileprivate static func count(_ value: JSONValue?) -> Int? {
        value?.doubleValue.flatMap { Int(exactly: $0) }
    }
}

extension TileStats.Layer {
    fileprivate init?(json: JSONValue) {
        guard case .object(let object) = json, let name = object["layer"]?.stringValue else { return nil }
        self.init(name: name, count: TileStats.count(object["count"]), geometry: object["geometry"]?.stringValue,
                  attributes: TileStats.items(object["attributes"]).compactMap(TileStats.Attribute.init(json:)),
                  other: object.without(["layer", "count", "geometry", "attributeCount", "attributes"]))
    }

    fileprivate var json: JSONValue {
        var object = JSONObject()
        object.append("layer", .string(name))
        if let count { object.append("count", .integer(Int64(count))) }
        if let geometry { object.append("geometry", .string(geometry)) }
        object.append("attributeCount", .integer(Int64(attributes.count)))
        object.append("attributes", .array(attributes.map(\.json)))
        object.members += other.members
        return .object(object)
    }

    /// Adds the same layer's statistics from another tile set: counts summed, a geometry that
    /// differs becomes "Mixed", attributes united by name (``TileStats/Attribute/formUnion(_:)``).
    public mutating func formUnion(_ other: TileStats.Layer) {
        if let count, let more = other.count { self.count = count.addingSaturating(more) }
        if let geometry, let more = other.geometry, geometry != more { self.geometry = "Mixed" }
        for attribute in other.attributes {
            if let index = attributes.firstIndex(where: { $0.name == attribute.name }) {
                attributes[index].formUnion(attribute)
            } else {
                attributes.append(attribute)
            }
        }
        self.other.addMissing(other.other)
    }
}

extension TileStats.Attribute {
    fileprivate init?(json: JSONValue) {
        guard case .object(let object) = json, let name = object["attribute"]?.stringValue else { return nil }
        let values: [JSONValue]?
        if case .array(let items)? = object["values"] { values = items } else { values = nil }
        self.init(name: name, count: TileStats.count(object["count"]), type: object["type"]?.stringValue, values: values,
                  min: object["min"], max: object["max"],
                  other: object.without(["attribute", "count", "type", "values", "min", "max"]))
    }

    fileprivate var json: JSONValue {
        var object = JSONObject()
        object.append("attribute", .string(name))
        if let count { object.append("count", .integer(Int64(count))) }
        if let type { object.append("type", .string(type)) }
        if let values { object.append("values", .array(values)) }
        if let min { object.append("min", min) }
        if let max { object.append("max", max) }
        object.members += other.members
        return .object(object)
    }

    /// Adds the same attribute's statistics from another tile set. Its count is its number of
    /// distinct values: exact from the united lists while both lists are complete (each as
    /// long as its count) and the union within ``TileStats/valueLimit``, otherwise the sum (an
    /// upper bound). Values united up to the limit; a type that differs becomes "mixed"; the
    /// range widened.
    public mutating func formUnion(_ other: TileStats.Attribute) {
        if let count, let more = other.count {
            self.count = count.addingSaturating(more)
            if let values, let moreValues = other.values, values.count == count, moreValues.count == more {
                var united = values
                for value in moreValues where !united.contains(value) { united.append(value) }
                if united.count <= TileStats.valueLimit { self.count = united.count }
            }
        }
        if let type, let more = other.type, type != more { self.type = "mixed" }
        if let values, let more = other.values {
            var united = values
            for value in more where united.count < TileStats.valueLimit && !united.contains(value) { united.append(value) }
            self.values = united
        }
        if let low = min?.doubleValue, let otherLow = other.min?.doubleValue, otherLow < low { min = other.min }
        if let high = max?.doubleValue, let otherHigh = other.max?.doubleValue, otherHigh > high { max = other.max }
        self.other.addMissing(other.other)
    }
}

extension JSONObject {
    /// The members whose keys are not in `keys`, in order.
    func without(_ keys: Set<String>) -> JSONObject {
        JSONObject(members.filter { !keys.contains($0.key) })
    }

    /// Appends the members of `other` whose keys this object lacks, in their order.
    mutating func addMissing(_ other: JSONObject) {
        for member in other where self[member.key] == nil { append(member.key, member.value) }
    }
}
