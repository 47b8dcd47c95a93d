import OverlayModel

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
