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

/// Reads protobuf wire format from a byte slice, bounds-checked.
struct ProtobufReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var isAtEnd: Bool { position >= bytes.endIndex }

    static func failure(_ message: String) -> Diagnostic {
        Diagnostic(.error, code: .mvtBadTile, message: "not a valid vector tile: \(message)")
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard position < bytes.endIndex else { throw Self.failure("varint cut off at byte \(position - bytes.startIndex)") }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw Self.failure("varint longer than 64 bits at byte \(position - bytes.startIndex)") }
            result |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { return result }
        }
        throw Self.failure("varint longer than 10 bytes at byte \(position - bytes.startIndex)")
    }

    mutating func tag() throws -> (field: UInt64, wireType: UInt64) {
        let key = try varint()
        guard key >> 3 > 0 else { throw Self.failure("field number 0 at byte \(position - bytes.startIndex)") }
        return (key >> 3, key & 7)
    }

    mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
        let length = try varint()
        guard length <= UInt64(bytes.endIndex - position) else {
            throw Self.failure("a field of \(length) bytes runs past the end at byte \(position - bytes.startIndex)")
        }
        let start = position
        position += Int(length)
        return bytes[start..<position]
    }

    mutating func string() throws -> String {
        let slice = try lengthDelimited()
        guard let text = String(validating: slice, as: UTF8.self) else { throw Self.failure("a string is not UTF-8") }
        return text
    }

    mutating func fixed64() throws -> UInt64 { try fixed(UInt64.self) }

    mutating func fixed32() throws -> UInt32 { try fixed(UInt32.self) }

    /// A little-endian fixed-width field (protobuf's fixed32/fixed64).
    private mutating func fixed<Value: FixedWidthInteger & UnsignedInteger>(_: Value.Type) throws -> Value {
        let size = Value.bitWidth / 8
        guard bytes.endIndex - position >= size else { throw Self.failure("a \(Value.bitWidth)-bit field is cut off") }
        var value: Value = 0
        for index in 0..<size { value |= Value(bytes[position + index]) << Value(8 * index) }
        position += size
        return value
    }

    /// Skips a field of an unknown number; groups (wire types 3, 4) are refused.
    mutating func skip(_ wireType: UInt64) throws {
        switch wireType {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        default: throw Self.failure("unsupported wire type \(wireType) at byte \(position - bytes.startIndex)")
        }
    }
}
