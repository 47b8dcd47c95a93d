/// One leaf column of the schema: its physical type and the levels that place its values.
struct ParquetLeaf: Sendable {
    /// The leaf's path from the root (the column chunk's `path_in_schema`).
    var path: [String]
    /// The leaf's schema element.
    var element: ParquetFooter.SchemaElement
    /// The highest definition level (a value is present at this level).
    var maxDefinition: Int
    /// The highest repetition level.
    var maxRepetition: Int
}

/// A column chunk's levels and values, every page decoded.
struct ColumnChunkData: Sendable {
    /// One definition level per entry (empty when the leaf's maximum is 0: every entry defined).
    var definitions: [Int32] = []
    /// One repetition level per entry (empty when the leaf's maximum is 0).
    var repetitions: [Int32] = []
    /// The entries' present values, in order.
    var values: ParquetValues
    /// How many entries (level pairs) the chunk holds.
    var entryCount = 0
}

/// Reads the pages of one column chunk: page headers (compact Thrift), dictionary pages, data
/// pages v1 and v2, each page decompressed to its declared size (at most ``maxPageSize``).
enum ColumnChunkReader {
    /// The largest uncompressed page read (writers use about 1 MiB).
    static let maxPageSize = 256 << 20
    /// The most values one page may declare: RLE levels can hold many values in few bytes, so
    /// the declared count is bounded on its own (writers put at most about 20,000 in a page).
    static let maxPageValues = 1 << 24

    /// The chunk's data from its bytes (`bytes` starts at the chunk's first page). With
    /// `wholeChunk` false, `bytes` are some of its pages (the dictionary page first, when it has
    /// one), read to their end: together they may hold no more than `valueCount` values.
    static func read(_ bytes: [UInt8], leaf: ParquetLeaf, codec rawCodec: Int, valueCount: Int,
                     wholeChunk: Bool = true) throws -> ColumnChunkData {
        guard let codec = ParquetCodec(rawValue: rawCodec) else { throw ParquetDecodingFailure(reason: "unknown codec \(rawCodec)") }
        let type = leaf.element.physicalType ?? .byteArray
        var data = ColumnChunkData(values: ParquetValues(type: type))
        var dictionary: ParquetValues?
        var position = 0
        while data.entryCount < valueCount || !wholeChunk, position < bytes.count {
            var decoder = CompactThriftDecoder(bytes, position: position)
            let header: ThriftStruct
            do { header = try decoder.readStruct() } catch let failure as CompactThriftDecoder.Failure {
                throw ParquetDecodingFailure(reason: "a page header: \(failure.reason)")
            }
            position = decoder.position
            guard let pageType = header.int(1), let size = header.int(2), let compressed = header.int(3),
                  size >= 0, compressed >= 0 else { throw ParquetDecodingFailure(reason: "a page header lacks its type or sizes") }
            guard compressed <= bytes.count - position else {
                throw ParquetDecodingFailure(reason: "a page of \(compressed) bytes runs past its column chunk")
            }
            guard size <= maxPageSize else {
                throw ParquetDecodingFailure(reason: "a page declares \(size) bytes uncompressed, more than the \(maxPageSize) read")
            }
            let body = bytes[position..<(position + compressed)]
            position += compressed
            switch pageType {
            case 2:
                guard let dict = header[7]?.structure, let count = dict.int(1), count >= 0 else {
                    throw ParquetDecodingFailure(reason: "a dictionary page lacks its header")
                }
                let page = try decompress(codec, body, size: size)
                var values = ParquetValues(type: type)
                try PlainDecoder.decode(page[...], count: count, typeLength: leaf.element.typeLength, into: &values)
                dictionary = values
            case 0:
                guard let page = header[5]?.structure, let count = page.int(1), count >= 0, let encoding = page.int(2) else {
                    throw ParquetDecodingFailure(reason: "a data page lacks its header")
                }
                try checkValueCount(count, left: valueCount - data.entryCount)
                let plain = try decompress(codec, body, size: size)
                var offset = 0
                func levels(_ maximum: Int) throws -> [Int32] {
                    guard maximum > 0 else { return [] }
                    guard plain.count - offset >= 4 else { throw ParquetDecodingFailure(reason: "a data page's levels run past it") }
                    let length = Int(plain[offset]) | Int(plain[offset + 1]) << 8 | Int(plain[offset + 2]) << 16 | Int(plain[offset + 3]) << 24
                    offset += 4
                    guard length <= plain.count - offset else { throw ParquetDecodingFailure(reason: "a data page's levels run past it") }
                    defer { offset += length }
                    return try RLEHybridDecoder.decode(plain[offset..<(offset + length)], bitWidth: bitWidth(maximum), count: count)
                }
                let repetitions = try levels(leaf.maxRepetition)
                let definitions = try levels(leaf.maxDefinition)
                try append(count: count, repetitions: repetitions, definitions: definitions, encoding: encoding,
                           values: plain[offset...], leaf: leaf, dictionary: dictionary, to: &data)
            case 3:
                guard let page = header[8]?.structure, let count = page.int(1), count >= 0, let encoding = page.int(4),
                      let definitionLength = page.int(5), let repetitionLength = page.int(6),
                      definitionLength >= 0, repetitionLength >= 0, definitionLength + repetitionLength <= min(compressed, size) else {
                    throw ParquetDecodingFailure(reason: "a data page (v2) lacks its header or its level lengths run past it")
                }
                try checkValueCount(count, left: valueCount - data.entryCount)
                let start = body.startIndex
                let repetitions = leaf.maxRepetition > 0
                    ? try RLEHybridDecoder.decode(body[start..<(start + repetitionLength)], bitWidth: bitWidth(leaf.maxRepetition), count: count) : []
                let definitions = leaf.maxDefinition > 0
                    ? try RLEHybridDecoder.decode(body[(start + repetitionLength)..<(start + repetitionLength + definitionLength)],
                                                  bitWidth: bitWidth(leaf.maxDefinition), count: count) : []
                let rest = body[(start + repetitionLength + definitionLength)...]
                let isCompressed = page[7]?.integer ?? 1 != 0
                let valueBytes = try decompress(isCompressed ? codec : .uncompressed, rest, size: size - repetitionLength - definitionLength)
                try append(count: count, repetitions: repetitions, definitions: definitions, encoding: encoding,
                           values: valueBytes[...], leaf: leaf, dictionary: dictionary, to: &data)
            default:
                continue // index pages and unknown pages are skipped
            }
        }
        guard data.entryCount == valueCount || !wholeChunk else {
            throw ParquetDecodingFailure(reason: "the column chunk holds \(data.entryCount) values, not the \(valueCount) its metadata declares")
        }
        return data
    }

    /// A page may hold no more values than the chunk has left, nor more than ``maxPageValues``.
    private static func checkValueCount(_ count: Int, left: Int) throws {
        guard count <= left, count <= maxPageValues else {
            throw ParquetDecodingFailure(reason: "a page declares \(count) values where the column chunk has \(left) left (at most \(maxPageValues) a page)")
        }
    }

    /// Bits needed for levels up to `maximum`.
    static func bitWidth(_ maximum: Int) -> Int { maximum == 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount }

    private static func decompress(_ codec: ParquetCodec, _ body: ArraySlice<UInt8>, size: Int) throws -> [UInt8] {
        do { return try codec.decompress(body, size: size) } catch let failure as ParquetCodec.Failure {
            throw ParquetDecodingFailure(reason: failure.reason)
        }
    }

    private static func append(count: Int, repetitions: [Int32], definitions: [Int32], encoding: Int, values bytes: ArraySlice<UInt8>,
                               leaf: ParquetLeaf, dictionary: ParquetValues?, to data: inout ColumnChunkData) throws {
        let present = leaf.maxDefinition == 0 ? count : definitions.reduce(0) { $0 + ($1 == Int32(leaf.maxDefinition) ? 1 : 0) }
        let before = data.values.count
        switch encoding {
        case 0:
            try PlainDecoder.decode(bytes, count: present, typeLength: leaf.element.typeLength, into: &data.values)
        case 2, 8:
            guard let dictionary else { throw ParquetDecodingFailure(reason: "a dictionary-encoded page without a dictionary page") }
            guard let width = bytes.first else {
                guard present == 0 else { throw ParquetDecodingFailure(reason: "a dictionary-encoded page without indexes") }
                break
            }
            let indexes = try RLEHybridDecoder.decode(bytes.dropFirst(), bitWidth: Int(width), count: present)
            for index in indexes {
                guard index >= 0, Int(index) < dictionary.count else {
                    throw ParquetDecodingFailure(reason: "dictionary index \(index) is out of range (the dictionary holds \(dictionary.count) values)")
                }
                data.values.append(from: dictionary, at: Int(index))
            }
        case 3 where data.values.type == .boolean:
            guard bytes.count >= 4 else { throw ParquetDecodingFailure(reason: "RLE booleans without their length") }
            let bits = try RLEHybridDecoder.decode(bytes.dropFirst(4), bitWidth: 1, count: present)
            data.values.booleans.append(contentsOf: bits.map { $0 != 0 })
        case 5:
            let decoded = try DeltaBinaryPackedDecoder.decode(bytes, maxCount: present).values
            switch data.values.type {
            case .int32: data.values.int32s.append(contentsOf: decoded.map { Int32(truncatingIfNeeded: $0) })
            case .int64: data.values.int64s.append(contentsOf: decoded)
            default: throw ParquetDecodingFailure(reason: "DELTA_BINARY_PACKED values in a \(data.values.type) column")
            }
        case 6:
            try DeltaByteArrayDecoder.decodeLengths(bytes, maxCount: present, into: &data.values)
        case 7:
            try DeltaByteArrayDecoder.decodeIncremental(bytes, maxCount: present, into: &data.values)
        case 9:
            try ByteStreamSplitDecoder.decode(bytes, count: present, typeLength: leaf.element.typeLength, into: &data.values)
        default:
            throw ParquetDecodingFailure(reason: "encoding \(encoding) is not read")
        }
        guard data.values.count - before == present else {
            throw ParquetDecodingFailure(reason: "a page holds \(data.values.count - before) values where its levels place \(present)")
        }
        if leaf.maxDefinition > 0 { data.definitions.append(contentsOf: definitions) }
        if leaf.maxRepetition > 0 { data.repetitions.append(contentsOf: repetitions) }
        data.entryCount += count
    }
}
