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
}
