import Foundation
import TestSupport
import XCTest

/// The README's table of test targets stays true: every target has a row, and each row's test
/// count is the number of test methods in the target's sources. (Its times are measurements,
/// written with the machine they were taken on; a unit test does not time itself.)
final class ReadmeTestTableTests: XCTestCase {
    func testEveryTargetHasARowWithItsTestCount() throws {
        let root = TestLocations.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let targets = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests").path)
            .filter { $0.hasSuffix("Tests") }.sorted()
        XCTAssertGreaterThanOrEqual(targets.count, 4, "the test targets were not found")
        let row = try NSRegularExpression(pattern: #"^\| `swift test --filter (\w+)` \|.*\((\d[\d,]*) tests\)"#, options: .anchorsMatchLines)
        var counts = [String: Int]()
        for match in row.matches(in: readme, range: NSRange(readme.startIndex..., in: readme)) {
            let target = String(readme[Range(match.range(at: 1), in: readme)!])
            counts[target] = Int(readme[Range(match.range(at: 2), in: readme)!].replacingOccurrences(of: ",", with: ""))
        }
        // A test method is a member of a test class: indented by one level. Deeper ones are
        // text (a made-up source in a string literal) or nested functions, which XCTest never runs.
        let method = try NSRegularExpression(pattern: #"^    func test\w*\(\)"#, options: .anchorsMatchLines)
        for target in targets {
            let folder = root.appendingPathComponent("Tests").appendingPathComponent(target)
            var tests = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
                let url = folder.appendingPathComponent(name)
                // The slow target links the CLI tests' support file; it holds no tests.
                let text = try String(contentsOf: url.resolvingSymlinksInPath(), encoding: .utf8)
                tests += method.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            }
            XCTAssertEqual(counts[target], tests, "README.md's row for \(target) should say (\(tests) tests)")
        }
    }
}
