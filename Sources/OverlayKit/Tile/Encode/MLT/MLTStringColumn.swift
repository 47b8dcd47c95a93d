/// String streams of MapLibre Tiles: plain (lengths and bytes), a dictionary (distinct strings
/// once, an index per value), or an FSST-compressed dictionary; the smallest is written.
enum MLTStringColumn {
    /// Appends the stream count, the present stream (when `present` is given) and the string
    /// streams of `values` (the present ones, in feature order).
    static func append(_ values: [[UInt8]], present: [Bool]?, to out: inout [UInt8]) {
        // Dictionary: distinct strings in first-use order.
        var indexOf = [[UInt8]: UInt32](), distinct = [[UInt8]](), indices = [UInt32]()
        indices.reserveCapacity(values.count)
        var plainBytes = 0
        for value in values {
            plainBytes += value.count
            if let known = indexOf[value] { indices.append(known); continue }
            let index = UInt32(distinct.count)
            indexOf[value] = index
            distinct.append(value)
            indices.append(index)
        }
        var plain = [UInt8]()
        MLTIntegerStream.append(values.map { UInt32($0.count) }, kind: .length,
                                logicalStream: MLTWire.LengthKind.varBinary.rawValue, to: &plain)
        appendBytes(values, kind: .none, to: &plain)
        var dictionary = [UInt8]()
        let dictionaryLengths = distinct.map { UInt32($0.count) }
        if distinct.count < values.count {
            MLTIntegerStream.append(dictionaryLengths, kind: .length, logicalStream: MLTWire.LengthKind.dictionary.rawValue,
                                    to: &dictionary)
            MLTIntegerStream.append(indices, kind: .offset, logicalStream: MLTWire.OffsetKind.string.rawValue, to: &dictionary)
            appendBytes(distinct, kind: .single, to: &dictionary)
        }
        // FSST pays only on text long enough to hold repeated pieces beyond its table's cost.
        var fsst = [UInt8]()
        let distinctBytes = dictionaryLengths.reduce(0) { $0 + Int($1) }
        if distinctBytes >= 256 {
            let table = MLTFSST(training: distinct)
            if !table.symbolLengths.isEmpty {
                var corpus = [UInt8]()
                corpus.reserveCapacity(distinctBytes)
                for string in distinct { table.compress(string, into: &corpus) }
                if corpus.count + table.symbolBytes.count + table.symbolLengths.count < distinctBytes {
                    MLTIntegerStream.append(table.symbolLengths, kind: .length, logicalStream: MLTWire.LengthKind.symbol.rawValue,
                                            to: &fsst)
                    MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.fsst.rawValue,
                                         valueCount: table.symbolLengths.count, byteLength: table.symbolBytes.count)
                        .write(to: &fsst)
                    fsst += table.symbolBytes
                    MLTIntegerStream.append(dictionaryLengths, kind: .length,
                                            logicalStream: MLTWire.LengthKind.dictionary.rawValue, to: &fsst)
                    MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.single.rawValue,
                                         valueCount: distinct.count, byteLength: corpus.count).write(to: &fsst)
                    fsst += corpus
                    MLTIntegerStream.append(indices, kind: .offset, logicalStream: MLTWire.OffsetKind.string.rawValue, to: &fsst)
                }
            }
        }
        var (streams, best) = (2, plain)
        if !dictionary.isEmpty && dictionary.count < best.count { (streams, best) = (3, dictionary) }
        if !fsst.isEmpty && fsst.count < best.count { (streams, best) = (5, fsst) }
        MLTWire.appendVarint(UInt64(streams + (present == nil ? 0 : 1)), to: &out)
        if let present { MLTWire.appendBooleanStream(present, kind: .present, to: &out) }
        out += best
    }

    private static func appendBytes(_ strings: [[UInt8]], kind: MLTWire.DictionaryKind, to out: inout [UInt8]) {
        let total = strings.reduce(0) { $0 + $1.count }
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: kind.rawValue, valueCount: strings.count,
                             byteLength: total).write(to: &out)
        out.reserveCapacity(out.count + total)
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
