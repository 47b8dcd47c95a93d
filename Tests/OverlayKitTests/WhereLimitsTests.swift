import OverlayKit
import OverlayModel
import XCTest

/// `--where` inputs that once crashed the process: 30,000 nested parentheses overflowed the stack.
final class WhereLimitsTests: XCTestCase {
    func testDeepNestingIsASyntaxErrorNotAStackOverflow() {
        let deep = String(repeating: "(", count: 30_000) + "a == 1" + String(repeating: ")", count: 30_000)
        XCTAssertThrowsError(try WhereExpression(parsing: deep)) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("nests deeper than 1000 levels"), message)
        }
        let nots = String(repeating: "not ", count: 30_000) + "a == 1"
        XCTAssertThrowsError(try WhereExpression(parsing: nots))
        let chain = Array(repeating: "a == 1", count: 30_000).joined(separator: " and ")
        XCTAssertThrowsError(try WhereExpression(parsing: chain))
    }

    func testNestingUpToTheLimitParsesAndEvaluates() throws {
        let properties: JSONObject = ["a": .integer(1)]
        let nested = String(repeating: "(", count: 999) + "a == 1" + String(repeating: ")", count: 999)
        XCTAssertTrue(try WhereEvaluator.evaluate(try WhereExpression(parsing: nested), properties))
        let chain = Array(repeating: "a == 1", count: 1_000).joined(separator: " and ")
        XCTAssertTrue(try WhereEvaluator.evaluate(try WhereExpression(parsing: chain), properties))
    }
}
