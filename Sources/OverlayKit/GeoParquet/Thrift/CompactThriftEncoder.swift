/// Writes Thrift's compact protocol, the encoding of Parquet's footer and page headers: the
/// writer's side of ``CompactThriftDecoder``. A struct is written field by field in increasing
/// id order (`field(_:…)` calls), then closed with `endStruct()`; nested structs open with
/// `beginStruct(_:)`.
struct CompactThriftEncoder {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// The last field id of each open struct (the innermost last).
    private var lastIDs: [Int16] = [0]

    /// An empty encoder, inside the outermost struct.
    init() {}

    // Compact type ids.
    private static let boolTrue: UInt8 = 1, boolFalse: UInt8 = 2, i8: UInt8 = 3, i16: UInt8 = 4, i32: UInt8 = 5
    private static let i64: UInt8 = 6, double: UInt8 = 7, binary: UInt8 = 8, list: UInt8 = 9, structure: UInt8 = 12

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private mutating func zigzag(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    private mutating func header(_ id: Int16, type: UInt8) {
        let last = lastIDs[lastIDs.count - 1]
        let delta = Int(id) - Int(last)
        if delta > 0, delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type)
        } else {
            bytes.append(type)
            zigzag(Int64(id))
        }
        lastIDs[lastIDs.count - 1] = id
    }

    /// An i32 field (enums too).
    mutating func field(_ id: Int16, i32 value: Int32) {
        header(id, type: Self.i32)
        zigzag(Int64(value))
    }

    /// An i16 field.
    mutating func field(_ id: Int16, i16 value: Int16) {
        header(id, type: Self.i16)
        zigzag(Int64(value))
    }

    /// An i64 field.
    mutating func field(_ id: Int16, i64 value: Int64) {
        header(id, type: Self.i64)
        zigzag(value)
    }

    /// A bool field (the value is in the field header).
    mutating func field(_ id: Int16, bool value: Bool) {
        header(id, type: value ? Self.boolTrue : Self.boolFalse)
    }

    /// A double field (8 bytes, little-endian).
    mutating func field(_ id: Int16, double value: Double) {
        header(id, type: Self.double)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A binary field.
    mutating func field(_ id: Int16, binary value: [UInt8]) {
        header(id, type: Self.binary)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A string field (UTF-8).
    mutating func field(_ id: Int16, string value: String) {
        field(id, binary: Array(value.utf8))
    }

    /// A list<i32> field.
    mutating func field(_ id: Int16, i32List values: [Int32]) {
        header(id, type: Self.list)
        listHeader(count: values.count, elementType: Self.i32)
        for value in values { zigzag(Int64(value)) }
    }

    /// A list<string> field.
    mutating func field(_ id: Int16, stringList values: [String]) {
        header(id, type: Self.list)
        listHeader(count: values.count, elementType: Self.binary)
        for value in values {
            varint(UInt64(value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }
    }

    /// A list<struct> field: `body` writes each element's fields (its struct is opened and
    /// closed around it).
    mutating func field<Element>(_ id: Int16, structList elements: [Element], _ body: (inout CompactThriftEncoder, Element) -> Void) {
        header(id, type: Self.list)
        listHeader(count: elements.count, elementType: Self.structure)
        for element in elements {
            lastIDs.append(0)
            body(&self, element)
            endStruct()
        }
    }

    private mutating func listHeader(count: Int, elementType: UInt8) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType)
        } else {
            bytes.append(0xF0 | elementType)
            varint(UInt64(count))
        }
    }

    /// Appends fields encoded by another encoder (a struct's body without its stop byte), for a
    /// struct built apart and placed later; they must be the whole of the enclosing struct.
    mutating func appendFields<Bytes: Sequence>(_ fields: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: fields)
    }

    /// Opens a struct field; close it with ``endStruct()``.
    mutating func beginStruct(_ id: Int16) {
        header(id, type: Self.structure)
        lastIDs.append(0)
    }

    /// Closes the innermost struct (its stop byte); at the outermost level, ends the message.
    mutating func endStruct() {
        bytes.append(0)
        if lastIDs.count > 1 { lastIDs.removeLast() }
    }
}
