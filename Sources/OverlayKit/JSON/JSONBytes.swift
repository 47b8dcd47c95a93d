#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A growable byte buffer with the JSON writing primitives serializers share: escaped strings,
/// shortest round-trip numbers, coordinates rounded to a number of decimals.
struct JSONBytes {
    var bytes: [UInt8] = []
    /// Member names that repeated in an object written here and were written renamed
    /// (`JSONObject.renameDuplicateKeys`), in order, for the writer to warn about; the writer
    /// clears it. No object written through this buffer has two members of one name.
    var renamedKeys: [(original: String, renamed: String)] = []

    /// Where `appendPositions` hands the text written so far once it holds `spillThreshold`
    /// bytes (a writer's output), so one long ring streams out instead of growing this buffer to
    /// its whole size: each doubling copied it into pages never touched before, and page faults
    /// were most of `convert`'s kernel time on one 12 MB feature. Nil keeps every byte here.
    var spill: ((UnsafeRawBufferPointer) throws -> Void)?
    /// The first error `spill` threw; the writer throws it once the feature is written.
    private(set) var spillError: (any Error)?
    /// The bytes this buffer holds before `appendPositions` spills them.
    static let spillThreshold = 1 << 18

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    /// Returns the error a spill threw, if any, and forgets it.
    mutating func takeSpillError() -> (any Error)? {
        defer { spillError = nil }
        return spillError
    }

    /// Hands every byte written so far to `spill` once they are `spillThreshold` or more (when
    /// there is a spill and it has not failed); writers call it between the parts of a long text.
    mutating func spillIfLong() {
        guard bytes.count >= JSONBytes.spillThreshold, let spill, spillError == nil else { return }
        do {
            try bytes.withUnsafeBytes { try spill($0) }
        } catch {
            spillError = error
            return
        }
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A JSON string literal with the escapes RFC 8259 requires.
    mutating func appendString(_ text: String) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    append("\\u00")
                    bytes.append(JSONBytes.hexDigits[Int(byte >> 4)])
                    bytes.append(JSONBytes.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    @inline(__always)
    private mutating func appendDigits(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch for up to 20 digits
        var value = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[23 - count] = UInt8(truncatingIfNeeded: value % 10) + 0x30
                value /= 10
                count += 1
            } while value != 0
            // A typed buffer: appending it is one copy (a raw buffer would go byte by byte).
            bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - count), count: count))
        }
    }

    /// The shortest text that reads back as the same Double. Non-finite values (which JSON
    /// cannot hold) are written as null.
    mutating func appendNumber(_ value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        // Swift's description is the shortest round-trip form and valid JSON ("1e-07", "115120.0").
        appendRaw(value.description)
    }

    /// A coordinate with at most `decimals` decimals and no trailing zeros (the fewest digits
    /// that round-trip when the value has fewer decimals than that).
    @inline(__always)
    mutating func appendCoordinate(_ value: Double, decimals: Int) {
        let scale = CoordinateScale(decimals: decimals)
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of scratch
        let written = withUnsafeMutableBytes(of: &buffer) { raw -> Bool in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard let count = JSONBytes.formatCoordinate(value, scale: scale, into: out) else { return false }
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
            return true
        }
        if !written { appendRounded(value, decimals: decimals) }
    }

    /// `[longitude,latitude]` or `[longitude,latitude,altitude]`, each number as
    /// `appendCoordinate` writes it. Formatted on the stack and appended with one copy.
    @inline(__always)
    mutating func appendPosition(_ coordinate: Coordinate, scale: CoordinateScale) {
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)  // 80 bytes: 3 numbers of at most 19 bytes, 4 marks
        let written = withUnsafeMutableBytes(of: &buffer) { raw -> Bool in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard let count = JSONBytes.formatPosition(coordinate, scale: scale, into: out) else { return false }
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
            return true
        }
        guard !written else { return }
        // A number needs the general path: write the position number by number.
        append(UInt8(ascii: "["))
        appendCoordinate(coordinate.longitude, decimals: scale.decimals)
        append(UInt8(ascii: ","))
        appendCoordinate(coordinate.latitude, decimals: scale.decimals)
        if let altitude = coordinate.altitude {
            append(UInt8(ascii: ","))
            appendCoordinate(altitude, decimals: scale.decimals)
        }
        append(UInt8(ascii: "]"))
    }

    /// Writes `[x,y]` or `[x,y,z]` into `out` (room for 80 bytes) and returns the byte count;
    /// nil when a number needs the general path (see `formatCoordinate`).
    @inline(__always)
    static func formatPosition(_ coordinate: Coordinate, scale: CoordinateScale, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        out[0] = UInt8(ascii: "[")
        var count = 1
        guard let longitude = formatCoordinate(coordinate.longitude, scale: scale, into: out + count) else { return nil }
        count += longitude
        out[count] = UInt8(ascii: ",")
        count += 1
        guard let latitude = formatCoordinate(coordinate.latitude, scale: scale, into: out + count) else { return nil }
        count += latitude
        if let altitude = coordinate.altitude {
            out[count] = UInt8(ascii: ",")
            count += 1
            guard let length = formatCoordinate(altitude, scale: scale, into: out + count) else { return nil }
            count += length
        }
        out[count] = UInt8(ascii: "]")
        return count + 1
    }

    /// The powers of ten for writing coordinates with `decimals` decimals, looked up once per
    /// geometry rather than once per number.
    struct CoordinateScale {
        let decimals: Int
        /// 10^decimals, or 0 when `decimals` is outside 0...15 (every number takes the general path).
        let factor: Double
        let divisor: UInt64

        init(decimals: Int) {
            self.decimals = decimals
            if decimals >= 0 && decimals <= 15 {
                factor = JSONNumberParser.exactPowerOfTen(decimals)
                divisor = JSONNumberParser.exactIntegerPowerOfTen(decimals)
            } else {
                factor = 0
                divisor = 1
            }
        }
    }

    /// Writes `value` rounded to `scale.decimals` decimals, trailing zeros trimmed, into `out`
    /// (room for 19 bytes) and returns the byte count; nil when the value needs the general
    /// path (not finite, or value·10^decimals not below 2^53 so integer arithmetic is not exact).
    /// The bytes of `out` after the returned count may be overwritten too (within the 19).
    @inline(__always)
    static func formatCoordinate(_ value: Double, scale: CoordinateScale, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard abs(value) * scale.factor < 9_007_199_254_740_992, scale.factor != 0 else { return nil }
        // Rounded half away from zero, as `.rounded()` but without the libm call: below 2^53
        // the integer part is exact and so is the remainder.
        let product = value * scale.factor
        var scaled = Int64(product)
        let remainder = product - Double(scaled)
        if remainder >= 0.5 { scaled += 1 } else if remainder <= -0.5 { scaled -= 1 }
        if scaled == 0 {
            out[0] = UInt8(ascii: "0")
            return 1
        }
        var count = 0
        if scaled < 0 {
            out[0] = UInt8(ascii: "-")
            count = 1
        }
        let magnitude = scaled.magnitude
        let integer = magnitude / scale.divisor
        let fraction = magnitude &- integer &* scale.divisor
        guard integer < 100_000_000, scale.decimals <= 8 else {
            return count + formatDigitByDigit(integer: integer, fraction: fraction, decimals: scale.decimals, into: out + count)
        }
        // Coordinates (integer part below 10^8, at most 8 decimals): each part's digits come out
        // of one eight-digit word and go out in one 8-byte store; the padding digits are shifted
        // away and the bytes past the end are overwritten by what follows (or left unused).
        let integerWord = eightDigitValues(integer)
        let leadingZeros = integer == 0 ? 7 : integerWord.trailingZeroBitCount >> 3  // most significant digit in the lowest byte
        storeEight(integerWord >> (leadingZeros << 3), at: out + count)
        count += 8 - leadingZeros
        guard fraction != 0 else { return count }
        out[count] = UInt8(ascii: ".")
        // The `decimals` digits of the fraction, leading zeros included, in the lowest bytes;
        // its trailing zeros are then the all-zero highest bytes.
        let fractionWord = eightDigitValues(fraction) >> ((8 - scale.decimals) << 3)
        storeEight(fractionWord, at: out + count + 1)
        return count + 1 + 8 - (fractionWord.leadingZeroBitCount >> 3)
    }

    /// The eight decimal digits of `value` (below 10^8, zero-padded) as byte values 0…9, the most
    /// significant digit in the lowest byte: two halves of four digits, split into pairs, then
    /// into digits, each step in all lanes at once with multiplications (x·10486 >> 20 is x / 100
    /// below 10^4, x·103 >> 10 is x / 10 below 100).
    @inline(__always)
    static func eightDigitValues(_ value: UInt64) -> UInt64 {
        let high = value / 10_000
        let halves = high | ((value &- high &* 10_000) << 32)                  // abcd, efgh in 32-bit lanes
        let hundreds = ((halves &* 10_486) >> 20) & 0x0000_007F_0000_007F      // ab, ef
        let pairs = ((halves &- hundreds &* 100) << 16) | hundreds             // ab, cd, ef, gh in 16-bit lanes
        let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        return ((pairs &- tens &* 10) << 8) | tens
    }

    /// Stores the eight digit values of `word` as ASCII at `out` (lowest byte first), unaligned.
    @inline(__always)
    private static func storeEight(_ word: UInt64, at out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: (word &+ 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
    }

    /// The general digits of `formatCoordinate` (an integer part of 10^8 or more, or more than
    /// 8 decimals): `integer`, then `.` and the fraction's `decimals` digits trailing zeros
    /// trimmed, two digits per step. Returns the byte count.
    private static func formatDigitByDigit(integer: UInt64, fraction: UInt64, decimals: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var integer = integer, fraction = fraction
        var count = 0
        // Integer digits, written backwards from their last position.
        var integerDigits = 1
        var probe = integer
        while probe >= 10 {
            probe /= 10
            integerDigits += 1
        }
        var position = count + integerDigits
        while integer >= 10 {
            position -= 2
            writeDigitPair(integer % 100, to: out + position)
            integer /= 100
        }
        if position > count { out[count] = UInt8(truncatingIfNeeded: integer) &+ 0x30 }
        count += integerDigits
        guard fraction != 0 else { return count }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out[count] = UInt8(ascii: ".")
        // Exactly `digits` fraction digits, backwards: leading zeros come out by themselves.
        position = count + 1 + digits
        var remaining = digits
        while remaining >= 2 {
            position -= 2
            writeDigitPair(fraction % 100, to: out + position)
            fraction /= 100
            remaining -= 2
        }
        if remaining == 1 { out[position - 1] = UInt8(truncatingIfNeeded: fraction) &+ 0x30 }
        return count + 1 + digits
    }

    /// Writes `value` (0…99) as two ASCII digits: half the divisions of digit-by-digit writing.
    @inline(__always)
    private static func writeDigitPair(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) {
        let pair = digitPairs.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!).loadUnaligned(fromByteOffset: Int(value) * 2, as: UInt16.self) }
        UnsafeMutableRawPointer(out).storeBytes(of: pair, as: UInt16.self)
    }

    /// "00" "01" … "99" as 200 bytes (built on first use, behind a lazy-init check per access:
    /// the general path only).
    private static let digitPairs: [UInt8] = Array("00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        + "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        + "8081828384858687888990919293949596979899").map { $0.asciiValue! }

    /// Appends positions (`[x,y]` or `[x,y,z]`, comma-separated, in reverse when asked),
    /// formatting them into a stack buffer appended once per ~4 KB instead of once per
    /// position; a number needing the general path goes through `appendPosition`.
    mutating func appendPositions(_ coordinates: UnsafeBufferPointer<Coordinate>, reversed: Bool, scale: CoordinateScale) {
        let count = coordinates.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let out = buffer.baseAddress!
            var used = 0
            for index in 0..<count {
                let coordinate = coordinates[reversed ? count - 1 - index : index]
                if used > 4096 - 81 {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: used))
                    used = 0
                    spillIfLong()
                }
                let separator = index > 0 ? 1 : 0
                if let length = JSONBytes.formatPosition(coordinate, scale: scale, into: out + used + separator) {
                    if separator == 1 { out[used] = UInt8(ascii: ",") }
                    used += separator + length
                } else {
                    // A number needs the general path: flush, then write this position the slow way.
                    bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: used))
                    used = 0
                    if separator == 1 { append(UInt8(ascii: ",")) }
                    appendPosition(coordinate, scale: scale)
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: used))
        }
    }

    /// The shortest round-trip text when it has at most `decimals` decimals, else the value
    /// correctly rounded to `decimals` by the C library, trailing zeros trimmed.
    private mutating func appendRounded(_ value: Double, decimals: Int) {
        let shortest = value.description
        // From 2^53 on every double is an integer: rounding to decimals changes nothing, and
        // "%f" would print the binary value's whole expansion — digits the input never had
        // (1234567890123456789012345678901234567890 came out ...846996462118072609669120).
        if value.isFinite && shortest.contains("e+") {
            appendNumber(value)
            return
        }
        if !value.isFinite || shortest.contains("e") == false,
           let dot = shortest.firstIndex(of: "."), shortest.distance(from: dot, to: shortest.endIndex) - 1 <= decimals {
            appendNumber(value)
            return
        }
        var buffer = [CChar](repeating: 0, count: 400)
        let count = Int(withVaList([Int32(decimals), value]) { vsnprintf(&buffer, 400, "%.*f", $0) })
        var text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if count > 0 && text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        appendRaw(text)
    }

    /// Any JSON value, members in order.
    mutating func appendValue(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .integer(let integer): appendInteger(integer)
        case .number(let number): appendNumber(number)
        case .string(let text): appendString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            appendObject(object)
        }
    }

    mutating func appendObject(_ object: JSONObject) {
        bytes.append(UInt8(ascii: "{"))
        appendMembers(object, leadingComma: false)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"key":value` pairs separated by commas, optionally preceded by one. A name that repeats
    /// (or is one of `reserved`, the members the caller writes itself) is written renamed by
    /// the one rule of `JSONObject.renameDuplicateKeys`, and noted in `renamedKeys`.
    mutating func appendMembers(_ object: JSONObject, leadingComma: Bool, reserved: [String] = []) {
        guard !object.hasDuplicateKeys(besides: reserved) else {
            var unique = object
            renamedKeys += unique.renameDuplicateKeys(besides: reserved)
            appendMembers(unique, leadingComma: leadingComma)
            return
        }
        for (index, member) in object.members.enumerated() {
            if index > 0 || leadingComma { bytes.append(UInt8(ascii: ",")) }
            appendString(member.key)
            bytes.append(UInt8(ascii: ":"))
            appendValue(member.value)
        }
    }
}
