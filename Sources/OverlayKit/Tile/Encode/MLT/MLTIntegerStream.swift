/// Integer streams of MapLibre Tiles: each stream is written with whichever of plain, delta,
/// run-length or delta-then-run-length varints (the specification's integer encodings) gives
/// the fewest bytes, header included. Values are 64-bit; `signed` streams hold Int64 bit
/// patterns and zigzag them where the encoding stores values themselves (plain and RLE values);
/// deltas are always zigzagged.
enum MLTIntegerStream {
    private enum Choice { case plain, delta, rle, deltaRLE }

    /// Appends `values` as one stream of `kind` (physical stream and its logical nibble).
    static func append(_ values: [UInt64], signed: Bool, kind: MLTWire.PhysicalStream, logicalStream: UInt8,
                       to out: inout [UInt8]) {
        let count = values.count
        @inline(__always) func stored(_ value: UInt64) -> UInt64 { signed ? MLTWire.zigzag(Int64(bitPattern: value)) : value }
        @inline(__always) func delta(_ index: Int) -> UInt64 {
            MLTWire.zigzag(Int64(bitPattern: index == 0 ? values[0] : values[index] &- values[index - 1]))
        }
        var plainSize = 0, deltaSize = 0
        var runs = 0, rleSize = 0, deltaRuns = 0, deltaRLESize = 0
        var previousDelta: UInt64 = 0
        for index in 0..<count {
            let value = values[index], change = delta(index)
            plainSize += MLTWire.varintSize(stored(value))
            deltaSize += MLTWire.varintSize(change)
            if index == 0 || value != values[index - 1] { runs += 1; rleSize += MLTWire.varintSize(stored(value)) }
            if index == 0 || change != previousDelta { deltaRuns += 1; deltaRLESize += MLTWire.varintSize(change) }
            previousDelta = change
        }
        // Run lengths: counted exactly below only when RLE might win (the values alone decide
        // most streams), else estimated at one byte per run.
        rleSize += runs
        deltaRLESize += deltaRuns
        let rleExtra = MLTWire.varintSize(UInt64(runs)) + MLTWire.varintSize(UInt64(count))
        let deltaRLEExtra = MLTWire.varintSize(UInt64(deltaRuns)) + MLTWire.varintSize(UInt64(count))
        var choice = Choice.plain, best = plainSize
        if deltaSize < best { choice = .delta; best = deltaSize }
        if runs * 2 <= count && rleSize + rleExtra < best { choice = .rle; best = rleSize + rleExtra }
        if deltaRuns * 2 <= count && deltaRLESize + deltaRLEExtra < best { choice = .deltaRLE; best = deltaRLESize + deltaRLEExtra }

        var payload = [UInt8]()
        payload.reserveCapacity(best + 8)
        var header = MLTWire.StreamHeader(physicalStream: kind, logicalStream: logicalStream, physical: .varint,
                                          valueCount: count, byteLength: 0)
        switch choice {
        case .plain:
            for value in values { MLTWire.appendVarint(stored(value), to: &payload) }
        case .delta:
            header.logical1 = .delta
            for index in 0..<count { MLTWire.appendVarint(delta(index), to: &payload) }
        case .rle, .deltaRLE:
            let isDelta = choice == .deltaRLE
            var lengths = [UInt64](), runValues = [UInt64]()
            for index in 0..<count {
                let value = isDelta ? delta(index) : stored(values[index])
                if let last = runValues.last, last == value, !lengths.isEmpty { lengths[lengths.count - 1] += 1 } else {
                    lengths.append(1)
                    runValues.append(value)
                }
            }
            for length in lengths { MLTWire.appendVarint(length, to: &payload) }
            for value in runValues { MLTWire.appendVarint(value, to: &payload) }
            header.logical1 = isDelta ? .delta : .rle
            header.logical2 = isDelta ? .rle : .none
            header.valueCount = 2 * lengths.count
            header.runs = lengths.count
            header.rleValueCount = count
        }
        header.byteLength = payload.count
        header.write(to: &out)
        out += payload
    }

    /// Appends unsigned 32-bit values (lengths, offsets, geometry types).
    static func append(_ values: [UInt32], kind: MLTWire.PhysicalStream, logicalStream: UInt8, to out: inout [UInt8]) {
        append(values.map(UInt64.init), signed: false, kind: kind, logicalStream: logicalStream, to: &out)
    }

    /// Reads the stream whose `header` was just read: the decoded values (signed ones as Int64
    /// bit patterns).
    static func read(_ reader: inout MLTWire.Reader, header: MLTWire.StreamHeader, signed: Bool) throws -> [UInt64] {
        var sub = try reader.subReader(header.byteLength)
        guard header.physical == .varint || header.physical == .none else {
            throw sub.failure("FastPFOR integer streams are not supported")
        }
        // Each stored value takes at least one byte (four unencoded): checked before reserving.
        guard header.physical == .varint ? header.valueCount <= header.byteLength : header.byteLength == 4 * header.valueCount else {
            throw sub.failure("\(header.valueCount) values declared in a stream of \(header.byteLength) bytes")
        }
        var raw = [UInt64]()
        raw.reserveCapacity(header.valueCount)
        if header.physical == .none {
            // Fixed-width little-endian 32-bit values.
            for _ in 0..<header.valueCount {
                var value: UInt64 = 0
                for shift in stride(from: 0, to: 32, by: 8) { value |= UInt64(try sub.byte()) << UInt64(shift) }
                raw.append(value)
            }
        } else {
            for _ in 0..<header.valueCount { raw.append(try sub.varint()) }
        }
        func unstored(_ value: UInt64) -> UInt64 { signed ? UInt64(bitPattern: MLTWire.unzigzag(value)) : value }
        func expandRuns(_ raw: [UInt64]) throws -> [UInt64] {
            guard header.runs * 2 <= raw.count else { throw sub.failure("RLE stream shorter than its runs") }
            guard header.rleValueCount <= MLTWire.maximumStreamValues else {
                throw sub.failure("RLE runs of \(header.rleValueCount) values, more than \(MLTWire.maximumStreamValues)")
            }
            var out = [UInt64]()
            out.reserveCapacity(header.rleValueCount)
            for run in 0..<header.runs {
                let length = raw[run]
                guard length <= UInt64(header.rleValueCount - out.count) else { throw sub.failure("RLE runs exceed their value count") }
                out += repeatElement(raw[header.runs + run], count: Int(length))
            }
            return out
        }
        switch (header.logical1, header.logical2) {
        case (.none, _):
            return signed ? raw.map(unstored) : raw
        case (.delta, .rle):
            var sum: UInt64 = 0
            return try expandRuns(raw).map { sum &+= UInt64(bitPattern: MLTWire.unzigzag($0)); return sum }
        case (.delta, _):
            var sum: UInt64 = 0
            return raw.map { sum &+= UInt64(bitPattern: MLTWire.unzigzag($0)); return sum }
        case (.rle, _):
            return try expandRuns(raw).map(unstored)
        default:
            throw sub.failure("integer stream encoding \(header.logical1)/\(header.logical2) is not supported")
        }
    }
}
