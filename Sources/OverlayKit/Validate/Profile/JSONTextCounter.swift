import OverlayModel

/// Counts what profiles measure in a JSON text, in one pass over its bytes: characters (UTF-16
/// code units, as Java and Kotlin readers count them: one per UTF-8 sequence, two for one
/// beyond the Basic Multilingual Plane) and how deeply arrays and
/// objects nest (brackets inside strings do not count), with the line and column where the
/// nesting first passes each threshold asked for. O(n), constant memory.
enum JSONTextCounter {
    static func count(_ input: ByteInput, file: String?, needs: [ProfileMeasure: Set<Int64>],
                      into measurement: inout ProfileMeasurement) throws {
        var characters: Int64 = 0
        var depth: Int64 = 0, deepest: Int64 = 0
        var passed: [Int64: SourceLocation] = [:]
        var strings = JSONStringTracker()
        var line = 1, column = 0
        let thresholds = needs[.jsonDepth] ?? []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
            if count == 0 { break }
            for byte in chunk[0..<count] {
                // A 4-byte sequence is a scalar beyond the BMP: two UTF-16 units, as Java counts.
                if byte & 0xC0 != 0x80 { characters += byte >= 0xF0 ? 2 : 1 }
                column += 1  // in bytes, as every column OverlayKit reports
                if byte == 0x0A {
                    line += 1
                    column = 0
                }
                if strings.take(byte) { continue }
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > deepest {
                        deepest = depth
                        for threshold in thresholds where depth - 1 == threshold {   // threshold + 1 overflows at Int64.max
                            passed[threshold] = SourceLocation(file: file, line: line, column: column)
                        }
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth = max(0, depth - 1)
                default:
                    break
                }
            }
        }
        measurement.values[.jsonCharacters] = .init(value: characters)
        measurement.values[.jsonDepth] = .init(value: deepest, passed: passed)
    }
}
