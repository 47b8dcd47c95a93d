import Foundation
import OverlayKit
import OverlayModel
import TestSupport
import XCTest

/// Diagnostic codes are typed (issue 22 item 1): every code is a declared `Diagnostic.Code`
/// member with a kind, no source spells a code as a string, the kind alone decides the exit
/// status, and docs/diagnostics.md lists every code with its kind and status.
final class DiagnosticCodeTests: XCTestCase {
    /// One `public static let name = Diagnostic.Code("raw", kind: .kind)` with the doc comment
    /// above it, as read from `Sources/OverlayModel/DiagnosticCodes`.
    struct Declaration {
        var name: String
        var rawValue: String
        var kind: String
        var summary: String
    }

    static let declarationFolder = TestLocations.packageRoot.appendingPathComponent("Sources/OverlayModel/DiagnosticCodes")
    static let codePattern = try! NSRegularExpression(pattern: "^[a-z0-9]+(\\.[a-z0-9-]+)+$")

    static func swiftFiles(under folder: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return files.sorted { $0.path < $1.path }
    }

    /// Every declaration in the declaration files, in file order.
    static func declarations() throws -> [Declaration] {
        let declaration = try NSRegularExpression(
            pattern: #"^\s*public static let (\w+) = Diagnostic\.Code\("([^"]*)", kind: \.(\w+)\)\s*$"#)
        let comment = try NSRegularExpression(pattern: #"^\s*/// `([^`]*)` \((\w+)\): (.*)$"#)
        var found: [Declaration] = []
        for file in swiftFiles(under: declarationFolder) {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                guard let match = declaration.firstMatch(in: line, range: range) else { continue }
                func group(_ number: Int, of match: NSTextCheckingResult, in text: String) -> String {
                    String(text[Range(match.range(at: number), in: text)!])
                }
                let name = group(1, of: match, in: line), raw = group(2, of: match, in: line), kind = group(3, of: match, in: line)
                var summary = ""
                if index > 0 {
                    let above = lines[index - 1]
                    if let doc = comment.firstMatch(in: above, range: NSRange(above.startIndex..., in: above)) {
                        XCTAssertEqual(group(1, of: doc, in: above), raw, "\(name): its doc comment names another code")
                        XCTAssertEqual(group(2, of: doc, in: above), kind, "\(name): its doc comment names another kind")
                        summary = group(3, of: doc, in: above)
                    }
                }
                XCTAssertFalse(summary.isEmpty, "\(file.lastPathComponent): \(name) lacks its /// `code` (kind): summary comment")
                found.append(Declaration(name: name, rawValue: raw, kind: kind, summary: summary))
            }
        }
        return found
    }

    func testEveryDeclaredCodeIsListedOnceAndWellFormed() throws {
        let declared = try Self.declarations()
        XCTAssertGreaterThan(declared.count, 250, "the declarations were not found under \(Self.declarationFolder.path)")
        let all = Diagnostic.Code.allDeclared
        // allDeclared is a hand-kept list per area: it must hold exactly the declared members.
        XCTAssertEqual(all.map(\.rawValue).sorted(), declared.map(\.rawValue).sorted(), "allDeclared and the declarations differ")
        XCTAssertEqual(Set(all.map(\.rawValue)).count, all.count, "a code is declared twice")
        XCTAssertEqual(Set(declared.map(\.name)).count, declared.count, "a member name is declared twice")
        for code in all {
            let range = NSRange(code.rawValue.startIndex..., in: code.rawValue)
            XCTAssertNotNil(Self.codePattern.firstMatch(in: code.rawValue, range: range), "\(code) is not area.kebab-case-name")
        }
        for declaration in declared {
            XCTAssertEqual(Diagnostic.Code(rawValue: declaration.rawValue)?.kind.rawValue, declaration.kind, declaration.name)
        }
    }

    /// A typo in a kind changes an exit status, so the I/O kind and the `io.` area agree.
    func testIOKindIsExactlyTheIOArea() {
        for code in Diagnostic.Code.allDeclared {
            XCTAssertEqual(code.kind == .io, code.rawValue.hasPrefix("io."), "\(code) has kind \(code.kind)")
        }
    }

    func testNoSourceSpellsACodeAsAString() throws {
        let declared = Set(Diagnostic.Code.allDeclared.map(\.rawValue))
        let literal = try NSRegularExpression(pattern: #""([a-z0-9]+(?:\.[a-z0-9-]+)+)""#)
        let files = Self.swiftFiles(under: TestLocations.packageRoot.appendingPathComponent("Sources"))
            .filter { !$0.path.hasPrefix(Self.declarationFolder.path + "/") }
        XCTAssertGreaterThan(files.count, 100, "the sources were not found under \(TestLocations.packageRoot.path)")
        var offenders: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let place = "\(file.lastPathComponent):\(index + 1)"
                if line.contains("code: \"") { offenders.append("\(place): code: \"…\"") }
                for match in literal.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let text = String(line[Range(match.range(at: 1), in: line)!])
                    if declared.contains(text) { offenders.append("\(place): \"\(text)\"") }
                }
            }
        }
        XCTAssertEqual(offenders, [], "name codes by their Diagnostic.Code member, not by string")
    }

    func testExitStatusFollowsTheKind() {
        XCTAssertEqual(Diagnostic.Code.Kind.usage.exitStatus, 64)
        XCTAssertEqual(Diagnostic.Code.Kind.data.exitStatus, 65)
        XCTAssertEqual(Diagnostic.Code.Kind.io.exitStatus, 74)
        XCTAssertEqual(Diagnostic.Code.Kind.finding.exitStatus, 1)
        let cases: [(Diagnostic.Code, Int32, Bool)] = [
            (.tileBadOption, 64, false), (.geojsonPositionTooShort, 65, false), (.ioNotFound, 74, true),
            (.ioWriteFailed, 74, true), (.kmlStyleUrlMissing, 1, false), (.kmzReadFailed, 65, false),
        ]
        for (code, status, isIO) in cases {
            let diagnostic = Diagnostic(.error, code: code, message: "m")
            XCTAssertEqual(diagnostic.exitStatus, status, "\(code)")
            XCTAssertEqual(diagnostic.isIOError, isIO, "\(code)")
        }
    }

    func testRawValuesLookUpDeclaredCodesAndPrintUnchanged() {
        XCTAssertEqual(Diagnostic.Code(rawValue: "io.not-found"), .ioNotFound)
        XCTAssertEqual(Diagnostic.Code(rawValue: "io.not-found")?.kind, .io)
        XCTAssertNil(Diagnostic.Code(rawValue: "io.no-such-code"))
        XCTAssertEqual("\(Diagnostic.Code.geojsonRingNotClosed)", "geojson.ring-not-closed")
        let diagnostic = Diagnostic(.warning, code: .kmlMissingStyle, message: "no style",
                                    location: SourceLocation(file: "a.kml", line: 3, column: 4))
        XCTAssertEqual(diagnostic.description, "a.kml:3:4: warning: kml.missing-style: no style")
        // Equality is by raw value, as a raw value has one kind.
        XCTAssertEqual(Diagnostic.Code("io.not-found", kind: .data), .ioNotFound)
        for code in GeoJSONDiagnosticCode.allCases {
            XCTAssertEqual(GeoJSONDiagnosticCode(rawValue: code.rawValue), code)
            XCTAssertEqual(code.code.rawValue, code.rawValue)
        }
    }

    @available(*, deprecated)
    func testStringCodesStillCompileAndKeepTheirKind() {
        XCTAssertEqual(Diagnostic(.error, code: "io.read-failed", message: "m").exitStatus, 74)
        XCTAssertEqual(Diagnostic(.error, code: "myapp.bad-thing", message: "m").code.kind, .data)
        let diagnostic = Diagnostic(.error, code: .kmzInvalid, message: "m")
        XCTAssertTrue(diagnostic.code == "kmz.invalid")
        XCTAssertFalse(diagnostic.code != "kmz.invalid")
        XCTAssertTrue(diagnostic.code != "kmz.corrupt")
    }

    /// docs/diagnostics.md has one row per code, `| code | member | kind | exit status | summary |`,
    /// the summary being the member's doc comment; it lists no code that is not declared.
    func testDocsListEveryCodeWithItsKindAndExitStatus() throws {
        let docs = try String(contentsOf: TestLocations.packageRoot.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        let rows = Set(docs.components(separatedBy: "\n").filter { $0.hasPrefix("| `") })
        var expected: Set<String> = []
        for declaration in try Self.declarations() {
            let status = Diagnostic.Code(rawValue: declaration.rawValue)?.kind.exitStatus ?? -1
            let row = "| `\(declaration.rawValue)` | `.\(declaration.name)` | \(declaration.kind) | \(status) | \(declaration.summary.replacingOccurrences(of: "|", with: "\\|")) |"
            expected.insert(row)
            XCTAssertTrue(rows.contains(row), "docs/diagnostics.md lacks or differs from this row:\n\(row)")
        }
        XCTAssertEqual(rows.subtracting(expected).sorted(), [], "docs/diagnostics.md lists rows for codes not declared so")
    }
}
