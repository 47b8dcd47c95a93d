/// Integer streams of MapLibre Tiles: each stream is written with whichever of plain, delta,
/// run-length or delta-then-run-length varints (the specification's integer encodings) gives
/// the fewest bytes, header included. Values are 64-bit; `signed` streams hold Int64 bit
/// patterns and zigzag them where the encoding stores values themselves (plain and RLE values);
/// deltas are always zigzagged.
enum MLTIntegerStream {
    fileprivate enum Choice { case plain, delta, rle, deltaRLE }

    /// How a stream of values is written: the encoding and its exact size.
    struct Plan {
        fileprivate var choice = Choice.plain
        /// The payload's bytes, exact.
        fileprivate var payloadBytes = 0
        /// RLE runs of the chosen encoding (0 unless it is RLE).
        fileprivate var runs = 0
        fileprivate var count = 0

        /// The stream's bytes, header included.
        var byteCount: Int {
            var header = 2 + MLTWire.varintSize(UInt64(payloadBytes))
            if choice == .rle || choice == .deltaRLE {
                header += MLTWire.varintSize(UInt64(2 * runs)) + MLTWire.varintSize(UInt64(runs)) + MLTWire.varintSize(UInt64(count))
            } else {
                header += MLTWire.varintSize(UInt64(count))
            }
            return header + payloadBytes
        }
    }

    /// The encoding `append` writes `values` with, and its size, without writing it: string
    /// columns size their candidates this way and write only the smallest.
    static func plan(_ values: [UInt64], signed: Bool) -> Plan {
        let count = values.count
        @inline(__always) func stored(_ value: UInt64) -> UInt64 { signed ? MLTWire.zigzag(Int64(bitPattern: value)) : value }
        var plainSize = 0, deltaSize = 0
        var runs = 0, rleSize = 0, deltaRuns = 0, deltaRLESize = 0
        // The run lengths' exact bytes, added as each run ends.
        var runLength: UInt64 = 0, deltaRunLength: UInt64 = 0, runLengthBytes = 0, deltaRunLengthBytes = 0
        var previousValue: UInt64 = 0, previousDelta: UInt64 = 0
        for index in 0..<count {
            let value = values[index]
            let change = MLTWire.zigzag(Int64(bitPattern: index == 0 ? value : value &- previousValue))
            plainSize += MLTWire.varintSize(stored(value))
            deltaSize += MLTWire.varintSize(change)
            if index == 0 || value != previousValue {
                if index > 0 { runLengthBytes += MLTWire.varintSize(runLength) }
                runs += 1
                runLength = 0
                rleSize += MLTWire.varintSize(stored(value))
            }
            runLength += 1
            if index == 0 || change != previousDelta {
                if index > 0 { deltaRunLengthBytes += MLTWire.varintSize(deltaRunLength) }
                deltaRuns += 1
                deltaRunLength = 0
                deltaRLESize += MLTWire.varintSize(change)
            }
            deltaRunLength += 1
            previousValue = value
            previousDelta = change
        }
        if count > 0 {
            runLengthBytes += MLTWire.varintSize(runLength)
            deltaRunLengthBytes += MLTWire.varintSize(deltaRunLength)
        }
        // The choice estimates run lengths at one byte per run (the values alone decide most
        // streams); the plan's size is the chosen payload's exact one.
        let rleExtra = MLTWire.varintSize(UInt64(runs)) + MLTWire.varintSize(UInt64(count))
        let deltaRLEExtra = MLTWire.varintSize(UInt64(deltaRuns)) + MLTWire.varintSize(UInt64(count))
        var plan = Plan(choice: .plain, payloadBytes: plainSize, runs: 0, count: count)
        var best = plainSize
        if deltaSize < best {
            plan.choice = .delta
            plan.payloadBytes = deltaSize
            best = deltaSize
        }
        if runs * 2 <= count && rleSize + runs + rleExtra < best {
            plan.choice = .rle
            plan.payloadBytes = rleSize + runLengthBytes
            plan.runs = runs
            best = rleSize + runs + rleExtra
        }
        if deltaRuns * 2 <= count && deltaRLESize + deltaRuns + deltaRLEExtra < best {
            plan.choice = .deltaRLE
            plan.payloadBytes = deltaRLESize + deltaRunLengthBytes
            plan.runs = deltaRuns
        }
        return plan
    }

    /// Appends `values` as one stream of `kind` (physical stream and its logical nibble).
    static func append(_ values: [UInt64], signed: Bool, kind: MLTWire.PhysicalStream, logicalStream: UInt8,
                       to out: inout [UInt8]) {
        append(values, signed: signed, plan: plan(values, signed: signed), kind: kind, logicalStream: logicalStream, to: &out)
    }

    /// Appends `values` as `plan` (from `plan(values, signed:)`) says.
    static func append(_ values: [UInt64], signed: Bool, plan: Plan, kind: MLTWire.PhysicalStream, logicalStream: UInt8,
                       to out: inout [UInt8]) {
        let count = values.count, choice = plan.choice
        @inline(__always) func stored(_ value: UInt64) -> UInt64 { signed ? MLTWire.zigzag(Int64(bitPattern: value)) : value }
        @inline(__always) func delta(_ index: Int) -> UInt64 {
            MLTWire.zigzag(Int64(bitPattern: index == 0 ? values[0] : values[index] &- values[index - 1]))
        }
        // The payload is written straight behind its header: the plan knows its length.
        var header = MLTWire.StreamHeader(physicalStream: kind, logicalStream: logicalStream, physical: .varint,
                                          valueCount: count, byteLength: plan.payloadBytes)
        if choice == .rle || choice == .deltaRLE {
            let isDelta = choice == .deltaRLE
            header.logical1 = isDelta ? .delta : .rle
            header.logical2 = isDelta ? .rle : .none
            header.valueCount = 2 * plan.runs
            header.runs = plan.runs
            header.rleValueCount = count
        } else if choice == .delta {
            header.logical1 = .delta
        }
        header.write(to: &out)
        switch choice {
        case .plain:
            for value in values { MLTWire.appendVarint(stored(value), to: &out) }
        case .delta:
            for index in 0..<count { MLTWire.appendVarint(delta(index), to: &out) }
        case .rle, .deltaRLE:
            // Run lengths first, then each run's value.
            let isDelta = choice == .deltaRLE
            @inline(__always) func value(_ index: Int) -> UInt64 { isDelta ? delta(index) : stored(values[index]) }
            var start = 0
            while start < count {
                var end = start + 1
                let first = value(start)
                while end < count && value(end) == first { end += 1 }
                MLTWire.appendVarint(UInt64(end - start), to: &out)
                start = end
            }
            start = 0
            while start < count {
                var end = start + 1
                let first = value(start)
                while end < count && value(end) == first { end += 1 }
                MLTWire.appendVarint(first, to: &out)
                start = end
            }
        }
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
