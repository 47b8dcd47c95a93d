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

    private var sequence: SequenceRecordBoundaries.Scanner?
    private var features: FeatureArrayScanner?

    /// A scanner of a stream laid out as `layout` whose first byte is at `start`.
    init(_ layout: Layout, start: Int = 0) {
        switch layout {
        case .sequence: sequence = SequenceRecordBoundaries.Scanner(start: start)
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

    /// Finds the elements of a FeatureCollection's top-level `features` array: brackets are
    /// counted outside strings (escapes followed), and an object opened at depth 3 inside that
    /// array is a record until its bracket closes.
    struct FeatureArrayScanner {
        private var depth = 0
        private var strings = JSONStringTracker()
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
                let opening = !strings.inString
                if strings.take(byte) {
                    if opening {
                        name.removeAll(keepingCapacity: true)
                    } else if !strings.inString {
                        if depth == 1 { afterFeaturesName = name == Self.features }
                    } else if depth == 1 && name.count <= Self.features.count {
                        name.append(byte)
                    }
                    continue
                }
                switch byte {
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
