/// The few protobuf wire-format pieces a vector tile needs: varints, zigzag, tags and
/// length-delimited fields. Written by hand to keep the package free of dependencies.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        Self.appendVarint(value, to: &bytes)
    }

    /// `value` as a base-128 varint (seven bits a byte, lowest first): protobuf's, and MLT's streams'.
    @inline(__always)
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    mutating func tag(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    mutating func bytesField(_ field: UInt64, _ value: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func stringField(_ field: UInt64, _ value: String) { bytesField(field, Array(value.utf8)) }

    mutating func doubleField(_ field: UInt64, _ value: Double) {
        tag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// A packed repeated varint field.
    mutating func packedField(_ field: UInt64, _ values: [UInt32]) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(UInt64(value)) }
        bytesField(field, inner.bytes)
    }
}
