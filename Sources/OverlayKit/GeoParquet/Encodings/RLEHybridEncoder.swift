/// Parquet's RLE/bit-packed hybrid encoding of small integers (definition and repetition
/// levels), the writer's side of ``RLEHybridDecoder``: values are taken in groups of eight; a
/// run of identical groups becomes one RLE run, mixed groups are bit-packed together. The bytes
/// carry no length prefix (a data page v1 puts a 4-byte one before them).
struct RLEHybridEncoder {
    /// The number of bits each value takes (1 for a level of at most 1, …).
    let bitWidth: Int
    /// The encoded bytes so far (complete only after ``finish()``).
    private(set) var bytes: [UInt8] = []
    private var group: [UInt32] = []
    /// Bit-packed groups waiting for their run header.
    private var literal: [UInt32] = []
    /// The value and length of the RLE run being counted.
    private var runValue: UInt32 = 0
    private var runCount = 0

    /// An encoder of values of `bitWidth` bits (0 writes nothing: every value is 0).
    init(bitWidth: Int) {
        self.bitWidth = bitWidth
        group.reserveCapacity(8)
    }

    /// The bits a value of at most `maximum` needs.
    static func bitWidth(forMaximum maximum: Int) -> Int {
        maximum <= 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount
    }

    /// Appends one value (it must fit `bitWidth` bits).
    mutating func append(_ value: UInt32) {
        guard bitWidth > 0 else { return }
        // Extend a run one value at a time once it is established (and no literal is half full).
        if runCount >= 8, group.isEmpty, value == runValue {
            runCount += 1
            return
        }
        group.append(value)
        if group.count == 8 { takeGroup() }
    }

    private mutating func takeGroup() {
        let first = group[0]
        if group.allSatisfy({ $0 == first }) {
            if runCount > 0, runValue == first {
                runCount += 8
            } else {
                flushRun()
                flushLiteral()
                runValue = first
                runCount = 8
            }
        } else {
            flushRun()
            literal += group
        }
        group.removeAll(keepingCapacity: true)
    }

    private mutating func flushRun() {
        guard runCount > 0 else { return }
        varint(UInt64(runCount) << 1)
        var value = runValue
        for _ in 0..<((bitWidth + 7) / 8) {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
        runCount = 0
    }

    private mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        let groups = (literal.count + 7) / 8
        varint(UInt64(groups) << 1 | 1)
        var accumulator: UInt64 = 0
        var bits = 0
        for index in 0..<(groups * 8) {
            let value = index < literal.count ? UInt64(literal[index]) : 0
            accumulator |= value << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
        literal.removeAll(keepingCapacity: true)
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Writes what is pending: a last partial group joins the literal run (padded with zeros,
    /// which the reader's value count leaves unread), or extends a run of its value.
    mutating func finish() {
        if !group.isEmpty {
            if group.allSatisfy({ $0 == group[0] }) {
                if runCount > 0, runValue == group[0] {
                    runCount += group.count
                } else {
                    flushRun()
                    flushLiteral()
                    runValue = group[0]
                    runCount = group.count
                }
            } else {
                flushRun()
                literal += group
            }
            group.removeAll()
        }
        flushRun()
        flushLiteral()
    }
}
