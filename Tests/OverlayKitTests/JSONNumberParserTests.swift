import Foundation
@testable import OverlayKit
import TestSupport
import XCTest

final class JSONNumberParserTests: XCTestCase {

    // MARK: Helpers

    private func parse(_ text: String) -> Double? {
        // Trailing NUL keeps the pointer valid for "" and checks the parser honours `count`.
        let bytes = Array(text.utf8) + [0]
        return bytes.withUnsafeBufferPointer { JSONNumberParser.parse($0.baseAddress!, count: $0.count - 1) }
    }

    private func parseInteger(_ text: String) -> Int64? {
        let bytes = Array(text.utf8) + [0]
        return bytes.withUnsafeBufferPointer { JSONNumberParser.parseInteger($0.baseAddress!, count: $0.count - 1) }
    }

    /// Returns a failure description, or nil when the parser matches `Double(String)` bit for bit.
    private func mismatch(_ text: String) -> String? {
        guard let expected = Double(text) else { return "Double(String) rejected \(text)" }
        guard let actual = parse(text) else { return "parser rejected \(text)" }
        if actual.bitPattern != expected.bitPattern {
            return "\(text): got \(actual) (0x\(String(actual.bitPattern, radix: 16))), "
                + "expected \(expected) (0x\(String(expected.bitPattern, radix: 16)))"
        }
        return nil
    }

    /// Deterministic SplitMix64 so failures reproduce.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let hardCases: [String] = [
        // Small integers, zeros, signs.
        "0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "0E+999", "0.000e-5", "1", "-1", "12.5", "115120.0", "1e-7",
        // Exactly-representable boundaries and halfway cases around 2^53.
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "9007199254740993.0", "9007199254740993.0000000000000000001", "18014398509481985", "18014398509481987",
        "9999999999999999999", "18446744073709551615", "18446744073709551616", "18446744073709551617",
        // Classic decimal fractions.
        "0.1", "0.2", "0.3", "0.7", "1.1", "3.14159265358979323846264338327950288", "2.718281828459045",
        // 1 + 2^-53 (exact tie → even), and one unit either side in the last of 55 digits.
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "1.0000000000000002220446049250313080847263336181640625",
        // Smallest normal / largest subnormal region.
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072013e-308", "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "2.2250738585072008890245868760858598876504231122409594654935248025624400092282356951787758888037591552642309780950434312085877387158357291821993020294379224223559819827501242041788969571311791082261043971979604000454897391938079198936081525613113376149842043271751033627391549782731594143828136275113838604094249464942286316695429105080201815926642134996606517803095075913058719846423906068637102005108723282784678843631944515866135041223479014792369585208321597621066375401613736583044193603714778355306682834535634005074073040135602968046375918583163124224521599262546494300836851861719422417646455137135420132217031370496583210154654068035397417906022589503023501937519773030945763173210852507299305089761582519159720757232455434770912461317493580281734466552734375e-308",
        // Subnormals and underflow.
        "4.9e-324", "5e-324", "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "2.47032822920623272e-324", "1e-323", "1.5e-323", "3e-324", "2e-324", "1e-320", "4.9e-325",
        "1e-400", "-1e-400", "1e-342", "1e-343", "9.999999999999999999e-343", "123456789e-350",
        // Largest finite / overflow.
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1.797693134862315708145274237317043567981e+308", "1.797693134862315807937289714053e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
        "1e308", "1e309", "-1e309", "1e400", "-1e400", "1e99999999999", "0.0001e312", "10e307",
        // Powers of ten around the Clinger limits.
        "1e22", "1e23", "1e-22", "1e-23", "9007199254740992e22", "9007199254740993e22", "4503599627370496e-22",
        "8.98846567431158e307", "7.3177701707893310e+15", "5e-20", "3.0517578125e-05",
        // 17-25 digit mantissas.
        "45.349964972999942", "-45.349964972999942", "-179.99999999999997", "0.30000000000000004",
        "1234567890123456789", "12345678901234567890", "123456789012345678901", "1234567890123456789012345",
        "1.234567890123456789012345", "9.87654321098765432109876e-200", "4.4501477170144022721148195934182639518696390927032912960468522194496444440421538910330590478162701758282983178260792422137401728773891892910553144148156412434867599762821265346585071045737627442980259622449029037796981144446145705102663115100318287949527959668236039986479250965780342141637013812613333119898765515451440315261253813266652951306000184917766328660755595837392240989947807556594098101021612198814605258742579179000071675999344145086087205681577915435923018910334964869420614052182892431445797605163650903606514140377217442262561590244668525767372446430075513332450079650686719491377688478005309963967709758965844137894433796621993967316936280457084866613206797017728916080020698679408551343728867675409720757232455434770912461317493580281734466552734375e-308",
        // Long fractions and many leading zeros.
        "0.000000000000000000000000000001", "0.0000000000000000000000000000000000000000001234",
        "123.456000000000000000000000000000000", "1.000000000000000000000000000000000000001",
        "0.99999999999999999999999999999999999999", "99999999999999999999999999999999999999.5",
        // Exponent spellings: sign, case, leading zeros.
        "1e+0", "1E-0", "1e007", "1e-007", "1E+0022", "2.5e-0000003", "1.5E+2", "-6.02214076e23", "6.62607015e-34",
    ]

    // MARK: Correctness against Double(String)

    func testHardCasesMatchDoubleString() {
        for text in Self.hardCases {
            if let failure = mismatch(text) { XCTFail(failure) }
        }
    }

    func testSpecialValues() {
        XCTAssertEqual(parse("-0")?.bitPattern, (-0.0 as Double).bitPattern)
        XCTAssertEqual(parse("-0.0e5")?.bitPattern, (-0.0 as Double).bitPattern)
        XCTAssertEqual(parse("1e400"), .infinity)
        XCTAssertEqual(parse("-1e400"), -.infinity)
        XCTAssertEqual(parse("4.9e-324"), .leastNonzeroMagnitude)
        XCTAssertEqual(parse("1.7976931348623157e308"), .greatestFiniteMagnitude)
        XCTAssertEqual(parse("2.2250738585072014e-308"), .leastNormalMagnitude)
        XCTAssertEqual(parse("-1e-400")?.bitPattern, (-0.0 as Double).bitPattern)
    }

    func testRandomNumbersMatchDoubleString() {
        var rng = SplitMix64(state: 0x5EED_1234_ABCD_0001)
        var failures = 0
        for i in 0 ..< 200_000 {
            let text: String
            switch i % 4 {
            case 0:
                // Any finite double, shortest round-trip form ("1e-05", "5e-324", "-0.0", ...).
                var d = Double(bitPattern: rng.next())
                while !d.isFinite { d = Double(bitPattern: rng.next()) }
                text = d.description
            case 1:
                // Coordinate-like values, e.g. "-45.349964972999942", with extra digits.
                let d = Double.random(in: -180 ... 180, using: &rng)
                text = Self.perturbedDescription(d, using: &rng)
            default:
                text = Self.randomDecimal(using: &rng)
            }
            if let failure = mismatch(text) {
                failures += 1
                if failures <= 20 { XCTFail(failure) }
            }
        }
        XCTAssertEqual(failures, 0)
    }

    /// `parsePrefix` with room behind the number takes the SWAR short-decimal path: it must give
    /// `Double(String)`'s value bit for bit, the right length and decimals, and decline (nil,
    /// then the general path) whatever is not a plain short decimal followed by a delimiter.
    func testShortDecimalPathMatchesDoubleString() {
        var rng = SplitMix64(state: 0x5EED_1234_ABCD_0002)
        var texts = ["0.5", "-0.0", "0.0", "-0.000", "1.0", "10.5", "179.99999999999997", "-45.349964972999942",
                     "1234567.123456789012", "9999999.999999999999", "0.000000000000001", "-7.7", "3.0000000000000004",
                     "0.1234567890123456", "12.34567890123456789", "1.23456789012345678"]
        for _ in 0 ..< 100_000 {
            let integer = String(rng.next() % [10, 1000, 10_000_000][Int(rng.next() % 3)])
            let fraction = (0 ..< 1 + Int(rng.next() % 18)).map { _ in String(rng.next() % 10) }.joined()
            texts.append((rng.next() & 1 == 0 ? "-" : "") + integer + "." + fraction)
        }
        var failures = 0
        for text in texts {
            for delimiter in [",", "]", " ", "\n", "}"] {
                let bytes = Array((text + delimiter + String(repeating: "x", count: 40)).utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    let start = buffer.baseAddress!
                    let found = JSONNumberParser.parsePrefix(start, end: start + buffer.count)
                    let decimals = text.split(separator: ".").last!.count
                    if found?.value.bitPattern != Double(text)?.bitPattern || found?.length != text.utf8.count
                        || found?.fractionDigits != decimals {
                        failures += 1
                        if failures <= 20 { XCTFail("\(text)\(delimiter): \(String(describing: found)) vs \(Double(text)!)") }
                    }
                }
            }
        }
        XCTAssertEqual(failures, 0)
        for text in ["01.5,", "-01.5,", "1.5e3,", "1.5E-3,", "1.5.3,", "1.5-3,", "1.5+3,", ".5,", "-.5,", "1.,", "12345678.5,"] {
            let bytes = Array((text + String(repeating: " ", count: 40)).utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let start = buffer.baseAddress!
                XCTAssertNil(JSONNumberParser.parseShortDecimal(start), text)
                let general = JSONNumberParser.parsePrefix(start, end: start + buffer.count)
                let expected = Double(text.dropLast())
                if let general, let expected {
                    XCTAssertEqual(general.value.bitPattern, expected.bitPattern, text)
                } else if text.hasPrefix("1.5e") || text.hasPrefix("1.5E") || text.hasPrefix("12345678") {
                    XCTFail("\(text): the general path should have parsed it")
                }
            }
        }
    }

    /// 15-20 random significant digits, random decimal point, random exponent.
    private static func randomDecimal(using rng: inout SplitMix64) -> String {
        let count = 15 + Int(rng.next() % 6)
        var digits = ""
        for k in 0 ..< count {
            let d = k == 0 ? 1 + rng.next() % 9 : rng.next() % 10
            digits.append(Character(Unicode.Scalar(UInt8(48 + d))))
        }
        var text = rng.next() & 1 == 0 ? "" : "-"
        switch rng.next() % 3 {
        case 0:  // integer digits then fraction: "12345.6789..."
            let point = 1 + Int(rng.next() % UInt64(count - 1))
            text += digits.prefix(point) + "." + digits.dropFirst(point)
        case 1:  // "0.000ddd"
            text += "0." + String(repeating: "0", count: Int(rng.next() % 6)) + digits
        default:
            text += digits
        }
        switch rng.next() % 4 {
        case 0: break
        case 1: text += "e\(Int(rng.next() % 701) - 350)"
        case 2: text += "E+\(rng.next() % 30)"
        default: text += "e-\(rng.next() % 330)"
        }
        return text
    }

    /// `d.description` with 0-4 random digits appended to its significand, giving
    /// 15-21 digit texts that sit very close to a double (where rounding is delicate).
    private static func perturbedDescription(_ d: Double, using rng: inout SplitMix64) -> String {
        let text = d.description
        let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        var significand = String(parts[0])
        if !significand.contains(".") { significand += ".0" }
        for _ in 0 ..< rng.next() % 5 {
            significand.append(Character(Unicode.Scalar(UInt8(48 + rng.next() % 10))))
        }
        return parts.count == 2 ? significand + "e" + parts[1] : significand
    }

    // MARK: Grammar

    func testRejectsInvalidGrammar() {
        let invalid = [
            "", "01", "-01", "00", "-", "1.", "-1.", ".5", "-.5", "1e", "1e+", "1e-", "1E", "+1", "--1", "-+1",
            "0x1", "0X1", "1.e5", "NaN", "nan", "Infinity", "-Infinity", "inf", "1 ", " 1", "1,", "1.5.2",
            "1e5.5", "1e5e5", "1ee5", "e5", "1.5f", "١", "0.", "1_000", "1.0x",
        ]
        for text in invalid {
            XCTAssertNil(parse(text), "accepted invalid JSON number \(text.debugDescription)")
        }
    }

    func testRejectsTrailingBytesOutsideCount() {
        // The parser must only read `count` bytes: "12" of "123" is 12.
        let bytes = Array("123".utf8)
        let value = bytes.withUnsafeBufferPointer { JSONNumberParser.parse($0.baseAddress!, count: 2) }
        XCTAssertEqual(value, 12)
    }

    // MARK: Integers

    func testParseInteger() {
        XCTAssertEqual(parseInteger("0"), 0)
        XCTAssertEqual(parseInteger("-0"), 0)
        XCTAssertEqual(parseInteger("7"), 7)
        XCTAssertEqual(parseInteger("-42"), -42)
        XCTAssertEqual(parseInteger("9223372036854775807"), Int64.max)
        XCTAssertEqual(parseInteger("-9223372036854775808"), Int64.min)
        XCTAssertNil(parseInteger("9223372036854775808"))
        XCTAssertNil(parseInteger("-9223372036854775809"))
        XCTAssertNil(parseInteger("18446744073709551616"))
        XCTAssertNil(parseInteger("99999999999999999999999"))
        XCTAssertNil(parseInteger("1.0"))
        XCTAssertNil(parseInteger("1e3"))
        XCTAssertNil(parseInteger("01"))
        XCTAssertNil(parseInteger("-"))
        XCTAssertNil(parseInteger(""))
        XCTAssertNil(parseInteger("+1"))
    }

    // MARK: Generated table

    /// The committed powers-of-five table is exactly what its generator script writes.
    func testPowersOfFiveTableRegeneratesIdentically() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/OverlayKit/JSON")
        let python = try Prerequisite.python(modules: [], install: "Debian: python3")
        let run = try ToolRun.run(python, [folder.appendingPathComponent("generate_powers_of_five.py").path])
        XCTAssertEqual(run.status, 0, run.errors)
        let generated = run.output
        let committed = try Data(contentsOf: folder.appendingPathComponent("JSONNumberParser+PowersOfFive.swift"))
        XCTAssertEqual(generated.count, committed.count)
        XCTAssertTrue(generated == committed, "JSONNumberParser+PowersOfFive.swift differs from what generate_powers_of_five.py writes")
        XCTAssertEqual(JSONNumberParser.pow5Table.count, 2 * (308 + 342 + 1))
    }
}
