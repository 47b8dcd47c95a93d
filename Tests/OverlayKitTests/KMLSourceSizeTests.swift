import Foundation
import TestSupport
import XCTest

/// Keeps the KML code readable (issue 22 item 4): no Swift file under `Sources/OverlayKit/KML`
/// over 450 lines, no function (or initializer, subscript) body over 80 lines.
final class KMLSourceSizeTests: XCTestCase {
    static let maximumFileLines = 450
    static let maximumFunctionLines = 80

    static var kmlSources: [URL] {
        let folder = TestLocations.packageRoot.appendingPathComponent("Sources/OverlayKit/KML")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return files.sorted { $0.path < $1.path }
    }

    func testNoKMLSourceFileIsOverTheLineLimit() throws {
        let files = Self.kmlSources
        XCTAssertGreaterThan(files.count, 20, "the KML sources were not found under \(TestLocations.packageRoot.path)")
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            // A final newline ends the last line; it does not start another (as `wc -l` counts).
            let count = lines.last == "" ? lines.count - 1 : lines.count
            XCTAssertLessThanOrEqual(count, Self.maximumFileLines, "\(file.lastPathComponent) has \(count) lines: split it by concern")
        }
    }

    func testNoKMLFunctionIsOverTheLineLimit() throws {
        var measured = 0
        for file in Self.kmlSources {
            for function in SwiftFunctionLengths.measure(try String(contentsOf: file, encoding: .utf8)) {
                measured += 1
                XCTAssertLessThanOrEqual(function.lines, Self.maximumFunctionLines,
                                         "\(file.lastPathComponent):\(function.line) `\(function.declaration)` is \(function.lines) lines long")
            }
        }
        XCTAssertGreaterThan(measured, 100, "the function scanner found too few functions to be working")
    }

    /// The scanner counts a body from its declaration line to its closing brace, and braces in
    /// strings (also raw, multi-line and interpolated) and comments do not count.
    func testTheFunctionScannerIgnoresBracesInStringsAndComments() {
        let source = #"""
        struct S {
            /// A doc comment with a { brace.
            func one(_ x: Int = { 1 }()) -> String {
                let a = "}}} \("{" + "}") {"
                let b = #"raw } "quoted" \(not interpolation {"#
                /* block { /* nested } */ } */
                // line comment }
                let c = """
                    multi-line }
                    \(a.map { $0 })
                    """
                return a + b + c
            }

            init?(
                value: Int
            ) where Int: Equatable {
                if value > 0 { return nil }
            }

            private static func three() {}
        }
        """#
        let functions = SwiftFunctionLengths.measure(source)
        XCTAssertEqual(functions.map(\.line), [3, 15, 21])
        XCTAssertEqual(functions.map(\.lines), [11, 5, 1])
    }
}

/// Lengths of the function bodies in Swift source text, found by matching braces in the code
/// with comments and string-literal text blanked out.
enum SwiftFunctionLengths {
    struct Function {
        /// The 1-based line of the declaration.
        var line: Int
        /// Lines from the declaration to the closing brace, both included.
        var lines: Int
        var declaration: String
    }

    static func measure(_ source: String) -> [Function] {
        let code = blankingCommentsAndStrings(Array(source.utf8))
        let lines = code.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let declaration = try! NSRegularExpression(
            pattern: #"^\s*(@\w+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|package|static|class|final|mutating|nonmutating|override|convenience|required|private\(set\))\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])"#)
        var functions: [Function] = []
        for (index, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            guard let match = declaration.firstMatch(in: line, range: range), let name = Range(match.range(at: 5), in: line) else { continue }
            guard let end = closingLine(of: index, in: lines) else { continue }
            functions.append(Function(line: index + 1, lines: end - index + 1, declaration: String(line[name]).trimmingCharacters(in: .whitespaces)))
        }
        return functions
    }

    /// The line of the brace closing the body that starts at or after line `start`, nil when the
    /// declaration has no body (a protocol requirement).
    private static func closingLine(of start: Int, in lines: [String]) -> Int? {
        var parentheses = 0
        var braces = 0
        var opened = false
        for index in start..<lines.count {
            for character in lines[index].utf8 {
                switch character {
                case UInt8(ascii: "("), UInt8(ascii: "["): parentheses += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"): parentheses -= 1
                case UInt8(ascii: "{"):
                    if parentheses == 0 { opened = true }
                    braces += 1
                case UInt8(ascii: "}"):
                    braces -= 1
                    if braces < 0 { return nil }
                    if opened && braces == 0 && parentheses == 0 { return index }
                default: break
                }
            }
        }
        return nil
    }

    /// The source with every byte inside a comment or a string literal's text replaced by a
    /// space (newlines kept); interpolations `\( … )` stay code.
    static func blankingCommentsAndStrings(_ bytes: [UInt8]) -> [UInt8] {
        enum Context {
            case code(parentheses: Int)
            case string(hashes: Int, multiLine: Bool)
        }
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var out = bytes
        var stack: [Context] = [.code(parentheses: 0)]
        var index = 0
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func blank(_ count: Int) {
            for offset in 0..<count where index + offset < bytes.count && bytes[index + offset] != newline { out[index + offset] = space }
            index += count
        }
        func hashes(from offset: Int) -> Int {
            var count = 0
            while at(offset + count) == hash { count += 1 }
            return count
        }
        while index < bytes.count {
            switch stack[stack.count - 1] {
            case .code(let parentheses):
                let byte = bytes[index]
                if byte == slash && at(1) == slash {
                    while index < bytes.count && bytes[index] != newline { blank(1) }
                } else if byte == slash && at(1) == star {
                    var depth = 0
                    repeat {
                        if at(0) == slash && at(1) == star { depth += 1; blank(2) } else if at(0) == star && at(1) == slash { depth -= 1; blank(2) } else { blank(1) }
                    } while depth > 0 && index < bytes.count
                } else if byte == quote || (byte == hash && at(hashes(from: 0)) == quote) {
                    let count = hashes(from: 0)
                    let multiLine = at(count) == quote && at(count + 1) == quote && at(count + 2) == quote
                    blank(count + (multiLine ? 3 : 1))
                    stack.append(.string(hashes: count, multiLine: multiLine))
                } else if byte == UInt8(ascii: "(") {
                    stack[stack.count - 1] = .code(parentheses: parentheses + 1)
                    index += 1
                } else if byte == UInt8(ascii: ")") && parentheses == 0 && stack.count > 1 {
                    stack.removeLast()
                    blank(1)
                } else {
                    if byte == UInt8(ascii: ")") { stack[stack.count - 1] = .code(parentheses: parentheses - 1) }
                    index += 1
                }
            case .string(let count, let multiLine):
                let byte = bytes[index]
                if byte == backslash && hashes(from: 1) == count {
                    if at(1 + count) == UInt8(ascii: "(") {
                        blank(2 + count)
                        stack.append(.code(parentheses: 0))
                    } else {
                        blank(2 + count)
                    }
                } else if byte == quote && (!multiLine || (at(1) == quote && at(2) == quote)) && hashes(from: multiLine ? 3 : 1) >= count {
                    blank((multiLine ? 3 : 1) + count)
                    stack.removeLast()
                } else {
                    blank(1)
                }
            }
        }
        return out
    }
}
