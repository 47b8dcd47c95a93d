import Foundation
import TestSupport
import XCTest

/// A test that needs something optional (the corpus, python modules, a peer program) must skip
/// before its first assertion: XCTest on Linux counts an `XCTSkip` thrown inside an assertion
/// (`XCTAssertEqual(try decode(x), …)` where `decode` looks for python) as a failure, so a new
/// user's `swift test` would fail on a machine without the oracle. This reads every test source
/// and fails, naming file and line, where such a call sits inside an assertion, and where a
/// test skips without `Prerequisite` (the one helper that checks first).
final class SkipPlacementTests: XCTestCase {
    /// The scan of every test source, made once for both checks.
    private static let scanned = Result { () throws -> (count: Int, scan: SkipScan) in
        let sources = try SkipScan.testSources()
        return (sources.count, SkipScan(sources: sources))
    }

    func testNoSkipCanBeThrownInsideAnAssertion() throws {
        let (count, scan) = try Self.scanned.get()
        XCTAssertGreaterThan(count, 40, "the test sources were not found")
        XCTAssertTrue(scan.skipping.contains("KMLSchemaCheck"), "the scan lost track of the skipping helpers")
        XCTAssertEqual(scan.misplaced, [], "\n" + scan.misplaced.joined(separator: "\n"))
    }

    func testEverySkipGoesThroughPrerequisite() throws {
        let scan = try Self.scanned.get().scan
        XCTAssertEqual(scan.directSkips, [], "\n" + scan.directSkips.joined(separator: "\n"))
    }

    /// The scanner on a small made-up source: a skipping helper called inside an assertion is
    /// found, through another helper too; the same call before the assertion is not.
    func testScannerFindsASkipInsideAnAssertion() {
        let source = """
            func decode(_ url: URL) throws -> String {
                let python = try Prerequisite.python(modules: ["m"], install: "pip")
                return python
            }
            func summary(_ url: URL) throws -> String { try decode(url) + "" }
            func testBad() throws {
                XCTAssertEqual(try summary(url), "x")
            }
            func testGood() throws {
                let text = try summary(url)
                XCTAssertEqual(text, "x", "summary(url) in a message is text")
                XCTAssertEqual(try plain(url), "y")
            }
            """
        let scan = SkipScan(sources: [("Made/Up.swift", source)])
        XCTAssertEqual(scan.skipping, ["decode", "summary", "testBad", "testGood"])
        XCTAssertEqual(scan.misplaced, ["Made/Up.swift:7: summary may skip inside XCTAssertEqual"])
        let direct = SkipScan(sources: [("Made/Direct.swift", "func testX() throws {\n    throw XCTSkip(\"no\")\n}\n")])
        XCTAssertEqual(direct.directSkips, ["Made/Direct.swift:2: skips without Prerequisite"])
    }
}

/// Which test functions may throw a skip, and where one is called inside an assertion.
struct SkipScan {
    /// Names of functions (and types whose initializer) may throw a skip.
    private(set) var skipping: Set<String> = []
    /// "file:line: name may skip inside XCTAssert…" for each misplaced call.
    private(set) var misplaced: [String] = []
    /// "file:line: skips without Prerequisite" for each `XCTSkip` made outside the helper.
    private(set) var directSkips: [String] = []

    /// Every Swift file under Tests/, as (path from Tests/, text).
    static func testSources() throws -> [(String, String)] {
        let tests = TestLocations.packageRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted() ?? []
        return try files.map { ($0, try String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8)) }
    }

    init(sources: [(String, String)]) {
        let codes = sources.map { ($0.0, FolderDependencies.code(of: $0.1)) }
        // Every function (or initializer, named after its type) by file; a call resolves to the
        // file's own function of that name when it has one, else to any file's.
        var bodies: [(file: String, name: String, body: Substring)] = []
        for (path, code) in codes {
            for declaration in Self.declarations(in: code) { bodies.append((path, declaration.name, declaration.body)) }
            if path.hasSuffix("TestSupport/Prerequisite.swift") { continue }
            for line in Self.lines(containing: "XCTSkip(", in: code) { directSkips.append("\(path):\(line): skips without Prerequisite") }
        }
        var declared = [String: Set<String>]()
        for body in bodies { declared[body.file, default: []].insert(body.name) }
        // Directly skipping, then whatever calls those, until nothing changes.
        var skippingHere = Set(bodies.filter { $0.body.contains("XCTSkip(") || $0.body.contains("Prerequisite.") }
            .map { $0.file + ":" + $0.name })
        var skippingAnywhere = Set(bodies.filter { skippingHere.contains($0.file + ":" + $0.name) }.map(\.name))
        func skips(_ name: String, calledIn file: String) -> Bool {
            if declared[file]?.contains(name) ?? false { return skippingHere.contains(file + ":" + name) }
            return skippingAnywhere.contains(name)
        }
        var changed = true
        while changed {
            changed = false
            for body in bodies where !skippingHere.contains(body.file + ":" + body.name) {
                if Self.calledNames(in: body.body).contains(where: { skips($0, calledIn: body.file) }) {
                    skippingHere.insert(body.file + ":" + body.name)
                    skippingAnywhere.insert(body.name)
                    changed = true
                }
            }
        }
        skipping = skippingAnywhere
        for (path, code) in codes {
            for (line, assertion, argument) in Self.assertions(in: code) {
                if let name = Self.calledNames(in: argument).first(where: { skips($0, calledIn: path) }),
                   argument.range(of: #"\btry\b"#, options: .regularExpression) != nil {
                    misplaced.append("\(path):\(line): \(name) may skip inside \(assertion)")
                }
            }
        }
    }

    /// `func name(…) … { body }` and `init(…) throws { body }` (named after the enclosing
    /// type's declaration before it) in `code`.
    static func declarations(in code: String) -> [(name: String, body: Substring)] {
        var result: [(name: String, body: Substring)] = []
        let pattern = try! NSRegularExpression(pattern: #"\b(?:func\s+(\w+)|(?:struct|class|enum)\s+(\w+)|\binit\??)\b"#)
        var currentType = ""
        for match in pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
            if let range = Range(match.range(at: 2), in: code) { currentType = String(code[range]); continue }
            let name = Range(match.range(at: 1), in: code).map { String(code[$0]) } ?? currentType
            guard let start = Range(match.range, in: code)?.upperBound,
                  let open = code[start...].firstIndex(of: "{"), let body = balanced(code, from: open, open: "{", close: "}")
            else { continue }
            result.append((name, body))
        }
        return result
    }

    /// Each `XCTAssert…(` / `XCTUnwrap(` call's line, name and argument text.
    static func assertions(in code: String) -> [(line: Int, name: String, argument: Substring)] {
        let pattern = try! NSRegularExpression(pattern: #"\b(XCTAssert\w*|XCTUnwrap)\s*\("#)
        return pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap { match in
            guard let whole = Range(match.range, in: code), let name = Range(match.range(at: 1), in: code),
                  let argument = balanced(code, from: code.index(before: whole.upperBound), open: "(", close: ")") else { return nil }
            return (code[..<whole.lowerBound].filter { $0 == "\n" }.count + 1, String(code[name]), argument)
        }
    }

    /// The text from `from` (an opening bracket) to its matching closing one, inclusive.
    static func balanced(_ code: String, from: String.Index, open: Character, close: Character) -> Substring? {
        var depth = 0
        var index = from
        while index < code.endIndex {
            if code[index] == open { depth += 1 }
            if code[index] == close {
                depth -= 1
                if depth == 0 { return code[from...index] }
            }
            index = code.index(after: index)
        }
        return nil
    }

    /// Identifiers directly followed by `(` (calls, initializers), except methods called on a
    /// value (`reader.tile(…)`); `Self.f(…)` and `Type.f(…)` count.
    static func calledNames(in text: Substring) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(?<![a-z0-9_)\]]\.)\b([A-Za-z_]\w*)\s*\("#)
        let string = String(text)
        return pattern.matches(in: string, range: NSRange(string.startIndex..., in: string)).compactMap {
            Range($0.range(at: 1), in: string).map { String(string[$0]) }
        }
    }

    /// The 1-based numbers of the lines of `code` containing `text`.
    static func lines(containing text: String, in code: String) -> [Int] {
        code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.contains(text) }.map { $0.offset + 1 }
    }
}
