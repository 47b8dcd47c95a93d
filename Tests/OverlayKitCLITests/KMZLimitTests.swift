import Foundation
import TestSupport
import XCTest

/// Hostile KMZ archives: bombs, corrupt bytes, entry names that escape, and many entries.
/// The archives are built in the test with Python's zipfile (a test oracle, not a dependency).
final class KMZLimitTests: XCTestCase {
    private let placemark = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>A</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>"#

    /// Runs a Python snippet that writes a zip at `path` (argv[1]); skips when python3 is missing.
    private func makeZip(_ path: URL, _ script: String) throws {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: [], install: "Debian: python3"))
        let result = try CLI.runTool(python, ["-c", "import sys, zipfile\n" + script, path.path])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testZipBombIsRefusedWithAClearErrorAndNoLeftovers() throws {
        let folder = try CLI.temporaryFolder(self)
        let bomb = folder.appendingPathComponent("bomb.kmz")
        // 80 MiB of one repeated byte after a valid start: deflates about 1,000 to 1.
        try makeZip(bomb, """
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)
            z.writestr('doc.kml', '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>' + ' ' * (80 << 20) + '</Document></kml>')
            z.close()
            """)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["TMPDIR=\(temporary.path)", CLI.binary.path, "convert", bomb.path, "--to", "geojson"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("kmz.too-large") && result.stderr.contains("--max-kmz-size"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "inflated data left behind")
        // A trusted file passes when the limit is raised.
        let raised = try CLI.run(["convert", bomb.path, "--to", "geojson", "--max-kmz-size", "200"])
        XCTAssertEqual(raised.status, 0, raised.stderr)
        // And a small absolute limit applies whatever the ratio.
        let small = try CLI.run(["info", bomb.path, "--max-kmz-size", "1"])
        XCTAssertEqual(small.status, 65, small.stderr)
        XCTAssertTrue(small.stderr.contains("more than 1 MiB"), small.stderr)
    }

    func testCorruptByteIsDetectedByItsCRC() throws {
        let folder = try CLI.temporaryFolder(self)
        let kmz = folder.appendingPathComponent("stored.kmz")
        // Stored (not deflated), so a flipped byte still inflates: only the CRC can catch it.
        try makeZip(kmz, "z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED)\nz.writestr('doc.kml', '''\(placemark)''')\nz.close()")
        var bytes = try Data(contentsOf: kmz)
        let range = try XCTUnwrap(bytes.range(of: Data("<name>A</name>".utf8)))
        bytes[range.lowerBound + 6] = UInt8(ascii: "B")
        try bytes.write(to: kmz)
        let result = try CLI.run(["convert", kmz.path, "--to", "geojson"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("kmz.corrupt"), result.stderr)
        XCTAssertFalse(result.stdoutText.contains("\"B\""), "the corrupted content was converted")
    }

    func testEntryNamesThatEscapeAreNotCarriedIntoWrittenKMZ() throws {
        let folder = try CLI.temporaryFolder(self)
        let kmz = folder.appendingPathComponent("names.kmz"), output = folder.appendingPathComponent("out.kmz")
        try makeZip(kmz, """
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)
            z.writestr('doc.kml', '''\(placemark)''')
            for name in ['files/icon.png', '../../evil.png', '/etc/evil.png', 'dir\\\\evil.png', 'C:/evil.png']:
                z.writestr(zipfile.ZipInfo(name), b'png')
            z.close()
            """)
        let result = try CLI.run(["convert", kmz.path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "kmz.unsafe-entry-name").count - 1, 4, result.stderr)
        let listing = try CLI.runTool(CLI.which("python3")!, ["-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", output.path])
        XCTAssertEqual(listing.lines, ["doc.kml", "files/icon.png"])
    }

    /// Issue 25 item 13: the KML entry itself named `../doc.kml` was read without a word.
    func testAnEscapingNameOnTheKMLEntryItselfIsWarnedAbout() throws {
        let folder = try CLI.temporaryFolder(self)
        let kmz = folder.appendingPathComponent("up.kmz"), output = folder.appendingPathComponent("out.kmz")
        try makeZip(kmz, """
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)
            z.writestr(zipfile.ZipInfo('../doc.kml'), '''\(placemark)''')
            z.close()
            """)
        let result = try CLI.run(["convert", kmz.path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(kmz.path):1:1: warning: kmz.unsafe-entry-name: the KML entry '../doc.kml' escapes the archive"),
                      result.stderr)
        let listing = try CLI.runTool(CLI.which("python3")!, ["-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", output.path])
        XCTAssertEqual(listing.lines, ["doc.kml"])
        let validation = try CLI.run(["validate", kmz.path])
        XCTAssertTrue((validation.stdoutText + validation.stderr).contains("kmz.unsafe-entry-name"), validation.stdoutText + validation.stderr)
    }

    func testKMZToKMZWithManyEntriesIsLinear() throws {
        let folder = try CLI.temporaryFolder(self)
        let kmz = folder.appendingPathComponent("many.kmz"), output = folder.appendingPathComponent("out.kmz")
        try makeZip(kmz, """
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)
            z.writestr('doc.kml', '''\(placemark)''')
            for i in range(70000): z.writestr('files/%05d.png' % i, b'x')
            z.close()
            """)
        // Quadratic lookups took 33 s for 5,000 entries; ZIPFoundation's appends (the whole
        // directory rewritten per entry) took minutes for 70,000 (issue 25 item 14); linear
        // takes seconds. A generous bound only catches that class of mistake.
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", CLI.binary.path, "convert", kmz.path, "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let count = try CLI.runTool(CLI.which("python3")!, ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(len(z.namelist()), z.testzip())", output.path])
        XCTAssertEqual(count.lines, ["70001 None"])
    }
}
