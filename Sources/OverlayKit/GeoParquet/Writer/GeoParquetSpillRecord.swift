import OverlayModel

/// One feature as the writer's first pass leaves it in the spill, in a compact binary form the
/// second pass reads back: its id, properties (unique names, style and circle radius already
/// added), folder path, WKB geometry with its WKB type code and box. Numbers are kept exact
/// (8 bytes each).
struct GeoParquetSpillRecord {
    var id: FeatureID?
    var properties: JSONObject
    var folders: [String]
    /// The WKB bytes, nil for a feature without geometry.
    var geometry: [UInt8]?
    /// The ISO WKB type code (0 without geometry).
    var typeCode: UInt32
    /// The geometry's box (empty without geometry).
    var bounds: WKBWriter.GeometryBounds

    /// Why spilled bytes do not read back (a damaged temporary file).
    struct Failure: Error {}

    /// Appends the record's bytes to `out`.
    func encode(into out: inout [UInt8]) {
        var writer = Writer(bytes: out)
        out = []
        switch id {
        case nil: writer.byte(0)
        case .string(let text)?: writer.byte(1); writer.string(text)
        case .integer(let value)?: writer.byte(2); writer.u64(UInt64(bitPattern: value))
        case .number(let value)?: writer.byte(3); writer.u64(value.bitPattern)
        }
        writer.u32(UInt32(folders.count))
        for folder in folders { writer.string(folder) }
        if let geometry {
            writer.u32(typeCode)
            writer.u32(UInt32(geometry.count))
            writer.bytes += geometry
            for value in [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY, bounds.minZ, bounds.maxZ] { writer.u64(value.bitPattern) }
        } else {
            writer.u32(0)
        }
        writer.object(properties)
        out = writer.bytes
    }

    /// The record in `bytes`.
    /// - Throws: `Failure` when the bytes are not a record.
    init(decoding bytes: ArraySlice<UInt8>) throws {
        var reader = Reader(bytes: bytes, position: bytes.startIndex)
        switch try reader.byte() {
        case 0: id = nil
        case 1: id = .string(try reader.string())
        case 2: id = .integer(Int64(bitPattern: try reader.u64()))
        case 3: id = .number(Double(bitPattern: try reader.u64()))
        default: throw Failure()
        }
        folders = try (0..<Int(try reader.u32())).map { _ in try reader.string() }
        typeCode = try reader.u32()
        bounds = WKBWriter.GeometryBounds()
        if typeCode != 0 {
            let count = Int(try reader.u32())
            geometry = Array(try reader.take(count))
            bounds.minX = Double(bitPattern: try reader.u64())
            bounds.minY = Double(bitPattern: try reader.u64())
            bounds.maxX = Double(bitPattern: try reader.u64())
            bounds.maxY = Double(bitPattern: try reader.u64())
            bounds.minZ = Double(bitPattern: try reader.u64())
            bounds.maxZ = Double(bitPattern: try reader.u64())
        } else {
            geometry = nil
        }
        properties = try reader.object(depth: 0)
    }

    /// A record from its parts.
    init(id: FeatureID?, properties: JSONObject, folders: [String], geometry: [UInt8]?, typeCode: UInt32, bounds: WKBWriter.GeometryBounds) {
        self.id = id
        self.properties = properties
        self.folders = folders
        self.geometry = geometry
        self.typeCode = typeCode
        self.bounds = bounds
    }

    private struct Writer {
        var bytes: [UInt8]
        mutating func byte(_ value: UInt8) { bytes.append(value) }
        mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func string(_ text: String) {
            u32(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }
        mutating func object(_ object: JSONObject) {
            u32(UInt32(object.members.count))
            for member in object.members {
                string(member.key)
                value(member.value)
            }
        }
        mutating func value(_ value: JSONValue) {
            switch value {
            case .null: byte(0)
            case .bool(let flag): byte(flag ? 2 : 1)
            case .integer(let number): byte(3); u64(UInt64(bitPattern: number))
            case .number(let number): byte(4); u64(number.bitPattern)
            case .string(let text): byte(5); string(text)
            case .array(let elements):
                byte(6)
                u32(UInt32(elements.count))
                for element in elements { self.value(element) }
            case .object(let members): byte(7); object(members)
            }
        }
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int
        mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.endIndex - position else { throw Failure() }
            defer { position += count }
            return bytes[position..<(position + count)]
        }
        mutating func byte() throws -> UInt8 { try take(1).first! }
        mutating func u32() throws -> UInt32 {
            try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        mutating func u64() throws -> UInt64 {
            try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        mutating func string() throws -> String {
            String(decoding: try take(Int(try u32())), as: UTF8.self)
        }
        mutating func object(depth: Int) throws -> JSONObject {
            let count = Int(try u32())
            var object = JSONObject()
            object.members.reserveCapacity(min(count, 1 << 16))
            for _ in 0..<count {
                let key = try string()
                object.members.append(.init(key: key, value: try value(depth: depth + 1)))
            }
            return object
        }
        mutating func value(depth: Int) throws -> JSONValue {
            switch try byte() {
            case 0: return .null
            case 1: return .bool(false)
            case 2: return .bool(true)
            case 3: return .integer(Int64(bitPattern: try u64()))
            case 4: return .number(Double(bitPattern: try u64()))
            case 5: return .string(try string())
            case 6:
                let count = Int(try u32())
                var elements = [JSONValue]()
                for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case 7: return .object(try object(depth: depth))
            default: throw Failure()
            }
        }
    }
}
