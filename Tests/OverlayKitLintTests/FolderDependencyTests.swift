import Foundation
import TestSupport
import XCTest

/// docs/design.md's table of which folder of Sources/OverlayKit may use which is the code's
/// dependency graph, exactly: a new use of another folder's types, a folder without a row, or a
/// row entry nothing uses any more fails here, naming the folders.
final class FolderDependencyTests: XCTestCase {
    func testDesignTableIsTheSourcesDependencies() throws {
        let design = try String(contentsOf: TestLocations.packageRoot.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let table = FolderTable(markdown: design)
        XCTAssertGreaterThan(table.allowed.count, 15, "the table's rows were not found")
        let dependencies = try FolderDependencies(root: TestLocations.packageRoot.appendingPathComponent("Sources/OverlayKit"),
                                                  folders: Array(table.allowed.keys))
        XCTAssertGreaterThan(dependencies.uses.count, 10)
        let problems = table.disagreements(with: dependencies)
        XCTAssertEqual(problems, [], "\n" + problems.joined(separator: "\n"))
    }

    /// The table has no cycle but the documented one (`IO/` picks the format readers and
    /// writers that use it); in particular the stage folders of `Tile/` form layers.
    func testFoldersFormLayersExceptTheDocumentedIOCycle() throws {
        let design = try String(contentsOf: TestLocations.packageRoot.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let table = FolderTable(markdown: design)
        let cycles = table.cycles()
        XCTAssertFalse(cycles.isEmpty, "the documented IO/ cycle was not found: the check lost its input")
        XCTAssertEqual(cycles.filter { !$0.contains("IO") }, [], "folders that use each other in a cycle")
        XCTAssertEqual(cycles.filter { $0.contains { $0.hasPrefix("Tile") } }, [], "Tile/'s stages must form layers")
        XCTAssertEqual(FolderTable(markdown: """
            | folder | holds | may use |
            |---|---|---|
            | `A/` | a | `B/` |
            | `B/` | b | `C/` |
            | `C/` | c | `A/` |
            | `D/` | d | `A/` |
            """).cycles(), [["A", "B", "C"]])
    }

    /// The checker on a small tree: a use the table lacks fails naming the pair; comments,
    /// strings and private types do not count; interpolated code does.
    func testCheckerNamesTheFolderPairOfAnUnlistedUse() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-deps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "Alpha/Alpha.swift": "public struct Alpha {}\nprivate struct Hidden {}\n",
            "Beta/Beta.swift": """
                enum Beta {
                    // Gamma in a comment, /* Gamma /* nested */ Gamma */ in a block comment
                    static let text = "Gamma in a string, \\(Alpha()) interpolated"
                    static let raw = #"Gamma \\(not code)"#
                    private struct Hidden {}
                }
                """,
            "Gamma/Gamma.swift": "package final class Gamma {}\n",
            "Loose/Loose.swift": "struct Loose { let beta = Beta.self }\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let table = FolderTable(markdown: """
            | folder | holds | may use |
            |---|---|---|
            | `Alpha/` | the first | model only |
            | `Beta/` | the second | `Gamma/` |
            | `Gamma/` | the third (`Gamma/Sub/` too) | model only |
            """)
        XCTAssertEqual(table.allowed, ["Alpha": [], "Beta": ["Gamma"], "Gamma": []])
        let dependencies = try FolderDependencies(root: root, folders: Array(table.allowed.keys))
        XCTAssertEqual(dependencies.uses, ["Beta": ["Alpha": "Alpha in Beta/Beta.swift"]])
        XCTAssertEqual(table.disagreements(with: dependencies), [
            "Loose/Loose.swift is in a folder docs/design.md's table has no row for",
            "Beta/ uses Alpha/ (Alpha in Beta/Beta.swift) but docs/design.md's table does not list it",
            "docs/design.md's table lets Beta/ use Gamma/, but no file of Beta/ does",
        ])
        var fixed = table
        fixed.allowed["Beta"] = ["Alpha"]
        fixed.allowed["Loose"] = ["Beta"]
        let refiled = try FolderDependencies(root: root, folders: Array(fixed.allowed.keys))
        XCTAssertEqual(fixed.disagreements(with: refiled), [])
    }

    func testCodeKeepsLineBreaksAndInterpolationsButNotText() {
        let source = "let a = \"x \\(B(\"C\")) y\" // D\n/* E\n */ let f = \"\"\"\n G \\(H)\n \"\"\""
        let code = FolderDependencies.code(of: source)
        XCTAssertEqual(code.filter { $0 == "\n" }.count, 4)
        XCTAssertEqual(FolderDependencies.identifiers(in: code), ["let", "a", "B", "f", "H"])
        XCTAssertEqual(FolderDependencies.declaredTypes(in: "@usableFromInline\nstruct Nested {}\n  struct Inner {}\nindirect enum E<T>: P {}\nfileprivate enum F {}\nextension G {}\n"),
                       ["Nested", "E"])
    }
}
