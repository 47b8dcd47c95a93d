import Foundation
import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// The stack-buffer coordinate formatter (`JSONBytes.formatCoordinate`, used by `appendPosition`
/// and `appendCoordinate`) against a plain String reference of the rule it implements:
/// round value·10^decimals half away from zero, then print with trailing zeros trimmed.
final class CoordinateFormattingTests: XCTestCase {
    /// The reference: integer arithmetic on the rounded scaled value, digits via String.
    private func reference(_ value: Double, decimals: Int) -> String? {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard abs(value) * scale < 9_007_199_254_740_992 else { return nil }  // general path
        let scaled = Int64((value * scale).rounded())
        if scaled == 0 { return "0" }
        var digits = String(scaled.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        var text = decimals == 0 ? digits : String(digits.dropLast(decimals)) + "." + String(digits.suffix(decimals))
        if decimals > 0 {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (scaled < 0 ? "-" : "") + text
    }

    private func written(_ value: Double, decimals: Int) -> String {
        var bytes = JSONBytes()
        bytes.appendCoordinate(value, decimals: decimals)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    func testFormatterMatchesReferenceOnRandomAndEdgeValues() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 1e-9, -1e-9, 179.99999999,
                                -45.349964972999942, -78.693291924999855, 0.1, 0.2, 0.3, 1e15, 9e15, 123456789.123456789,
                                Double.leastNonzeroMagnitude, 4.35, 1.0000005, 0.00000005, -0.00000004]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -12...16, using: &generator)
            let value = (Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 1..<10, using: &generator) * pow(10, magnitude.rounded(.down))
            values.append(value)
            // Exact halves at some precision: ties must round away from zero.
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 1000 + 0.0005)
        }
        var checked = 0
        for value in values {
            for decimals in [0, 1, 3, 6, 7, 9, 12, 15] {
                guard let expected = reference(value, decimals: decimals) else { continue }
                XCTAssertEqual(written(value, decimals: decimals), expected, "\(value) at \(decimals) decimals")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 200_000)
    }

    func testPositionsWithAndWithoutAltitudeAndGeneralPath() {
        var bytes = JSONBytes()
        bytes.appendPosition(Coordinate(latitude: -78.693291924999855, longitude: -45.349964972999942),
                             scale: JSONBytes.CoordinateScale(decimals: 7))
        bytes.appendPosition(Coordinate(latitude: 0.1, longitude: 1e-9, altitude: 12.5), scale: JSONBytes.CoordinateScale(decimals: 7))
        // 17 decimals and a huge altitude leave the fast path; the text is the same rule's
        // (from 2^53 on, the shortest round-trip form: "%f" would invent digits).
        bytes.appendPosition(Coordinate(latitude: 1.25, longitude: 2, altitude: 1e16), scale: JSONBytes.CoordinateScale(decimals: 7))
        bytes.appendPosition(Coordinate(latitude: 0.1, longitude: -0.5), scale: JSONBytes.CoordinateScale(decimals: 17))
        XCTAssertEqual(String(decoding: bytes.bytes, as: UTF8.self),
                       "[-45.349965,-78.6932919][0,0.1,12.5][2,1.25,1e+16][-0.5,0.1]")
    }

    func testHugeValuesAreWrittenWithTheirShortestDigitsNotTheBinaryExpansion() {
        // A literal with more digits than a double holds (the compiler would warn on one).
        let huge = Double("1234567890123456789012345678901234567890")!
        XCTAssertEqual(written(huge, decimals: 7), "1.2345678901234568e+39")
        XCTAssertEqual(written(-1e300, decimals: 0), "-1e+300")
        XCTAssertEqual(Double(written(huge, decimals: 7)), huge)
        // Below 2^53 nothing changes.
        XCTAssertEqual(written(123456789.123456789, decimals: 3), "123456789.123")
    }

    /// The formatter as it was before the eight-digit words (commit 152aea9), kept verbatim but
    /// for its digit-pair table: the new one must write the same bytes for every value.
    private func previous(_ value: Double, decimals: Int) -> String? {
        let scale = JSONBytes.CoordinateScale(decimals: decimals)
        guard abs(value) * scale.factor < 9_007_199_254_740_992, scale.factor != 0 else { return nil }
        let product = value * scale.factor
        var scaled = Int64(product)
        let remainder = product - Double(scaled)
        if remainder >= 0.5 { scaled += 1 } else if remainder <= -0.5 { scaled -= 1 }
        if scaled == 0 { return "0" }
        var out = [UInt8](repeating: 0, count: 40)
        func pair(_ value: UInt64, _ at: Int) {
            out[at] = UInt8(value / 10) + 0x30
            out[at + 1] = UInt8(value % 10) + 0x30
        }
        var count = 0
        if scaled < 0 {
            out[0] = UInt8(ascii: "-")
            count = 1
        }
        let magnitude = scaled.magnitude
        var integer = magnitude / scale.divisor
        var fraction = magnitude % scale.divisor
        var integerDigits = 1
        var probe = integer
        while probe >= 10 {
            probe /= 10
            integerDigits += 1
        }
        var position = count + integerDigits
        while integer >= 10 {
            position -= 2
            pair(integer % 100, position)
            integer /= 100
        }
        if position > count { out[count] = UInt8(truncatingIfNeeded: integer) &+ 0x30 }
        count += integerDigits
        guard fraction != 0 else { return String(decoding: out[..<count], as: UTF8.self) }
        var digits = scale.decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out[count] = UInt8(ascii: ".")
        position = count + 1 + digits
        var remaining = digits
        while remaining >= 2 {
            position -= 2
            pair(fraction % 100, position)
            fraction /= 100
            remaining -= 2
        }
        if remaining == 1 { out[position - 1] = UInt8(truncatingIfNeeded: fraction) &+ 0x30 }
        return String(decoding: out[..<(count + 1 + digits)], as: UTF8.self)
    }

    /// What `formatCoordinate` writes, through a buffer whose bytes past the count are checked
    /// to stay within its 19-byte room.
    private func formatted(_ value: Double, decimals: Int) -> String? {
        var buffer = [UInt8](repeating: 0xEE, count: 40)
        let count = buffer.withUnsafeMutableBufferPointer {
            JSONBytes.formatCoordinate(value, scale: JSONBytes.CoordinateScale(decimals: decimals), into: $0.baseAddress!)
        }
        XCTAssertTrue(buffer[19...].allSatisfy { $0 == 0xEE }, "\(value) at \(decimals) decimals wrote past 19 bytes")
        return count.map { String(decoding: buffer[..<$0], as: UTF8.self) }
    }

    func testEightDigitWordsWriteWhatThePreviousFormatterWrote() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1e-8, -1e-8, 5e-8, -5e-8, 4.9999999e-8, 179.99999995, -179.99999995, 179.99999994999,
                                180, -180, 90, -90, 0.1, 99_999_999.5, 99_999_999.4, 100_000_000, 123_456_789.987654321,
                                899_999_999.99, 1e-15, 0.000_000_05, 12.3400000, 10.000_000_1, 0.099_999_995, 1e7, 9.5e15]
        for _ in 0..<30_000 {
            let exponent = Double.random(in: -16...17, using: &generator).rounded(.down)
            values.append((Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 1..<10, using: &generator) * pow(10, exponent))
            // Coordinates as files hold them, and exact ties at some precision.
            values.append(Double.random(in: -180...180, using: &generator))
            values.append(Double(Int.random(in: -1_800_000_000...1_800_000_000, using: &generator)) / 1e7 + 0.000_000_05)
            values.append(Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator)) / pow(10, Double(Int.random(in: 0...15, using: &generator))))
        }
        var fast = 0
        for value in values {
            for decimals in 0...16 {
                let expected = previous(value, decimals: decimals)
                XCTAssertEqual(formatted(value, decimals: decimals), expected, "\(value) at \(decimals) decimals")
                if expected != nil && decimals <= 8 { fast += 1 }
            }
        }
        XCTAssertGreaterThan(fast, 900_000)
    }

    /// Every number of the corpus's largest GeoJSON (822,274 of them); the random values above
    /// cover every precision.
    func testEveryCoordinateOfTheLandFileIsWrittenAsBefore() throws {
        let url = try Prerequisite.corpus("real/ne_10m_land.geojson")
        let text = try Data(contentsOf: url)
        var numbers: [Double] = []
        var start: Int?
        for (index, byte) in text.enumerated() {
            let partOfNumber = (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
            if partOfNumber {
                if start == nil { start = index }
            } else if let first = start {
                if let number = Double(String(decoding: text[first..<index], as: UTF8.self)) { numbers.append(number) }
                start = nil
            }
        }
        XCTAssertGreaterThanOrEqual(numbers.count, 822_274)
        for number in numbers {
            for decimals in [7, 9] {  // the benchmark's precision; 9 takes the general path
                XCTAssertEqual(formatted(number, decimals: decimals), previous(number, decimals: decimals), "\(number) at \(decimals) decimals")
            }
        }
    }

    func testEightDigitValues() {
        for value: UInt64 in [0, 1, 9, 10, 99, 100, 1234, 9999, 10_000, 12_345_678, 99_999_999, 10_000_001, 40_506_070] {
            let word = JSONBytes.eightDigitValues(value)
            let digits = (0..<8).map { String((word >> UInt64($0 * 8)) & 0xFF) }.joined()
            let padded = String(repeating: "0", count: 8 - String(value).count) + String(value)
            XCTAssertEqual(digits, padded)
        }
    }
}
