/// The working arrays an MLT tile's columns are built in, emptied and reused column after
/// column: a tile of the corpus's polygons holds about 50 columns of one or two values each,
/// and allocating and freeing ten small arrays per column cost more than writing the column.
/// One per tile (`MLTEncoder.encode`), so every tile is still encoded from its own content alone.
struct MLTColumnScratch {
    /// Whether each row has a value (nullable columns).
    var present = [Bool]()
    /// The present rows' cell numbers (string columns).
    var numbers = [UInt32]()
    /// The present rows' integers as bit patterns (integer columns).
    var values = [UInt64]()
    /// The present rows' flags (boolean columns).
    var flags = [Bool]()
    /// A string column's distinct cell numbers in first-use order, and the open-addressing
    /// table that finds them (`MLTStringDictionary`).
    var firsts = [UInt32]()
    var slots = [Int32]()
    /// Each present value's index among the distinct strings, and those strings.
    var indices = [UInt64]()
    var texts = [[UInt8]]()
    /// The plain encoding's lengths, and the dictionary's.
    var lengths = [UInt64]()
    var dictionaryLengths = [UInt64]()
    /// A boolean stream's packed bits and their run-length encoding.
    var packed = [UInt8]()
    var encoded = [UInt8]()
    /// FSST tables trained before, for tiles of a property table (nil: every table trained).
    var fsstTables: MLTFSSTTables?
    /// Whether text may be written FSST-compressed.
    var fsst = true

    /// Appends a boolean stream (present or data) with its header: the bits packed least
    /// significant first, then ORC byte RLE (`MLTWire.appendByteRLE`).
    mutating func appendBooleanStream(_ bits: [Bool], kind: MLTWire.PhysicalStream, to out: inout [UInt8]) {
        packed.removeAll(keepingCapacity: true)
        packed.append(contentsOf: repeatElement(0, count: (bits.count + 7) / 8))
        for (index, bit) in bits.enumerated() where bit { packed[index >> 3] |= 1 << UInt8(index & 7) }
        encoded.removeAll(keepingCapacity: true)
        MLTWire.appendByteRLE(packed, to: &encoded)
        MLTWire.StreamHeader(physicalStream: kind, logicalStream: 0, valueCount: bits.count, byteLength: encoded.count)
            .write(to: &out)
        out += encoded
    }
}
