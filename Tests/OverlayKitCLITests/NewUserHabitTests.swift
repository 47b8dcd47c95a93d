import Foundation
import TestSupport
import XCTest

/// What a new user types out of habit (issue 51 items 3, 12, 13, 14): a tile output named
/// like a file that is no tile set, tippecanoe's spellings, coordinates in the other order, a
/// negative number for a numeric option. Each gets the run it asks for or a usage error that
/// says what to write instead; none writes a directory of tiles by accident.
final class NewUserHabitTests: XCTestCase {
    private let parks = CLI.packageRoot.appendingPathComponent("Examples/parks.geojson").path

    func testATileOutputWithAnExtensionThatIsNoTileSetsIsRefusedUnlessADirectoryIsSaid() throws {
        let folder = try CLI.temporaryFolder(self)
        for name in ["out.pmtile", "out.geojson", "out.mvt", "tiles.d"] {
            let output = folder.appendingPathComponent(name).path
            let result = try CLI.run(["tile", parks, "-o", output, "-z", "2"])
            XCTAssertEqual(result.status, 64, "\(name): \(result.stderr)")
            let suffix = String(name[name.index(after: name.lastIndex(of: ".")!)...])
            XCTAssertTrue(result.stderr.contains(".\(suffix) is not a tile set's extension"), result.stderr)
            XCTAssertTrue(result.stderr.contains("--format dir"), result.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing written")
        // Said as a directory, by --format dir, tippecanoe's -e or --output-to-directory.
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        for arguments in [["-o", path("a.d"), "--format", "dir"], ["-e", path("b.d")], ["--output-to-directory", path("c.d")],
                          ["-e" + path("d.d")], ["-o", path("plain")]] {
            let result = try CLI.run(["tile", parks, "-z", "1"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        for name in ["a.d", "b.d", "c.d", "d.d", "plain"] {
            let metadata = folder.appendingPathComponent(name).appendingPathComponent("metadata.json").path
            XCTAssertTrue(FileManager.default.fileExists(atPath: metadata), "\(name) is a tile directory")
        }
        let both = try CLI.run(["tile", parks, "-o", folder.appendingPathComponent("x.pmtiles").path, "-e", folder.appendingPathComponent("y").path])
        XCTAssertEqual(both.status, 64, both.stderr)
    }

    func testTippecanoeSpellingsRunOrNameTheirEquivalent() throws {
        let folder = try CLI.temporaryFolder(self)
        let output = folder.appendingPathComponent("t.pmtiles").path
        let same = try CLI.run(["tile", parks, "-o", output, "-z3", "-pk", "-pf", "-pt"])
        XCTAssertEqual(same.status, 0, same.stderr)
        let equivalents = [(["-S", "10"], "--tolerance"), (["-d", "12"], "--extent"), (["-d12"], "--extent"), (["-D10"], "--extent"),
                           (["-pC"], "uncompressed"), (["-rg"], "--drop-rate"), (["-j", "{}"], "--where"), (["--simplification=5"], "--tolerance")]
        for (arguments, equivalent) in equivalents {
            let result = try CLI.run(["tile", parks, "-f", "-o", output] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("tippecanoe's"), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(equivalent), "\(arguments) should name \(equivalent): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Unknown option"), result.stderr)
        }
    }

    func testANegativeNumberIsAValueOutOfRangeNotAMissingOne() throws {
        let folder = try CLI.temporaryFolder(self)
        let output = folder.appendingPathComponent("t.pmtiles").path
        for (arguments, option) in [(["-z", "-1"], "--max-zoom"), (["-Z", "-3"], "--min-zoom"), (["--extent", "-4096"], "--extent"),
                                    (["--buffer", "-5"], "--buffer"), (["--threads", "-2"], "--threads")] {
            let result = try CLI.run(["tile", parks, "-o", output] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(option), "\(arguments): \(result.stderr)")
        }
        let convert = try CLI.run(["convert", parks, "--precision", "-1"])
        XCTAssertNotEqual(convert.status, 0)
        XCTAssertFalse(convert.stderr.contains("Missing value"), convert.stderr)
    }

    func testCoordinatesValidOnlySwappedGetAHintNamingTheOrder() throws {
        let near = try CLI.run(["filter", parks, "--near", "120,30,1000"])
        XCTAssertEqual(near.status, 64, near.stderr)
        XCTAssertTrue(near.stderr.contains("latitude first); did you mean 30,120?"), near.stderr)
        let box = try CLI.run(["filter", parks, "--bbox", "30,120,40,130"])
        XCTAssertEqual(box.status, 64, box.stderr)
        XCTAssertTrue(box.stderr.contains("longitude first); did you mean 120,30,130,40?"), box.stderr)
        let folder = try CLI.temporaryFolder(self)
        let center = try CLI.run(["render", parks, "--center", "120,30", "--zoom", "3", "-o", folder.appendingPathComponent("a.png").path])
        XCTAssertEqual(center.status, 64, center.stderr)
        XCTAssertTrue(center.stderr.contains("did you mean 30,120?"), center.stderr)
        // Valid both ways: taken as written, no hint.
        let plain = try CLI.run(["filter", parks, "--near", "52.5,13.4,1000"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
    }
}
