/// Finds the records of a GeoJSON input in a stream of chunks without parsing them, for a
/// plan that parses only some (`SequenceSample`).
struct InputRecordScanner {
    /// How the records are laid out.
    enum Layout: Sendable {
        /// A text sequence: a record ends where ``SequenceRecordBoundaries`` would cut.
        case sequence
        /// One FeatureCollection: each element of its top-level `features` array.
        case featureCollection
    }

    private var sequence: SequenceScanner?
    private var features: FeatureArrayScanner?

    /// A scanner of a stream laid out as `layout` whose first byte is at `start`.
    init(_ layout: Layout, start: Int = 0) {
        switch layout {
        case .sequence: sequence = SequenceScanner(start: start)
        case .featureCollection: features = FeatureArrayScanner()
        }
    }

    /// Calls `record` with the start and end offsets of every record that `bytes`, which sit at
    /// `offset` of the stream, show to have ended.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, record: (Int, Int) -> Void) {
        sequence?.scan(bytes, at: offset, record: record)
        features?.scan(bytes, at: offset, record: record)
    }

    /// Calls `record` for a last record that only the stream's end (`end`) ends.
    mutating func finish(at end: Int, record: (Int, Int) -> Void) {
        sequence?.finish(at: end, record: record)
    }

/// Finds records in a stream of chunks where ``SequenceRecordBoundaries`` would cut: after
    /// a newline that follows a `}` and precedes a `{` or RS (blanks between allowed), so the
    /// inside of a pretty-printed record or collection is never cut.
    struct SequenceScanner {
        private var lastSignificant: UInt8 = 0
        private var candidate: Int?
        private var start: Int

        /// A scanner of a stream whose first record starts at `start`.
        init(start: Int = 0) { self.start = start }

        /// Calls `record` with the start and end offsets of every record that `bytes`, which
        /// sit at `offset` of the stream, show to have ended (a record is known to end when the
        /// next one begins).
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, record: (Int, Int) -> Void) {
            for index in 0..<bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A:
                    if candidate == nil && lastSignificant == UInt8(ascii: "}") { candidate = offset + index + 1 }
                case 0x20, 0x09, 0x0D:
                    continue
                default:
                    if let cut = candidate, byte == UInt8(ascii: "{") || byte == 0x1E {
                        record(start, cut)
                        start = cut
                    }
                    candidate = nil
                    lastSignificant = byte
                }
            }
        }

        /// Calls `record` for the last record, which the stream's end (`end`) ends.
        mutating func finish(at end: Int, record: (Int, Int) -> Void) {
            if start < end { record(start, end) }
            start = end
        }
    }

    /// Finds the elements of a FeatureCollection's top-level `features` array: brackets are
    /// counted outside strings (escapes followed), and an object opened at depth 3 inside that
    /// array is a record until its bracket closes.
    struct FeatureArrayScanner {
        private var depth = 0
        private var inString = false
        private var escaped = false
        /// The first bytes of the string being read at depth 1 (a member name, or a value).
        private var name: [UInt8] = []
        /// Whether the last string at depth 1 was `features`, and whether its array is open.
        private var afterFeaturesName = false
        private var inFeatures = false
        private var recordStart = 0
        private static let features = Array("features".utf8)

        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, record: (Int, Int) -> Void) {
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 1 { afterFeaturesName = name == Self.features }
                    } else if depth == 1 && name.count <= Self.features.count {
                        name.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    name.removeAll(keepingCapacity: true)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth == 2 && byte == UInt8(ascii: "[") && afterFeaturesName { inFeatures = true }
                    if inFeatures && depth == 3 && byte == UInt8(ascii: "{") { recordStart = offset + index }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if inFeatures && depth == 3 && byte == UInt8(ascii: "}") { record(recordStart, offset + index + 1) }
                    if inFeatures && depth == 2 { inFeatures = false }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 1 { afterFeaturesName = false }
                default:
                    continue
                }
            }
        }
    }
}
