/// A value of Thrift's compact protocol, decoded without a schema: the footer's structs are read
/// into this tree first, then the footer picks the fields it knows by id.
enum ThriftValue: Sendable {
    /// bool, byte, i16, i32, i64 (zigzag decoded).
    case integer(Int64)
    /// double.
    case double(Double)
    /// binary or string.
    case binary([UInt8])
    /// list or set.
    case list([ThriftValue])
    /// map, as key/value pairs.
    case map([(ThriftValue, ThriftValue)])
    /// struct: field id → value.
    case structure(ThriftStruct)

    /// The integer, if this is one.
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The bytes, if this is binary.
    var binary: [UInt8]? { if case .binary(let value) = self { value } else { nil } }
    /// The elements, if this is a list.
    var list: [ThriftValue]? { if case .list(let value) = self { value } else { nil } }
    /// The struct, if this is one.
    var structure: ThriftStruct? { if case .structure(let value) = self { value } else { nil } }
    /// The bytes as UTF-8 text, if this is binary.
    var string: String? { binary.map { String(decoding: $0, as: UTF8.self) } }
}

/// The fields of one Thrift struct, by field id.
struct ThriftStruct: Sendable {
    /// Fields in the order read (ids are unique in practice; the first wins).
    var fields: [(id: Int16, value: ThriftValue)] = []

    /// The field with this id.
    subscript(id: Int16) -> ThriftValue? { fields.first { $0.id == id }?.value }
    /// An integer field that fits `Int`.
    func int(_ id: Int16) -> Int? { self[id]?.integer.flatMap { Int(exactly: $0) } }
}

/// Decodes Thrift's compact protocol (as Parquet writes its footer and page headers). Depth is
/// bounded, and a list, map or binary may not declare more elements than the bytes left could
/// hold, so a lying length fails at once instead of allocating.
struct CompactThriftDecoder {
    /// Why a Thrift value cannot be read.
    struct Failure: Error { let reason: String }

    private let bytes: [UInt8]
    private(set) var position: Int
    private let maxDepth = 64

    /// A decoder at `position` of `bytes`.
    init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Reads one struct.
    mutating func readStruct() throws -> ThriftStruct {
        try readStruct(depth: 0)
    }

    private mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw Failure(reason: "Thrift data ends early at byte \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw Failure(reason: "Thrift varint longer than 10 bytes at byte \(position)") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    private mutating func zigzag() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    private mutating func length(minimumElementSize: Int) throws -> Int {
        let raw = try varint()
        let remaining = bytes.count - position
        guard raw <= UInt64(remaining / max(1, minimumElementSize)) else {
            throw Failure(reason: "Thrift length \(raw) at byte \(position) exceeds the \(remaining) bytes left")
        }
        return Int(raw)
    }

    private mutating func readStruct(depth: Int) throws -> ThriftStruct {
        guard depth < maxDepth else { throw Failure(reason: "Thrift structs nest deeper than \(maxDepth)") }
        var result = ThriftStruct()
        var lastID: Int16 = 0
        while true {
            let header = try byte()
            if header == 0 { return result }
            let type = header & 0x0F
            let delta = header >> 4
            let id: Int16
            if delta == 0 {
                let raw = try zigzag()
                guard let exact = Int16(exactly: raw) else { throw Failure(reason: "Thrift field id \(raw) out of range") }
                id = exact
            } else {
                id = lastID &+ Int16(delta)
            }
            lastID = id
            let value: ThriftValue
            switch type {
            case 1: value = .integer(1)
            case 2: value = .integer(0)
            default: value = try readValue(type: type, depth: depth + 1)
            }
            result.fields.append((id, value))
        }
    }

    private mutating func readValue(type: UInt8, depth: Int) throws -> ThriftValue {
        switch type {
        case 1, 2: // a bool in a list is a whole byte
            return .integer(try byte() == 1 ? 1 : 0)
        case 3: return .integer(Int64(Int8(bitPattern: try byte())))
        case 4, 5, 6: return .integer(try zigzag())
        case 7:
            guard bytes.count - position >= 8 else { throw Failure(reason: "Thrift double ends early") }
            var raw: UInt64 = 0
            for i in 0..<8 { raw |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += 8
            return .double(Double(bitPattern: raw))
        case 8:
            let count = try length(minimumElementSize: 1)
            defer { position += count }
            return .binary(Array(bytes[position..<(position + count)]))
        case 9, 10:
            let header = try byte()
            let elementType = header & 0x0F
            var count = Int(header >> 4)
            if count == 15 { count = try length(minimumElementSize: 1) }
            guard count <= bytes.count - position else { throw Failure(reason: "Thrift list of \(count) exceeds the bytes left") }
            var elements = [ThriftValue]()
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try readValue(type: elementType, depth: depth + 1)) }
            return .list(elements)
        case 11:
            let count = try length(minimumElementSize: 2)
            guard count > 0 else { return .map([]) }
            let types = try byte()
            var pairs = [(ThriftValue, ThriftValue)]()
            for _ in 0..<count {
                let key = try readValue(type: types >> 4, depth: depth + 1)
                pairs.append((key, try readValue(type: types & 0x0F, depth: depth + 1)))
            }
            return .map(pairs)
        case 12: return .structure(try readStruct(depth: depth))
        default: throw Failure(reason: "unknown Thrift type \(type) at byte \(position)")
        }
    }
}
