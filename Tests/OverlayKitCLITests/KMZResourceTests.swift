import Foundation
import TestSupport
import XCTest

/// A KMZ's files (icons, images) on the way out: KMZ carries them, every other writer names each
/// one it drops in a `convert.dropped-resource` warning (it once dropped them with exit 0 and
/// no word, through a do-nothing default of `FeatureWriter.carry(_:)`).
final class KMZResourceTests: XCTestCase {
    private let document = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Style id="s"><IconStyle><Icon><href>files/icon.png</href></Icon></IconStyle></Style><Placemark><name>A</name><styleUrl>#s</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>"#

    /// A KMZ with doc.kml, files/icon.png and files/photo.jpg, built with Python's zipfile.
    private func makeKMZ(in folder: URL) throws -> URL {
        let python = URL(fileURLWithPath: try Prerequisite.python(modules: [], install: "Debian: python3"))
        let kmz = folder.appendingPathComponent("t.kmz")
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)
            z.writestr('doc.kml', sys.argv[2])
            z.writestr('files/icon.png', b'\\x89PNG icon bytes')
            z.writestr('files/photo.jpg', b'jpeg bytes')
            z.close()
            """
        let result = try CLI.runTool(python, ["-c", script, kmz.path, document])
        XCTAssertEqual(result.status, 0, result.stderr)
        return kmz
    }

    func testEveryWriterCarriesOrNamesEachResource() throws {
        let folder = try CLI.temporaryFolder(self)
        let kmz = try makeKMZ(in: folder)
        for output in ["t.geojson", "t.geojsons", "t.kml"] {
            let result = try CLI.run(["convert", kmz.path, "-o", folder.appendingPathComponent(output).path])
            XCTAssertEqual(result.status, 0, "\(output): \(result.stderr)")
            let warnings = result.stderr.split(separator: "\n").filter { $0.contains("convert.dropped-resource") }
            XCTAssertEqual(warnings.count, 2, "\(output): \(result.stderr)")
            XCTAssertTrue(warnings.contains { $0.contains("files/icon.png") }, "\(output): \(result.stderr)")
            XCTAssertTrue(warnings.contains { $0.contains("files/photo.jpg") }, "\(output): \(result.stderr)")
        }
        // filter selects features; the files still go into a KMZ, or are named.
        let filtered = try CLI.run(["filter", kmz.path, "-o", folder.appendingPathComponent("f.geojsons").path])
        XCTAssertEqual(filtered.status, 0, filtered.stderr)
        XCTAssertEqual(filtered.stderr.split(separator: "\n").filter { $0.contains("convert.dropped-resource") }.count, 2, filtered.stderr)
        let filteredKMZ = folder.appendingPathComponent("f.kmz")
        XCTAssertEqual(try CLI.run(["filter", kmz.path, "-o", filteredKMZ.path]).status, 0)
        if let unzip = CLI.which("unzip") {
            XCTAssertEqual(try CLI.runTool(unzip, ["-Z1", filteredKMZ.path]).lines, ["doc.kml", "files/icon.png", "files/photo.jpg"])
        }
        let copy = folder.appendingPathComponent("copy.kmz")
        let result = try CLI.run(["convert", kmz.path, "-o", copy.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("dropped-resource"), result.stderr)
        let unzip = URL(fileURLWithPath: try Prerequisite.executable("unzip", install: "Debian: unzip"))
        let listing = try CLI.runTool(unzip, ["-Z1", copy.path])
        XCTAssertEqual(listing.lines, ["doc.kml", "files/icon.png", "files/photo.jpg"])
        let icon = try CLI.runTool(unzip, ["-p", copy.path, "files/icon.png"])
        XCTAssertEqual(icon.stdout, Data([0x89] + Array("PNG icon bytes".utf8)))
    }
}
