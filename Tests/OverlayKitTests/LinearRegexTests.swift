@testable import OverlayKit
import XCTest

/// `--where` regexes run in linear time; Swift's backtracking `Regex` is the oracle for what
/// they match, on patterns it can run without blowing up.
final class LinearRegexTests: XCTestCase {
    func testCatastrophicPatternsAnswerAtOnce() throws {
        // With backtracking, each of these takes ~2^n steps on n a's followed by a b.
        let text = String(repeating: "a", count: 5_000) + "b"
        for pattern in ["^(a+)+$", "^(a|aa)+$", "^(a*)*$", "(a|a)*c", "^(a?){25}a{25}$"] {
            XCTAssertFalse(try LinearRegex(pattern: pattern, flags: "").matches(text), pattern)
        }
        XCTAssertTrue(try LinearRegex(pattern: "^(a?){25}a{25}$", flags: "").matches(String(repeating: "a", count: 25)))
        // Through the CLI's expression, as a user writes it.
        let expression = try WhereExpression(parsing: "name ~ /^(a+)+$/")
        XCTAssertFalse(try WhereEvaluator.evaluate(expression, ["name": .string(text)]))
    }

    func testAgreesWithSwiftRegexOnRandomTexts() throws {
        let patterns = [
            "a", "^a", "a$", "ab|ba", "a*b", "a+b+", "a?b", "(ab)+", "(?:a|b)c", "[ab]+_", "[^a]", "[a-c]{2}", "a{2,}",
            "a{1,3}b", "\\d+", "\\w\\s", "\\D", "\\W", "\\S+", ".", "a.b", "^$", "x|", "(|a)b",
            "[\\d_]", "1\\.2", "A", "(a|b)*abb", "^(a|ab)(c|bcd)$", "[-a]", "[a-]", "\\x41", "\\u{61}",
        ]
        let alphabet: [Character] = ["a", "b", "c", "A", "B", "1", "2", "_", " ", "\n", ".", "-", "é"]
        var generator = SystemRandomNumberGenerator()
        var texts = ["", "a", "ab", "ba\n", "\nab", "abb", "a.b", "1.2"]
        for _ in 0..<300 {
            let length = Int.random(in: 0...8, using: &generator)
            texts.append(String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for pattern in patterns {
            for flags in ["", "i", "m", "s"] {
                let ours = try LinearRegex(pattern: pattern, flags: flags)
                let swiftPattern = pattern.replacingOccurrences(of: "\\u{61}", with: "\\u{0061}")
                let oracle = try Regex(flags.isEmpty ? swiftPattern : "(?\(flags))" + swiftPattern)
                    .asciiOnlyCharacterClasses().matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
                for text in texts {
                    let expected = (try? oracle.firstMatch(in: text)) != nil
                    XCTAssertEqual(try ours.matches(text), expected, "/\(pattern)/\(flags) on \(text.debugDescription)")
                }
            }
        }
    }

    /// Word boundaries as RE2, PCRE and Python's `re` draw them (`\\w` is `[0-9A-Za-z_]`); Swift's
    /// own boundaries differ (Unicode words, or letters only), so they are pinned here instead.
    func testWordBoundariesFollowRE2() throws {
        let cases: [(String, String, Bool)] = [
            ("\\bab", ".b.ab2a", true), ("\\bab", "cab", false), ("ab\\b", "cab.", true), ("ab\\b", "ab2", false),
            ("\\Bb", "1b", true), ("\\Bb", "a b", false), ("\\Bb", "ab", true), ("\\b", "", false), ("\\B", "", true),
        ]
        for (pattern, text, expected) in cases {
            XCTAssertEqual(try LinearRegex(pattern: pattern, flags: "").matches(text), expected, "/\(pattern)/ on \(text.debugDescription)")
        }
    }

    func testExtendedFlagIgnoresSpaceAndComments() throws {
        let regex = try LinearRegex(pattern: "^ a b  # two letters\n c $", flags: "x")
        XCTAssertTrue(try regex.matches("abc"))
        XCTAssertFalse(try regex.matches("a b c"))
    }

    func testRefusedConstructsSayWhy() {
        for (pattern, message) in [
            ("(a)\\1", "backreferences are not supported"), ("a(?=b)", "lookaround is not supported"),
            ("(?<!a)b", "lookaround is not supported"), ("(?i)a", "inline flags"), ("[a-", "missing ']'"),
            ("(a", "missing ')'"), ("a)", "unmatched ')'"), ("*a", "nothing to repeat"), ("a{2000}", "above 1000"),
            ("(a{1000}){1000}", "too large"), ("\\q", "unknown escape"), ("[z-a]", "reversed"),
            (String(repeating: "(", count: 300) + String(repeating: ")", count: 300), "nest deeper"),
        ] {
            XCTAssertThrowsError(try LinearRegex(pattern: pattern, flags: ""), pattern) { error in
                XCTAssertTrue(String(describing: error).contains(message), "\(pattern): \(error)")
            }
        }
    }
}
