import Foundation
import TestSupport
import XCTest

/// `validate` streams KML: peak memory (VmHWM of the child, read from /proc) stays flat as the
/// document grows, even when every style and Schema is defined after the placemarks that use
/// them (the references must wait for their targets).
final class ValidateKMLMemoryTests: XCTestCase {
    /// A KML of `count` placemarks, each with a styleUrl, typed SchemaData and Data, a polygon
    /// and a TimeSpan; the Schema and styles come last (forward references).
    private func writeDocument(placemarks count: Int, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document>

        """
        for index in 0..<count {
            let lon = Double(index % 300) / 2 - 75, lat = Double(index % 120) / 2 - 30
            chunk += """
            <Placemark id="p\(index)"><name>place \(index)</name><styleUrl>#style\(index % 50)</styleUrl>
            <TimeSpan><begin>2001-01-\(String(format: "%02d", index % 28 + 1))</begin><end>2002</end></TimeSpan>
            <ExtendedData><Data name="label"><value>label \(index)</value></Data><Data name="note"><value>n</value></Data>
            <SchemaData schemaUrl="#survey"><SimpleData name="count">\(index)</SimpleData><SimpleData name="ratio">\(Double(index) / 7)</SimpleData><SimpleData name="ok">true</SimpleData></SchemaData></ExtendedData>
            <Polygon><outerBoundaryIs><LinearRing><coordinates>\(lon),\(lat) \(lon + 0.4),\(lat) \(lon + 0.4),\(lat + 0.4) \(lon),\(lat + 0.4) \(lon),\(lat)</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>

            """
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        chunk += """
        <Schema id="survey"><SimpleField name="count" type="int"/><SimpleField name="ratio" type="double"/><SimpleField name="ok" type="bool"/></Schema>

        """
        for style in 0..<50 {
            chunk += "<Style id=\"style\(style)\"><LineStyle><width>\(style % 4 + 1)</width></LineStyle></Style>\n"
        }
        chunk += "</Document></kml>\n"
        handle.write(Data(chunk.utf8))
    }

    func testPeakMemoryStaysFlatAsTheKMLGrows() throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc to read peak memory")
        let folder = try CLI.temporaryFolder(self)
        let small = folder.appendingPathComponent("small.kml"), large = folder.appendingPathComponent("large.kml")
        try writeDocument(placemarks: 4_500, to: small)
        try writeDocument(placemarks: 45_000, to: large)
        let largeSize = try FileManager.default.attributesOfItem(atPath: large.path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(largeSize, 20_000_000, "the large document is tens of megabytes")

        let smallRun = try CLI.runMeasuringPeakMemory(["validate", small.path], seconds: 300)
        let largeRun = try CLI.runMeasuringPeakMemory(["validate", large.path], seconds: 300)
        XCTAssertEqual(largeRun.status, 0, largeRun.stdout)
        XCTAssertEqual(largeRun.stdout.split(separator: "\n").last.map(String.init),
                       "1 file checked: 0 errors, 0 warnings, 0 notes", "every forward reference resolved, every value fits")
        XCTAssertGreaterThan(smallRun.peak, 0, "read VmHWM")
        print("validate peak RSS: \(smallRun.peak) kB for 4,500 placemarks, \(largeRun.peak) kB for 45,000 (\(largeSize) bytes)")
        // Ten times the input, at most a few megabytes more (the byte window, allocator slack).
        XCTAssertLessThan(largeRun.peak, smallRun.peak + 12 * 1024, "peak RSS grows with the input")
        XCTAssertLessThan(largeRun.peak, 64 * 1024)
    }

    func testForwardReferencesAreStillCheckedAfterTheSummary() throws {
        // A Schema defined last still types its values: the bad ones are reported with their
        // lines, whatever their number, without keeping every value.
        let folder = try CLI.temporaryFolder(self)
        let url = folder.appendingPathComponent("late.kml")
        var text = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
        for index in 0..<30 {
            text += "<Placemark><styleUrl>#gone</styleUrl><ExtendedData><SchemaData schemaUrl=\"#s\"><SimpleData name=\"n\">\(index % 3 == 0 ? "x\(index)" : "\(index)")</SimpleData></SchemaData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>\n"
        }
        text += "<Schema id=\"s\"><SimpleField name=\"n\" type=\"int\"/></Schema></Document></kml>\n"
        try Data(text.utf8).write(to: url)
        let result = try CLI.run(["validate", url.path])
        XCTAssertEqual(result.status, 1)
        let typeLines = result.lines.filter { $0.contains("kml.simple-data-type") }
        XCTAssertEqual(typeLines.count, 10, result.stdoutText)
        XCTAssertTrue(typeLines[0].hasPrefix(url.path + ":2:"), typeLines[0])
        XCTAssertTrue(typeLines.last?.contains("value 'x27' is not a valid int") ?? false, result.stdoutText)
        // 30 references to a missing style: 20 listed, then one line counting the rest.
        let styleLines = result.lines.filter { $0.contains("kml.style-url-missing") }
        XCTAssertEqual(styleLines.count, 21, result.stdoutText)
        XCTAssertTrue(styleLines.contains { $0.contains("10 more styleUrl references to #gone (not listed)") }, result.stdoutText)
    }
}
