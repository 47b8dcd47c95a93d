import XCTest
@testable import OverlayKit

/// The shortcuts validation takes on its hot paths give what the plain paths give: one-pass
/// number parsing, and number-only arrays placed without the pending-children buffer.
final class ValidateFastPathTests: XCTestCase {
    /// `parsePrefix` agrees with tokenizing and `parse` on valid numbers, and declines
    /// (returns nil) wherever the plain path would report or look further.
    func testParsePrefixMatchesParseAndCountsDecimals() {
        var numbers = ["0", "-0", "1", "-1", "12.5", "0.000123", "-45.349964972999942", "1e5", "1.25E-3", "2.5e+10",
                       "123456789012345678901234", "0.1234567890123456789012", "1e400", "-1e-400", "179.99999999999997",
                       "4.9e-324", "9007199254740993", "3.0000000000000004", "100", "10.0"]
        var state: UInt64 = 12345
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let digits = Int(state >> 60) + 1
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let fraction = String(state % 10_000_000_000_000_000).prefix(digits)
            numbers.append("\(state >> 63 == 0 ? "-" : "")\(Int(state >> 40) % 400).\(fraction)")
        }
        for number in numbers {
            for delimiter in [",", "]", " ", "\n", "}"] {
                let bytes = Array((number + delimiter + "xxxxxxxx").utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    let start = buffer.baseAddress!
                    guard let found = JSONNumberParser.parsePrefix(start, end: start + buffer.count) else {
                        return XCTFail("\(number)\(delimiter): not parsed")
                    }
                    XCTAssertEqual(found.length, number.utf8.count, number)
                    let exact = JSONNumberParser.parse(start, count: number.utf8.count)
                    XCTAssertEqual(found.value.bitPattern, exact?.bitPattern, number)
                    let decimals = number.split(separator: ".").dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
                    XCTAssertEqual(found.fractionDigits, decimals, number)
                }
            }
        }
        // Declined: not JSON, running on into number characters, or reaching the end.
        for text in ["01,", "1.,", ".5,", "+1,", "1e,", "-,", "1.2.3,", "1-2,", "1e5e,", "12"] {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                XCTAssertNil(JSONNumberParser.parsePrefix(buffer.baseAddress!, end: buffer.baseAddress! + buffer.count), text)
            }
        }
    }

    /// Arrays that start with numbers and then hold containers, empty arrays, and nesting all
    /// read into the same structure (children in order, located where they start).
    func testNumberArraysThatTurnIntoMixedArraysKeepTheirChildren() throws {
        let text = "{\"a\": [1, 2.50, [3, 4], {\"b\": [5]}, \"s\", 6],\n \"c\": [[], [7.125, 8], [9, [10]]], \"d\": [0.5]}"
        let scanner = JSONScanner(input: ByteInput(string: text))
        var arena = LocatedJSON()
        let root = try scanner.readLocatedValue(into: &arena)
        func describe(_ node: Int) -> String {
            switch arena.kind(node) {
            case .number: return "\(arena.number(node)!)/\(arena[node].count)"
            case .string: return "\"\(arena.string(node)!)\""
            case .array: return "[" + arena.elements(node).map(describe).joined(separator: ",") + "]@\(arena[node].line):\(arena[node].column)"
            case .object: return "{" + arena.members(node).map { "\($0.key):\(describe($0.value))" }.joined(separator: ",") + "}"
            default: return "?"
            }
        }
        XCTAssertEqual(describe(root),
                       "{a:[1.0/0,2.5/2,[3.0/0,4.0/0]@1:17,{b:[5.0/0]@1:31},\"s\",6.0/0]@1:7,"
                       + "c:[[]@2:8,[7.125/3,8.0/0]@2:12,[9.0/0,[10.0/0]@2:28]@2:24]@2:7,d:[0.5/1]@2:41}")
    }
}
