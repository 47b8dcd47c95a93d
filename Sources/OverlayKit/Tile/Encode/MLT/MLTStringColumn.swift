/// String streams of MapLibre Tiles: plain (lengths and bytes), a dictionary (distinct strings
/// once, an index per value), or an FSST-compressed dictionary; the smallest is written. The
/// candidates are sized from their streams' plans (`MLTIntegerStream.plan`) and only the one
/// chosen is written.
enum MLTStringColumn {
    /// Appends the stream count, the present stream (when `present` is given) and the string
    /// streams of `values` (the present ones, in feature order), built in `scratch`.
    static func append(_ values: [[UInt8]], present: [Bool]?, scratch: inout MLTColumnScratch, to out: inout [UInt8]) {
        let (distinct, indices) = MLTStringDictionary.build(values)
        append(distinct: distinct, indices: indices, present: present, scratch: &scratch, to: &out)
    }

    /// The same for texts given as cell numbers where equal texts have equal numbers (a property
    /// table's values): the dictionary is found by number, with no hashing of bytes.
    static func append(numbers: [UInt32], cells: [MLTPropertyColumn.Cell], present: [Bool]?,
                       scratch: inout MLTColumnScratch, to out: inout [UInt8]) {
        MLTStringDictionary.build(numbers: numbers, distinct: &scratch.firsts, indices: &scratch.indices, slots: &scratch.slots)
        scratch.texts.removeAll(keepingCapacity: true)
        for number in scratch.firsts { scratch.texts.append(cells[Int(number)].text) }
        append(distinct: scratch.texts, indices: scratch.indices, present: present, scratch: &scratch, to: &out)
    }

    /// The values `distinct[indices[i]]`, written as the smallest of the three encodings.
    private static func append(distinct: [[UInt8]], indices: [UInt64], present: [Bool]?,
                               scratch: inout MLTColumnScratch, to out: inout [UInt8]) {
        var plainBytes = 0
        scratch.lengths.removeAll(keepingCapacity: true)
        for index in indices {
            let length = distinct[Int(index)].count
            scratch.lengths.append(UInt64(length))
            plainBytes += length
        }
        let lengths = scratch.lengths
        let valueCount = indices.count
        let lengthsPlan = MLTIntegerStream.plan(lengths, signed: false)
        var (streams, best) = (2, lengthsPlan.byteCount + dataStreamBytes(count: valueCount, bytes: plainBytes))

        var distinctBytes = 0
        scratch.dictionaryLengths.removeAll(keepingCapacity: true)
        for string in distinct {
            scratch.dictionaryLengths.append(UInt64(string.count))
            distinctBytes += string.count
        }
        let dictionaryLengths = scratch.dictionaryLengths
        // The dictionary's streams are sized only when a dictionary (plain or FSST) may be written.
        let dictionaryMayWin = distinct.count < valueCount || distinctBytes >= 256
        let dictionaryLengthsPlan = MLTIntegerStream.plan(dictionaryMayWin ? dictionaryLengths : [], signed: false)
        let indicesPlan = MLTIntegerStream.plan(dictionaryMayWin ? indices : [], signed: false)
        if distinct.count < valueCount {
            let size = dictionaryLengthsPlan.byteCount + indicesPlan.byteCount
                + dataStreamBytes(count: distinct.count, bytes: distinctBytes)
            if size < best { (streams, best) = (3, size) }
        }
        // FSST pays only on text long enough to hold repeated pieces beyond its table's cost.
        var fsst: (table: MLTFSST, symbolLengths: [UInt64], plan: MLTIntegerStream.Plan, corpus: [UInt8])?
        if scratch.fsst && distinctBytes >= 256 {
            let table = scratch.fsstTables?.table(training: distinct) ?? MLTFSST(training: distinct)
            var corpus = [UInt8]()
            corpus.reserveCapacity(distinctBytes)
            for string in distinct { table.compress(string, into: &corpus) }
            if !table.symbolLengths.isEmpty {
                if corpus.count + table.symbolBytes.count + table.symbolLengths.count < distinctBytes {
                    let symbolLengths = table.symbolLengths.map(UInt64.init)
                    let symbolPlan = MLTIntegerStream.plan(symbolLengths, signed: false)
                    let size = symbolPlan.byteCount + dataStreamBytes(count: symbolLengths.count, bytes: table.symbolBytes.count)
                        + dictionaryLengthsPlan.byteCount + dataStreamBytes(count: distinct.count, bytes: corpus.count)
                        + indicesPlan.byteCount
                    if size < best {
                        (streams, best) = (5, size)
                        fsst = (table, symbolLengths, symbolPlan, corpus)
                    }
                }
            }
        }
        MLTWire.appendVarint(UInt64(streams + (present == nil ? 0 : 1)), to: &out)
        if let present { scratch.appendBooleanStream(present, kind: .present, to: &out) }
        if let fsst {
            MLTIntegerStream.append(fsst.symbolLengths, signed: false, plan: fsst.plan, kind: .length,
                                    logicalStream: MLTWire.LengthKind.symbol.rawValue, to: &out)
            MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.fsst.rawValue,
                                 valueCount: fsst.symbolLengths.count, byteLength: fsst.table.symbolBytes.count).write(to: &out)
            out += fsst.table.symbolBytes
            MLTIntegerStream.append(dictionaryLengths, signed: false, plan: dictionaryLengthsPlan, kind: .length,
                                    logicalStream: MLTWire.LengthKind.dictionary.rawValue, to: &out)
            MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.single.rawValue,
                                 valueCount: distinct.count, byteLength: fsst.corpus.count).write(to: &out)
            out += fsst.corpus
            MLTIntegerStream.append(indices, signed: false, plan: indicesPlan, kind: .offset,
                                    logicalStream: MLTWire.OffsetKind.string.rawValue, to: &out)
        } else if streams == 3 {
            MLTIntegerStream.append(dictionaryLengths, signed: false, plan: dictionaryLengthsPlan, kind: .length,
                                    logicalStream: MLTWire.LengthKind.dictionary.rawValue, to: &out)
            MLTIntegerStream.append(indices, signed: false, plan: indicesPlan, kind: .offset,
                                    logicalStream: MLTWire.OffsetKind.string.rawValue, to: &out)
            appendBytes(distinct, byteCount: distinctBytes, kind: .single, to: &out)
        } else {
            MLTIntegerStream.append(lengths, signed: false, plan: lengthsPlan, kind: .length,
                                    logicalStream: MLTWire.LengthKind.varBinary.rawValue, to: &out)
            MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.none.rawValue,
                                 valueCount: valueCount, byteLength: plainBytes).write(to: &out)
            for index in indices { out += distinct[Int(index)] }
        }
    }

    /// The bytes of a data stream of `count` strings of `bytes` bytes in all, header included.
    private static func dataStreamBytes(count: Int, bytes: Int) -> Int {
        2 + MLTWire.varintSize(UInt64(count)) + MLTWire.varintSize(UInt64(bytes)) + bytes
    }

    private static func appendBytes(_ strings: [[UInt8]], byteCount: Int, kind: MLTWire.DictionaryKind,
                                    to out: inout [UInt8]) {
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: kind.rawValue, valueCount: strings.count,
                             byteLength: byteCount).write(to: &out)
        for string in strings { out += string }
    }

    /// Reads `streams` string streams (the present stream already read) into the present values.
    static func read(_ reader: inout MLTWire.Reader, streams: Int) throws -> [String] {
        var offsets: [UInt64]?, dictionaryLengths: [UInt64]?, otherLengths: [UInt64]?
        var dictionaryBytes: ArraySlice<UInt8>?, symbolBytes: ArraySlice<UInt8>?, plainBytes: ArraySlice<UInt8>?
        for _ in 0..<streams {
            let header = try MLTWire.StreamHeader.read(&reader)
            switch header.physicalStream {
            case .offset: offsets = try MLTIntegerStream.read(&reader, header: header, signed: false)
            case .length:
                let values = try MLTIntegerStream.read(&reader, header: header, signed: false)
                if header.logicalStream == MLTWire.LengthKind.dictionary.rawValue { dictionaryLengths = values } else { otherLengths = values }
            case .data:
                let bytes = try reader.take(header.byteLength)
                switch MLTWire.DictionaryKind(rawValue: header.logicalStream) {
                case .single, .shared: dictionaryBytes = bytes
                case .fsst: symbolBytes = bytes
                default: plainBytes = bytes
                }
            case .present: throw reader.failure("a second present stream in a string column")
            }
        }
        func split(_ bytes: ArraySlice<UInt8>, _ lengths: [UInt64]) throws -> [String] {
            var strings = [String](), start = bytes.startIndex
            strings.reserveCapacity(lengths.count)
            for length in lengths {
                guard length <= UInt64(bytes.endIndex - start) else { throw reader.failure("string lengths exceed their bytes") }
                strings.append(String(decoding: bytes[start..<start + Int(length)], as: UTF8.self))
                start += Int(length)
            }
            return strings
        }
        if let dictionaryBytes, let dictionaryLengths {
            var bytes = dictionaryBytes
            if let symbolBytes, let symbolLengths = otherLengths {
                bytes = try MLTFSST.decompress(dictionaryBytes, symbolBytes: symbolBytes, symbolLengths: symbolLengths,
                                               reader: reader)[...]
            }
            let dictionary = try split(bytes, dictionaryLengths)
            guard let offsets else { return dictionary }
            return try offsets.map { offset in
                guard offset < UInt64(dictionary.count) else { throw reader.failure("string index \(offset) beyond the dictionary") }
                return dictionary[Int(offset)]
            }
        }
        if let plainBytes, let otherLengths { return try split(plainBytes, otherLengths) }
        throw reader.failure("a string column without its data")
    }
}
