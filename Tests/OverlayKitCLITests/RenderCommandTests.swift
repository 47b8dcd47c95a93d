import TestSupport
import XCTest
import OverlayKit
import OverlayModel

/// Runs the built `overlaykit render` and checks outputs, messages and exit codes.
final class RenderCommandTests: XCTestCase {
    private static let packageRoot = CLI.packageRoot
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryFolder(self)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let result = try CLI.run(arguments)
        return (result.status, result.stdout, result.stderr)
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private let square = #"{"type":"Feature","properties":{"name":"Sq"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}"#

    func testPNGHasTheRequestedSizeAndFitsTheData() throws {
        let input = try write(square, "in.geojson"), output = directory.appendingPathComponent("out.png").path
        let result = try run(["render", input, "-o", output, "--size", "300x200", "--scale", "2", "--padding", "64",
                              "--style", try write(##"{"rules":[{"style":{"fill":"#000000","stroke":"none"}}]}"##, "s.json")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("rendered 1 of 1 features, 600×400 px"), result.stderr)
        let image = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        XCTAssertEqual(image.width, 600)
        XCTAssertEqual(image.height, 400)
        // Fitted with 64-point padding: the square's height fills 400 − 2·128 px around the middle.
        XCTAssertEqual(image.pixel(x: 300, y: 200), RGBAColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(image.pixel(x: 300, y: 200 - 66), RGBAColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(image.pixel(x: 300, y: 200 - 78), RGBAColor(red: 255, green: 255, blue: 255))
    }

    func testSVGToStandardOutput() throws {
        let input = try write(square, "in.geojson")
        let result = try run(["render", input, "-o", "-", "--format", "svg", "--center", "5,5", "--zoom", "4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let svg = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertTrue(svg.contains("<title>Sq</title>"))
        XCTAssertTrue(svg.contains("width=\"1024\" height=\"768\""))
    }

    func testBadInputFailsWithLocationAndWritesNothing() throws {
        let input = try write(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[0,0]]}}]}"#, "bad.geojson")
        let output = directory.appendingPathComponent("bad.png").path
        let result = try run(["render", input, "-o", output])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("bad.geojson:1:"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("bad.png") }
        XCTAssertEqual(leftovers, [])
    }

    func testBadStyleSheetNamesTheSpot() throws {
        let input = try write(square, "in.geojson")
        let style = try write("{\n  \"rules\": [{\"style\": {\"fill\": \"grey\"}}]\n}", "bad-style.json")
        let result = try run(["render", input, "-o", directory.appendingPathComponent("x.png").path, "--style", style])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("bad-style.json:2:32: error: style.bad-value: 'fill' must be a color"), result.stderr)
        XCTAssertTrue(result.stderr.contains("(/rules/0/style/fill)"), result.stderr)
    }

    func testUsageErrors() throws {
        let input = try write(square, "in.geojson"), output = directory.appendingPathComponent("u.png").path
        for (arguments, message) in [
            (["--size", "100"], "--size must be WIDTHxHEIGHT"),
            (["--center", "10,10"], "--center goes with --zoom or --distance"),
            (["--center", "95,10", "--zoom", "3"], "--center must be LAT,LON"),
            (["--zoom", "3", "--center", "1,1", "--fit"], "--fit cannot be combined"),
            (["--background", "blue"], "--background must be"),
            (["--size", "9000x10", "--scale", "2"], "1…16384 pixels"),
        ] {
            let result = try run(["render", input, "-o", output] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let unknown = try run(["render", input, "-o", directory.appendingPathComponent("out.jpg").path])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("name it .png or .svg"), unknown.stderr)
    }

    /// Angle options are reduced exactly or refused: a double beyond 2^53 cannot tell whole
    /// degrees apart (`--bearing 1e308` drew a blank picture with exit 0, `1e300` reported
    /// "bearing 0.0" and fitted with another angle); pitch is 0…85.
    func testAngleAndDistanceOptionsAreCheckedAndReducedExactly() throws {
        let input = try write(square, "in.geojson"), output = directory.appendingPathComponent("a.png").path
        for (arguments, message) in [
            (["--bearing", "1e308"], "--bearing must be a number of degrees within ±9007199254740992"),
            (["--heading", "-1e300"], "--bearing must be a number of degrees within ±9007199254740992"),
            (["--bearing", "nan"], "--bearing must be"),
            (["--pitch", "85.5"], "--pitch must be 0…85 degrees"),
            (["--tilt", "-1"], "--pitch must be 0…85 degrees"),
            (["--pitch", "inf"], "--pitch must be 0…85 degrees"),
            (["--pitch", "1e308"], "--pitch must be 0…85 degrees"),
            (["--center", "0,0", "--zoom", "3", "--distance", "1000"], "give --zoom or --distance, not both"),
            (["--center", "0,0", "--distance", "0"], "--distance must be"),
            (["--center", "0,0", "--distance", "1e12"], "--distance must be"),
            (["--distance", "1000"], "--center goes with --zoom or --distance"),
            (["--distance", "1000", "--fit"], "--fit cannot be combined"),
            (["--sky", "sky"], "--sky must be"),
        ] {
            let result = try run(["render", input, "-o", output] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        }
        // Reduced exactly: −720.5 is 359.5; the largest reducible value is accepted.
        let turned = try run(["render", input, "-o", output, "--heading", "-720.5"])
        XCTAssertEqual(turned.status, 0, turned.stderr)
        XCTAssertTrue(turned.stderr.contains("bearing 359.5"), turned.stderr)
        let largest = try run(["render", input, "-o", output, "-f", "--bearing", "9007199254740992"])
        XCTAssertEqual(largest.status, 0, largest.stderr)
        XCTAssertTrue(largest.stderr.contains("bearing 32.0"), largest.stderr)
        // --heading and --tilt are --bearing and --pitch.
        let svgA = try run(["render", input, "-o", "-", "--format", "svg", "--bearing", "30", "--pitch", "40"])
        let svgB = try run(["render", input, "-o", "-", "--format", "svg", "--heading", "30", "--tilt", "40"])
        XCTAssertEqual(svgA.status, 0, svgA.stderr)
        XCTAssertEqual(svgA.stdout, svgB.stdout)
        XCTAssertTrue(svgA.stderr.contains("bearing 30.0, pitch 40.0"), svgA.stderr)
    }

    /// MapKit's centerCoordinateDistance: 768 points tall, the eye is 1152 points from the
    /// center; at zoom 5 over the equator that is 1152 · 2^15 · 0.149291 m = 5,635,549 m.
    func testDistanceGivesTheZoom() throws {
        let input = try write(square, "in.geojson"), output = directory.appendingPathComponent("d.png").path
        let meters = 1152 * 32768 * EarthModel.circumference / 268_435_456
        let result = try run(["render", input, "-o", output, "--center", "0,5", "--distance", "\(meters)", "--pitch", "30"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("zoom 5.0, center 0.0,5.0, bearing 0.0, pitch 30.0"), result.stderr)
        let half = try run(["render", input, "-o", output, "-f", "--center", "60,5", "--distance", "\(meters / 2)"])
        XCTAssertTrue(half.stderr.contains("zoom 5.0"), half.stderr)
    }

    func testRenderOfTheCountriesCorpusFile() throws {
        let countries = Self.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/real/ne_50m_admin_0_countries.geojson")
        _ = try Prerequisite.corpus("real/ne_50m_admin_0_countries.geojson")
        let output = directory.appendingPathComponent("countries.svg").path
        let result = try run(["render", countries.path, "-o", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertTrue(svg.contains("<title>France</title>"))
        XCTAssertTrue(svg.contains("<title>Fiji</title>"))
        // Fitting the whole world: every country with area at this scale gets a mark.
        XCTAssertTrue(result.stderr.contains("of 241 features"), result.stderr)
    }

    // MARK: Views that cannot show the data (issue 34 item 6)

    func testAViewTooSmallForTheDataIsRefusedNotSquashed() throws {
        let countries = Self.packageRoot.appendingPathComponent("Examples/countries.geojson").path
        let output = directory.appendingPathComponent("thin.png").path
        // Even the default padding (a quarter of the shorter side) leaves no room in a view one
        // point tall; given padding that leaves none is refused as such.
        let padded = try run(["render", countries, "-o", output, "--size", "1024x1"])
        XCTAssertEqual(padded.status, 64, padded.stderr)
        XCTAssertTrue(padded.stderr.contains("--size: a padding of 0.25 points leaves no room"), padded.stderr)
        let given = try run(["render", countries, "-o", output, "--size", "1024x100", "--padding", "64"])
        XCTAssertEqual(given.status, 64, given.stderr)
        XCTAssertTrue(given.stderr.contains("--padding: a padding of 64.0 points leaves no room"), given.stderr)
        // Without padding the fit would need a zoom below 0: refused with what would help.
        let squashed = try run(["render", countries, "-o", output, "--size", "1024x1", "--padding", "0"])
        XCTAssertEqual(squashed.status, 64, squashed.stderr)
        XCTAssertTrue(squashed.stderr.contains("error: render.view-too-small: the data does not fit a 1024×1-point view"), squashed.stderr)
        XCTAssertTrue(squashed.stderr.contains("below the smallest a fit may take, -1.0"), squashed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "nothing written")
        // A small world thumbnail: a fit may zoom out to −1, where the world is 128 points wide.
        let thumbnail = try run(["render", countries, "-o", output, "--size", "128x96", "--padding", "0"])
        XCTAssertEqual(thumbnail.status, 0, thumbnail.stderr)
        XCTAssertTrue(thumbnail.stderr.contains("zoom -"), thumbnail.stderr)
        // A small view gets a small padding by default.
        let parks = Self.packageRoot.appendingPathComponent("Examples/parks.geojson").path
        let small = try run(["render", parks, "-f", "-o", output, "--size", "64x64"])
        XCTAssertEqual(small.status, 0, small.stderr)
    }

    func testTheSummarySaysWhatWasNotDrawnAndWhy() throws {
        // In view and drawn, off to the east, and a speck under a quarter pixel at this zoom.
        let input = try write(RenderFixturesCLI.collection([
            square,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[100,0],[101,0],[101,1],[100,0]]]}}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[5,5],[5.0000001,5],[5.0000001,5.0000001],[5,5]]]}}"#,
        ]), "three.geojson")
        let result = try run(["render", input, "-o", directory.appendingPathComponent("o.png").path, "--center", "5,5", "--zoom", "4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("rendered 1 of 3 features (1 outside the view, 1 too small to see)"), result.stderr)
    }

    func testImpossibleCamerasAreUsageErrors() throws {
        let input = try write(square, "in.geojson"), output = directory.appendingPathComponent("o.png").path
        for (arguments, message) in [
            (["--zoom=-1", "--center", "0,0"], "--zoom must be 0…24"),
            (["--zoom", "25", "--center", "0,0"], "--zoom must be 0…24"),
            (["--size", "0x10"], "--size must be WIDTHxHEIGHT"),
            (["--size", "10x10", "--scale", "0.01"], "--size × --scale must be 1…16384 pixels"),
            (["--padding", "5", "--size", "10x10"], "--padding: a padding of 5.0 points leaves no room"),
            (["--cluster-distance=-1"], "--cluster-distance must be 0…256"),
            (["--cluster-distance", "nan"], "--cluster-distance must be 0…256"),
            (["--label-priority", ""], "--label-priority must name a property"),
        ] {
            let result = try run(["render", input, "-o", output] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Labels and clusters (issue 32 item 4)

    func testLabelsAndClustersAreCountedInTheSummary() throws {
        var points = [String]()
        for index in 0..<60 {
            points.append("{\"type\":\"Feature\",\"properties\":{\"name\":\"P\(index)\",\"rank\":\(index)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(Double(index % 6) * 0.01),\(Double(index / 6) * 0.01)]}}")
        }
        let input = try write(RenderFixturesCLI.collection(points), "points.geojson")
        let output = directory.appendingPathComponent("points.svg").path
        let labeled = try run(["render", input, "-o", output, "--center", "0.02,0.02", "--zoom", "8", "--label-priority", "rank"])
        XCTAssertEqual(labeled.status, 0, labeled.stderr)
        XCTAssertTrue(labeled.stderr.contains("; 60 points in view: "), labeled.stderr)
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        // The highest rank is placed first, so it is among the labels drawn.
        XCTAssertTrue(svg.contains(">P59</text>"), svg)
        let clustered = try run(["render", input, "-o", output, "-f", "--center", "0.02,0.02", "--zoom", "8", "--cluster-distance", "60"])
        XCTAssertEqual(clustered.status, 0, clustered.stderr)
        XCTAssertTrue(clustered.stderr.contains("60 points in view: 1 cluster of 60, 0 single"), clustered.stderr)
        XCTAssertTrue(try String(contentsOfFile: output, encoding: .utf8).contains("font-weight=\"bold\""))
    }

    // MARK: Reading twice (issue 34 item 7)

    func testAFittedRenderOfStandardInputEqualsTheFilesRender() throws {
        let file = Self.packageRoot.appendingPathComponent("Examples/places.kml")
        let fromFile = directory.appendingPathComponent("file.png").path, fromPipe = directory.appendingPathComponent("pipe.png").path
        let direct = try run(["render", file.path, "-o", fromFile])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        let piped = try CLI.run(["render", "-", "-o", fromPipe], stdin: try Data(contentsOf: file))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fromFile)), try Data(contentsOf: URL(fileURLWithPath: fromPipe)))
        // The warnings of the two passes are said once, located in standard input's terms.
        XCTAssertEqual(direct.stderr.components(separatedBy: "warning:").count, piped.stderr.components(separatedBy: "warning:").count)
        XCTAssertFalse(piped.stderr.contains("/proc/self/fd"), piped.stderr)
    }
}

/// GeoJSON text for the CLI tests.
private enum RenderFixturesCLI {
    static func collection(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
    }
}
