import OverlayModel

/// One value of an MVT layer's value table, in the wire type it was written with (MVT 2.1 §4.1).
public enum MVTValue: Hashable, Sendable {
    /// `string_value` (field 1).
    case string(String)
    /// `float_value` (field 2, 32-bit).
    case float(Float)
    /// `double_value` (field 3).
    case double(Double)
    /// `int_value` (field 4, two's complement varint).
    case int(Int64)
    /// `uint_value` (field 5).
    case uint(UInt64)
    /// `sint_value` (field 6, zigzag varint).
    case sint(Int64)
    /// `bool_value` (field 7).
    case bool(Bool)
}

/// One feature of a decoded MVT layer: tags index the layer's key and value tables; the geometry
/// is kept as the packed command bytes it arrived in, so a merge can copy it unchanged.
public struct MVTFeature: Hashable, Sendable {
    /// The feature id, when the tile had one.
    public var id: UInt64?
    /// 0 unknown, 1 point, 2 line string, 3 polygon.
    public var type: UInt64
    /// Key index, value index, key index, value index, …
    public var tags: [UInt32]
    /// The packed geometry field's bytes (varint command integers).
    public var geometryBytes: [UInt8]

    /// Creates a feature.
    public init(id: UInt64?, type: UInt64, tags: [UInt32], geometryBytes: [UInt8]) {
        self.id = id
        self.type = type
        self.tags = tags
        self.geometryBytes = geometryBytes
    }

    /// The geometry command integers (MoveTo/LineTo/ClosePath and zigzag parameters).
    /// - Throws: `Diagnostic` `mvt.bad-tile` when the packed bytes are not varints.
    public func geometry() throws -> [UInt32] {
        var reader = ProtobufReader(geometryBytes[...])
        var commands = [UInt32]()
        commands.reserveCapacity(geometryBytes.count)
        while !reader.isAtEnd {
            let value = try reader.varint()
            guard value <= UInt64(UInt32.max) else { throw ProtobufReader.failure("geometry integer \(value) exceeds 32 bits") }
            commands.append(UInt32(value))
        }
        return commands
    }
}

/// One decoded MVT layer.
public struct MVTLayer: Hashable, Sendable {
    /// The layer's name (required by the spec).
    public var name: String
    /// The spec version the layer declares (1 when absent, as the spec says).
    public var version: UInt64
    /// Tile units across the tile (4096 when absent, as the spec says).
    public var extent: UInt32
    /// Property names, indexed by tags.
    public var keys: [String]
    /// Property values, indexed by tags.
    public var values: [MVTValue]
    /// The layer's features in tile order.
    public var features: [MVTFeature]

    /// Creates a layer.
    public init(name: String, version: UInt64 = 2, extent: UInt32 = 4096, keys: [String] = [], values: [MVTValue] = [],
                features: [MVTFeature] = []) {
        self.name = name
        self.version = version
        self.extent = extent
        self.keys = keys
        self.values = values
        self.features = features
    }

    /// A feature's properties as key → value pairs, in tag order.
    public func properties(of feature: MVTFeature) -> [(key: String, value: MVTValue)] {
        stride(from: 0, to: feature.tags.count - 1, by: 2).map { (keys[Int(feature.tags[$0])], values[Int(feature.tags[$0 + 1])]) }
    }
}

/// Decodes Mapbox Vector Tile 2.1 protobuf bytes (uncompressed) into layers. Hostile bytes give
/// a `Diagnostic` (`mvt.bad-tile`), never a trap: every length is checked against what is left,
/// varints stop at 10 bytes, and every tag must index the layer's tables.
public struct MVTDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// The tile's layers in the order they appear.
    /// - Throws: `Diagnostic` `mvt.bad-tile` saying what is wrong and at which byte.
    public func decode(_ bytes: [UInt8]) throws -> [MVTLayer] {
        var reader = ProtobufReader(bytes[...])
        var layers = [MVTLayer]()
        while !reader.isAtEnd {
            let (field, wireType) = try reader.tag()
            if field == 3 && wireType == 2 {
                layers.append(try layer(reader.lengthDelimited()))
            } else {
                try reader.skip(wireType)
            }
        }
        return layers
    }

    private func layer(_ bytes: ArraySlice<UInt8>) throws -> MVTLayer {
        var reader = ProtobufReader(bytes)
        var name: String?
        var layer = MVTLayer(name: "", version: 1, extent: 4096)
        while !reader.isAtEnd {
            let (field, wireType) = try reader.tag()
            switch (field, wireType) {
            case (15, 0): layer.version = try reader.varint()
            case (1, 2): name = try reader.string()
            case (2, 2): layer.features.append(try feature(reader.lengthDelimited()))
            case (3, 2): layer.keys.append(try reader.string())
            case (4, 2): layer.values.append(try value(reader.lengthDelimited()))
            case (5, 0):
                let extent = try reader.varint()
                guard extent > 0 && extent <= UInt64(UInt32.max) else { throw ProtobufReader.failure("layer extent \(extent) is not 1…2³²−1") }
                layer.extent = UInt32(extent)
            default: try reader.skip(wireType)
            }
        }
        guard let name else { throw ProtobufReader.failure("a layer has no name") }
        layer.name = name
        for (index, feature) in layer.features.enumerated() {
            guard feature.tags.count % 2 == 0 else {
                throw ProtobufReader.failure("layer \(name) feature \(index) has an odd number of tags")
            }
            for position in stride(from: 0, to: feature.tags.count, by: 2) {
                guard Int(feature.tags[position]) < layer.keys.count, Int(feature.tags[position + 1]) < layer.values.count else {
                    throw ProtobufReader.failure("layer \(name) feature \(index) has a tag outside the key or value table")
                }
            }
        }
        return layer
    }

    private func feature(_ bytes: ArraySlice<UInt8>) throws -> MVTFeature {
        var reader = ProtobufReader(bytes)
        var feature = MVTFeature(id: nil, type: 0, tags: [], geometryBytes: [])
        while !reader.isAtEnd {
            let (field, wireType) = try reader.tag()
            switch (field, wireType) {
            case (1, 0): feature.id = try reader.varint()
            case (2, 2):
                var packed = ProtobufReader(try reader.lengthDelimited())
                while !packed.isAtEnd {
                    let tag = try packed.varint()
                    guard tag <= UInt64(UInt32.max) else { throw ProtobufReader.failure("tag \(tag) exceeds 32 bits") }
                    feature.tags.append(UInt32(tag))
                }
            case (3, 0): feature.type = try reader.varint()
            case (4, 2): feature.geometryBytes += try reader.lengthDelimited()
            default: try reader.skip(wireType)
            }
        }
        return feature
    }

    private func value(_ bytes: ArraySlice<UInt8>) throws -> MVTValue {
        var reader = ProtobufReader(bytes)
        var result: MVTValue?
        while !reader.isAtEnd {
            let (field, wireType) = try reader.tag()
            switch (field, wireType) {
            case (1, 2): result = .string(try reader.string())
            case (2, 5): result = .float(Float(bitPattern: try reader.fixed32()))
            case (3, 1): result = .double(Double(bitPattern: try reader.fixed64()))
            case (4, 0): result = .int(Int64(bitPattern: try reader.varint()))
            case (5, 0): result = .uint(try reader.varint())
            case (6, 0):
                let raw = try reader.varint()
                result = .sint(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
            case (7, 0): result = .bool(try reader.varint() != 0)
            default: try reader.skip(wireType)
            }
        }
        guard let result else { throw ProtobufReader.failure("a value holds none of the seven value types") }
        return result
    }
}

