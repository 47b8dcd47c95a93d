import XCTest
@testable import OverlayKit
import OverlayModel

final class FilterWhereTests: XCTestCase {
    private let properties: JSONObject = [
        "name": .string("Île-de-France"), "pop": .integer(12_000_000), "area": .number(12011.5), "capital": .bool(true),
        "note": .null, "tags": .array([.string("city"), .string("region")]),
        "admin": .object(["level": .integer(1), "code": .string("FR-IDF")]),
        "stroke-width": .integer(2), "odd key": .string("yes"),
    ]

    private func check(_ source: String, _ expected: Bool, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try WhereExpression(parsing: source)
            XCTAssertEqual(try WhereEvaluator.evaluate(expression, properties), expected, source, file: file, line: line)
        } catch {
            XCTFail("\(source): \(error)", file: file, line: line)
        }
    }

    private func failure(_ source: String) -> WhereSyntaxError? {
        do {
            _ = try WhereExpression(parsing: source)
            return nil
        } catch {
            return error
        }
    }

    func testComparisons() {
        check("pop == 12000000", true)
        check("pop == 1.2e7", true)
        check("pop != 12000000", false)
        check("pop > 1e6 and pop <= 12000000", true)
        check("pop < 5", false)
        check("area >= 12011.5", true)
        check("name == 'Île-de-France'", true)
        check("name == \"Île-de-France\"", true)
        check("name > 'Z'", true)       // 'Î' is U+00CE
        check("name < 'Z'", false)
        check("name > 5", false)              // string vs number: no order
        check("capital == true", true)
        check("capital == 'true'", false)
        check("stroke-width == 2", true)
        check("`odd key` == 'yes'", true)
    }

    func testMissingAndNull() {
        check("note == null", true)
        check("missing == null", true)
        check("missing != 1", true)
        check("missing > 0", false)
        check("note exists", true)
        check("missing exists", false)
        check("not missing exists", true)
        check("admin.level exists", true)
        check("admin.nope exists", false)
    }

    func testNestedListsRegexAndLogic() {
        check("admin.level == 1", true)
        check("admin.code ~ /^FR-/", true)
        check("tags.1 == 'region'", true)
        check("tags.5 exists", false)
        check("name ~ /de-france$/", false)
        check("name ~ /DE-FRANCE$/i", true)
        check("pop ~ /12/", false)            // only strings match
        check("admin.code in ['FR-IDF', 'FR-NOR']", true)
        check("pop in [1, 12000000.0]", true)
        check("pop in []", false)
        check("capital == false or pop > 1", true)
        check("not (capital == false or pop > 1)", false)
        check("capital == false or pop > 1 and name == 'x'", false)   // and binds tighter
        check("(capital == false or pop > 1) and name == 'x'", false)
        check("not not capital == true", true)
    }

    func testNullPropertiesMatchNothingButNotAndMissing() throws {
        let expression = try WhereExpression(parsing: "a == null and not a exists")
        XCTAssertTrue(try WhereEvaluator.evaluate(expression, nil))
    }

    func testErrorsPointAtTheColumn() throws {
        let cases: [(String, Int, String)] = [
            ("", 1, "empty"),
            ("pop >", 6, "expected a value"),
            ("pop = 3", 5, "'=='"),
            ("pop == 3 and", 13, "expected a property name"),
            ("(pop == 3", 10, "')' to close the '(' at column 1"),
            ("pop == 3)", 9, "expected 'and', 'or'"),
            ("name == 'abc", 9, "not closed"),
            ("name == abc", 9, "quote text values"),
            ("name ~ 'abc'", 8, "regular expression"),
            ("name ~ /[a-/", 8, "invalid regular expression"),
            ("name ~ /a/q", 11, "flag 'q'"),
            ("pop == 1.2.3", 8, "not a number"),
            ("pop 3", 5, "expected an operator"),
            ("pop in [1 2]", 11, "',' or ']'"),
            ("a.", 3, "property name after '.'"),
            ("pop == 3 # x", 10, "unexpected character '#'"),
            ("!pop", 1, "'not'"),
        ]
        for (source, column, fragment) in cases {
            guard let error = failure(source) else {
                XCTFail("\(source) parsed")
                continue
            }
            XCTAssertEqual(error.column, column, "\(source): \(error)")
            XCTAssertTrue(error.message.contains(fragment), "\(source): \(error.message)")
            XCTAssertTrue(error.description.contains("\n  \(source)\n"), error.description)
            XCTAssertTrue(error.description.hasSuffix(String(repeating: " ", count: column - 1) + "^"))
        }
    }

    func testColumnsCountCharactersNotBytes() {
        XCTAssertEqual(failure("name == 'é' and")?.column, 16)
    }
}
