import OverlayModel

/// A feature's id and properties as compact bytes for a `RecordFile`, read back exactly: an
/// integer stays an integer and a number a number (JSON text would turn `1.0` into `1`, which
/// MVT stores differently), members keep their order and duplicates.
///
/// Each value is a tag byte and its payload: 0 null, 1 false, 2 true, 3 i64, 4 f64,
/// 5 string (u32 length, UTF-8), 6 array (u32 count, values), 7 object (u32 count, then
/// key strings and values). The attributes are a presence byte (bit 0 id, bit 1 properties,
/// bit 2 the id is the input position: generated ids are not stored), then the id, then the
/// properties as an object.
enum AttributeCodec {
    /// Nesting deeper than this is not read back (the parsers bound it far lower).
    static let maximumDepth = 4096

    /// Appends `attributes`; with `generatedID` the id is not stored but read back as the
    /// input position.
    static func append(_ attributes: TileAttributes, generatedID: Bool, to out: inout [UInt8]) {
        if generatedID {
            out.append(4 | (attributes.properties == nil ? 0 : 2))
        } else {
            out.append((attributes.id == nil ? 0 : 1) | (attributes.properties == nil ? 0 : 2))
            if let id = attributes.id { append(id, to: &out) }
        }
        if let properties = attributes.properties { append(.object(properties), to: &out) }
    }

    /// The attributes in `bytes` from `offset` (as written by `append`) of input position `source`.
    static func attributes(_ bytes: UnsafeRawBufferPointer, at offset: Int, source: Int) -> TileAttributes {
        var at = offset
        let presence = bytes[at]
        at += 1
        var id = presence & 1 != 0 ? value(bytes, &at, depth: 0) : nil
        if presence & 4 != 0 { id = .integer(Int64(source)) }
        var properties: JSONObject?
        if presence & 2 != 0, case .object(let object) = value(bytes, &at, depth: 0) { properties = object }
        return TileAttributes(id: id, properties: properties)
    }

    private static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(0)
        case .bool(let flag): out.append(flag ? 2 : 1)
        case .integer(let number):
            out.append(3)
            withUnsafeBytes(of: number.littleEndian) { out.append(contentsOf: $0) }
        case .number(let number):
            out.append(4)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .string(let text):
            out.append(5)
            appendString(text, to: &out)
        case .array(let values):
            out.append(6)
            appendCount(values.count, to: &out)
            for element in values { append(element, to: &out) }
        case .object(let object):
            out.append(7)
            appendCount(object.members.count, to: &out)
            for member in object.members {
                appendString(member.key, to: &out)
                append(member.value, to: &out)
            }
        }
    }

    private static func appendCount(_ count: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(count).littleEndian) { out.append(contentsOf: $0) }
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            appendCount(utf8.count, to: &out)
            out.append(contentsOf: utf8)
        }
    }

    private static func value(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, depth: Int) -> JSONValue {
        let tag = bytes[at]
        at += 1
        func count() -> Int {
            defer { at += 4 }
            return Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        }
        func string() -> String {
            let length = count()
            defer { at += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<at + length]), as: UTF8.self)
        }
        switch tag {
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3:
            defer { at += 8 }
            return .integer(bytes.loadUnaligned(fromByteOffset: at, as: Int64.self))
        case 4:
            defer { at += 8 }
            return .number(Double(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
        case 5: return .string(string())
        case 6 where depth < maximumDepth:
            let elements = count()
            var values = [JSONValue]()
            values.reserveCapacity(elements)
            for _ in 0..<elements { values.append(value(bytes, &at, depth: depth + 1)) }
            return .array(values)
        case 7 where depth < maximumDepth:
            let members = count()
            var object = [JSONObject.Member]()
            object.reserveCapacity(members)
            for _ in 0..<members {
                let key = string()
                object.append(JSONObject.Member(key: key, value: value(bytes, &at, depth: depth + 1)))
            }
            return .object(JSONObject(object))
        default: return .null
        }
    }
}
