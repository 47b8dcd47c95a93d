/// Follows JSON strings through a stream of bytes, so that brackets, commas and quotes inside
/// them are not taken for structure: for scanners that count brackets without parsing
/// (`JSONTextCounter`, `InputRecordScanner`).
struct JSONStringTracker {
    /// Whether the last byte taken left a string open.
    private(set) var inString = false
    private var escaped = false

    /// Takes the next byte; true when it belongs to a string, its quotes included.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return true
        }
        if byte == UInt8(ascii: "\"") {
            inString = true
            return true
        }
        return false
    }
}
