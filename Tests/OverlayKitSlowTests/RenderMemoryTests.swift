import Foundation
import TestSupport
import XCTest

/// `render` with a given camera (`--center`/`--zoom`, nothing to fit) streams: each feature is
/// drawn into the PNG surface or written to the SVG as it is read, so peak memory (VmHWM of
/// the child, read from /proc) does not grow with the number of features drawn (issue 25
/// item 15). Before, every drawn feature's marks were kept until the end.
final class RenderMemoryTests: XCTestCase {
    /// Writes `count` lines made by `line`, a megabyte at a time.
    private func writeLines(_ count: Int, to url: URL, _ line: (Int) -> String) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = ""
        for index in 0..<count {
            chunk += line(index) + "\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
    }

    /// GeoJSONSeq of `count` 0.3° squares over ±170°, ±70°: about 42% of them show at zoom 3
    /// centered on 0,0 in a 1024×768 view.
    private func writeSquares(_ count: Int, to url: URL) throws {
        let side = Int(Double(count).squareRoot()) + 1
        try writeLines(count, to: url) { index in
            let x = -170 + 340 * Double(index % side) / Double(side), y = -70 + 140 * Double(index / side) / Double(side)
            let ring = [(x, y), (x + 0.3, y), (x + 0.3, y + 0.3), (x, y + 0.3), (x, y)]
                .map { "[\(($0.0 * 1e5).rounded() / 1e5),\(($0.1 * 1e5).rounded() / 1e5)]" }.joined(separator: ",")
            return "{\"type\":\"Feature\",\"properties\":{\"n\":\(index)},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}}"
        }
    }

    func testCenteredRenderPeakMemoryDoesNotGrowWithTheInput() throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc to read peak memory")
        let folder = try CLI.temporaryFolder(self)
        let small = folder.appendingPathComponent("small.geojsons"), large = folder.appendingPathComponent("large.geojsons")
        try writeSquares(60_000, to: small)
        try writeSquares(240_000, to: large)
        for format in ["png", "svg"] {
            var peaks = [Int]()
            for input in [small, large] {
                let output = folder.appendingPathComponent("out.\(format)")
                let run = try CLI.runMeasuringPeakMemory(["render", input.path, "-f", "-o", output.path, "--center", "0,0", "--zoom", "3"])
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertGreaterThan(run.peak, 0, "read VmHWM")
                peaks.append(run.peak)
                print("render --center --zoom -o x.\(format) \(input.lastPathComponent): peak RSS \(run.peak) kB; \(run.stderr)")
            }
            // Four times the features drawn (about 25,000 → 100,000), under 30% more memory:
            // what is kept is the surface and buffers, not the marks.
            XCTAssertLessThan(Double(peaks[1]), Double(peaks[0]) * 1.3, "\(format): peak RSS grows with the input: \(peaks)")
        }
    }

    /// GeoJSONSeq of `count` named points in 40 tight groups over the world.
    private func writePoints(_ count: Int, to url: URL) throws {
        try writeLines(count, to: url) { index in
            let group = index % 40, member = index / 40
            let x = -160 + Double(group % 8) * 40 + Double(member % 97) * 0.013, y = -50 + Double(group / 8) * 25 + Double(member % 89) * 0.011
            return "{\"type\":\"Feature\",\"properties\":{\"name\":\"Place \(index)\",\"rank\":\(index % 13)},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\((x * 1e5).rounded() / 1e5),\((y * 1e5).rounded() / 1e5)]}}"
        }
    }

    /// A fitted render reads the file twice — the extent, then the drawing — and keeps no
    /// feature: four times the features (squares, or named points with labels and clusters),
    /// under 30% more memory (issue 34 item 7; before, fitting kept every feature).
    func testFittedRenderPeakMemoryDoesNotGrowWithTheInput() throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc to read peak memory")
        let folder = try CLI.temporaryFolder(self)
        let inputs: [(String, [String], (Int, URL) throws -> Void)] = [
            ("squares", [], writeSquares),
            ("points", ["--label-priority", "rank"], writePoints),
            ("points", ["--cluster-distance", "30"], writePoints),
        ]
        for (kind, options, write) in inputs {
            let small = folder.appendingPathComponent("small-\(kind).geojsons"), large = folder.appendingPathComponent("large-\(kind).geojsons")
            if !FileManager.default.fileExists(atPath: large.path) {
                try write(30_000, small)
                try write(120_000, large)
            }
            var peaks = [Int]()
            for input in [small, large] {
                let output = folder.appendingPathComponent("fit.png")
                let run = try CLI.runMeasuringPeakMemory(["render", input.path, "-f", "-o", output.path] + options)
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertGreaterThan(run.peak, 0, "read VmHWM")
                peaks.append(run.peak)
                print("render (fit) \(options.joined(separator: " ")) \(input.lastPathComponent): peak RSS \(run.peak) kB; \(run.stderr)")
            }
            XCTAssertLessThan(Double(peaks[1]), Double(peaks[0]) * 1.3, "\(kind) \(options): peak RSS grows with the input: \(peaks)")
        }
    }

    /// One feature of many vertices (issue 51 item 7): a GPS-like track, a random walk of
    /// 600,000 steps of about 10 m, fitted. cairo built each whole stroke's outline first, about
    /// 600 bytes a segment (a 2-million-vertex track took 1.2 GB); stroked in pieces
    /// (`CairoCanvas.LongStroke`) the peak is the feature itself and the picture.
    func testALongRandomWalkTrackRendersInBoundedMemory() throws {
        try Prerequisite.require(FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc to read peak memory")
        let folder = try CLI.temporaryFolder(self)
        let input = folder.appendingPathComponent("walk.geojson")
        var state: UInt64 = 7, latitude = 47.0, longitude = 8.0
        var text = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":["#
        for step in 0..<600_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let angle = Double(state >> 11) / Double(1 << 53) * 2 * Double.pi
            latitude += 10 / 111_320 * sin(angle)
            longitude += 10 / 111_320 * cos(angle) / cos(latitude * Double.pi / 180)
            text += (step == 0 ? "" : ",") + "[\((longitude * 1e7).rounded() / 1e7),\((latitude * 1e7).rounded() / 1e7)]"
        }
        try Data((text + "]}}").utf8).write(to: input)
        let run = try CLI.runMeasuringPeakMemory(["render", input.path, "-f", "-o", folder.appendingPathComponent("walk.png").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        print("render (fit) of a 600,000-vertex random walk: peak RSS \(run.peak) kB")
        XCTAssertLessThan(run.peak, 250_000, "peak RSS \(run.peak) kB: the stroke's outline should not be built whole")
    }
}
