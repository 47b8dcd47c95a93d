import OverlayModel

/// The byte-level pieces of MapLibre Tiles (MLT 1, tag 0x01): varints, zigzag, stream headers,
/// and the ORC byte and boolean run-length encodings the specification names for present
/// streams and boolean columns.
enum MLTWire {
    /// The most values one stream may decode to, run-length expansions and present bits included:
    /// 4,194,304, twenty times tippecanoe's 200,000 features per tile. A declared count or run
    /// beyond it is a hostile tile (a 20-byte run of 2^28 would otherwise take gigabytes).
    static let maximumStreamValues = 1 << 22

    /// A stream's physical kind (high nibble of its first header byte).
    enum PhysicalStream: UInt8 {
        case present = 0, data = 1, offset = 2, length = 3
    }

    /// `DATA` streams' logical kind (low nibble).
    enum DictionaryKind: UInt8 {
        case none = 0, single = 1, shared = 2, vertex = 3, morton = 4, fsst = 5
    }

    /// `OFFSET` streams' logical kind.
    enum OffsetKind: UInt8 {
        case vertex = 0, index = 1, string = 2, key = 3
    }

    /// `LENGTH` streams' logical kind.
    enum LengthKind: UInt8 {
        case varBinary = 0, geometries = 1, parts = 2, rings = 3, triangles = 4, symbol = 5, dictionary = 6
    }

    /// Logical-level techniques (3 bits each, two per stream).
    enum Logical: UInt8 {
        case none = 0, delta = 1, componentwiseDelta = 2, rle = 3, morton = 4, pseudodecimal = 5
    }

    /// Physical-level techniques (2 bits).
    enum Physical: UInt8 {
        case none = 0, fastPFOR = 1, varint = 2
    }

    /// One stream's header: kinds, techniques, value count, byte length, and for RLE the runs
    /// and the decoded value count.
    struct StreamHeader: Equatable {
        var physicalStream: PhysicalStream
        /// The low nibble: a `DictionaryKind`, `OffsetKind` or `LengthKind` raw value (0 for present).
        var logicalStream: UInt8
        var logical1: Logical = .none
        var logical2: Logical = .none
        var physical: Physical = .none
        /// Values stored in the stream (for RLE: runs + values).
        var valueCount: Int
        var byteLength: Int
        /// RLE runs (present when a logical technique is RLE and the physical one is not `none`).
        var runs = 0
        /// Values the RLE expands to.
        var rleValueCount = 0
        /// Morton streams: bits per coordinate and the shift added to make coordinates non-negative.
        var mortonBits = 0, mortonShift = 0

        var isRLE: Bool { (logical1 == .rle || logical2 == .rle) && physical != .none }

        func write(to out: inout [UInt8]) {
            out.append(physicalStream.rawValue << 4 | logicalStream & 0x0F)
            out.append(logical1.rawValue << 5 | logical2.rawValue << 2 | physical.rawValue)
            MLTWire.appendVarint(UInt64(valueCount), to: &out)
            MLTWire.appendVarint(UInt64(byteLength), to: &out)
            if isRLE {
                MLTWire.appendVarint(UInt64(runs), to: &out)
                MLTWire.appendVarint(UInt64(rleValueCount), to: &out)
            }
        }

        static func read(_ reader: inout Reader) throws -> StreamHeader {
            let kinds = try reader.byte(), techniques = try reader.byte()
            guard let physicalStream = PhysicalStream(rawValue: kinds >> 4),
                  let logical1 = Logical(rawValue: techniques >> 5),
                  let logical2 = Logical(rawValue: (techniques >> 2) & 7),
                  let physical = Physical(rawValue: techniques & 3) else {
                throw reader.failure("stream header \(kinds), \(techniques) names no known encoding")
            }
            var header = StreamHeader(physicalStream: physicalStream, logicalStream: kinds & 0x0F, logical1: logical1,
                                      logical2: logical2, physical: physical, valueCount: try reader.count(),
                                      byteLength: try reader.count())
            if logical1 == .morton {
                header.mortonBits = try reader.count()
                header.mortonShift = try reader.count()
            } else if header.isRLE {
                header.runs = try reader.count()
                header.rleValueCount = try reader.count()
            }
            return header
        }
    }

    @inline(__always)
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        ProtobufWriter.appendVarint(value, to: &out)
    }

    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        value == 0 ? 1 : (70 - value.leadingZeroBitCount) / 7
    }

    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: value << 1 ^ value >> 63) }

    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    static func appendString(_ text: String, to out: inout [UInt8]) {
        // Straight from the string's UTF-8 (no copy into an array first: every column name of every tile comes here).
        appendVarint(UInt64(text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    /// Appends `bytes` in ORC byte run-length encoding: runs of 3…130 equal bytes as
    /// (length − 3, byte), other bytes as literal groups of 1…128 behind a negative count. The
    /// literals between runs are a contiguous piece of `bytes`, written from it directly.
    static func appendByteRLE(_ bytes: [UInt8], to out: inout [UInt8]) {
        var index = 0, literals = 0                                      // literals: where they start
        while index < bytes.count {
            var run = 1
            while index + run < bytes.count && run < 130 && bytes[index + run] == bytes[index] { run += 1 }
            if run >= 3 {
                appendLiterals(bytes, literals..<index, to: &out)
                out.append(UInt8(run - 3))
                out.append(bytes[index])
                index += run
                literals = index
            } else {
                index += 1
            }
        }
        appendLiterals(bytes, literals..<index, to: &out)
    }

    /// `bytes[range]` as literal groups of at most 128.
    private static func appendLiterals(_ bytes: [UInt8], _ range: Range<Int>, to out: inout [UInt8]) {
        var start = range.lowerBound
        while start < range.upperBound {
            let count = min(128, range.upperBound - start)
            out.append(UInt8(truncatingIfNeeded: -count))
            out += bytes[start..<start + count]
            start += count
        }
    }

    /// Expands ORC byte RLE to `count` bytes.
    static func byteRLEDecode(_ reader: inout Reader, count: Int, byteLength: Int) throws -> [UInt8] {
        var sub = try reader.subReader(byteLength)
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            let header = try sub.byte()
            if header & 0x80 != 0 {
                let literal = Int(header ^ 0xFF) + 1
                for _ in 0..<min(literal, count - out.count) { out.append(try sub.byte()) }
            } else {
                let value = try sub.byte()
                out += repeatElement(value, count: min(Int(header) + 3, count - out.count))
            }
        }
        return out
    }

    /// Reads a boolean stream whose header has been read.
    static func readBooleans(_ reader: inout Reader, header: StreamHeader) throws -> [Bool] {
        guard header.valueCount <= maximumStreamValues else {
            throw reader.failure("a boolean stream of \(header.valueCount) bits, more than \(maximumStreamValues)")
        }
        let bytes = try byteRLEDecode(&reader, count: (header.valueCount + 7) / 8, byteLength: header.byteLength)
        return (0..<header.valueCount).map { bytes[$0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }

    /// Bounds-checked reading of a tile's bytes; every failure is `mlt.bad-tile`.
    struct Reader {
        let bytes: [UInt8]
        private(set) var position: Int
        let end: Int

        init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
            self.bytes = bytes
            position = start
            self.end = end ?? bytes.count
        }

        var isAtEnd: Bool { position >= end }
        var remaining: Int { end - position }

        func failure(_ message: String) -> Diagnostic {
            Diagnostic(.error, code: .mltBadTile, message: "not a valid MapLibre tile: \(message) (byte \(position))")
        }

        mutating func byte() throws -> UInt8 {
            guard position < end else { throw failure("cut off") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < end else { throw failure("varint cut off") }
                let byte = bytes[position]
                position += 1
                guard shift < 64, shift < 63 || byte <= 1 else { throw failure("varint longer than 64 bits") }
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }

        /// A varint used as a count or length: at most what the tile could hold.
        mutating func count() throws -> Int {
            let value = try varint()
            guard value <= UInt64(Int32.max) else { throw failure("count \(value) too large") }
            return Int(value)
        }

        /// A count of things each taking at least `bytesEach` of the bytes left (columns,
        /// struct children): refused before anything is allocated for them when they could not fit.
        mutating func declaredCount(bytesEach: Int, of what: String) throws -> Int {
            let value = try count()
            guard value <= remaining / bytesEach else { throw failure("\(value) \(what) declared in \(remaining) bytes") }
            return value
        }

        mutating func string() throws -> String {
            let length = try count()
            guard length <= remaining else { throw failure("string of \(length) bytes runs past the end") }
            defer { position += length }
            return String(decoding: bytes[position..<position + length], as: UTF8.self)
        }

        mutating func take(_ length: Int) throws -> ArraySlice<UInt8> {
            guard length >= 0 && length <= remaining else { throw failure("\(length) bytes run past the end") }
            defer { position += length }
            return bytes[position..<position + length]
        }

        /// A reader of the next `length` bytes; this one skips them.
        mutating func subReader(_ length: Int) throws -> Reader {
            guard length >= 0 && length <= remaining else { throw failure("\(length) bytes run past the end") }
            defer { position += length }
            return Reader(bytes, from: position, to: position + length)
        }
    }
}
