import XCTest
@testable import OverlayKit
import OverlayModel

/// A long GPS-like track reaches cairo as at most a dozen segments per pixel of the picture
/// (`RepeatedPixelEdges`, issue 51 item 7), and the picture stays the one its every segment
/// draws, within the golden images' tolerance.
final class RenderTrackTests: XCTestCase {
    private let width = 1024, height = 768
    private let stroke = StrokePaint(color: RGBAColor(red: 0x33, green: 0x66, blue: 0xcc), width: 2, dash: [],
                                     cap: .round, join: .round)

    /// A random walk of `count` device positions, `step` pixels apart in a uniformly random
    /// direction each time, from the picture's center, reflected at its edges (deterministic).
    private func walk(count: Int, step: Double) -> DevicePath {
        var xy = [Double]()
        xy.reserveCapacity(2 * count)
        var x = Double(width) / 2, y = Double(height) / 2
        for index in 0..<count {
            xy.append(x)
            xy.append(y)
            let angle = SplitMix64.unit(UInt64(index) &+ 51) * 2 * Double.pi
            x += step * cos(angle)
            y += step * sin(angle)
            if x < 0 { x = -x }
            if y < 0 { y = -y }
            if x > Double(width) { x = 2 * Double(width) - x }
            if y > Double(height) { y = 2 * Double(height) - y }
        }
        var path = DevicePath(closed: false)
        path.append(subpath: xy)
        return path
    }

    private func picture(_ path: DevicePath) throws -> RasterImage {
        var scene = RenderScene(pixelWidth: width, pixelHeight: height, background: RGBAColor(red: 255, green: 255, blue: 255),
                                sky: nil, layers: [.init(name: "aboveRoads")])
        scene.layers[0].drawings = [FeatureDrawing(title: nil, parts: [.path(path, fill: nil, fillRule: .nonzero, stroke: stroke)])]
        return try CairoCanvas.image(scene)
    }

    private func segments(_ path: DevicePath) -> Int { path.pointCount - path.starts.count }

    func testATwoMillionVertexWalkReachesTheCanvasAsAtMostTwelveSegmentsPerPixel() throws {
        // 0.6 px steps: a 10 m GPS walk fitted into 1024×768 pixels (about 16 m a pixel).
        let track = walk(count: 2_000_000, step: 0.6)
        XCTAssertTrue(RepeatedPixelEdges.applies(to: track, stroke))
        let filtered = RepeatedPixelEdges(pixelWidth: width, pixelHeight: height).filtered(track)
        let margin = RepeatedPixelEdges.margin
        let bound = 12 * (width + 2 * margin) * (height + 2 * margin)
        XCTAssertLessThanOrEqual(segments(filtered), bound)
        // The walk covers much of the picture and crosses it again and again: most segments go.
        XCTAssertLessThan(segments(filtered), segments(track) / 2, "\(segments(filtered)) of \(segments(track))")
        // Drawn from every segment or from the filtered ones, nearly the same line: the vertices
        // move by up to half a pixel, so edge pixels change. Measured: mean 0.99/255, 1.7% of
        // pixels off by more than 32 (the golden images allow 0.5%), IoU of the covered pixels
        // 0.965 (check_render.py asks 0.98 of a render beside gdal_rasterize): looser than
        // either, and pinned here so that it cannot get worse unnoticed.
        let filteredPicture = try picture(filtered), wholePicture = try picture(track)
        let difference = try XCTUnwrap(filteredPicture.difference(from: wholePicture))
        XCTAssertLessThan(difference.meanAbsolute, 1.5, "\(difference)")
        XCTAssertLessThan(difference.fractionDiffering, 0.03, "\(difference)")
        var both = 0, either = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = filteredPicture.pixel(x: x, y: y).red < 128, b = wholePicture.pixel(x: x, y: y).red < 128
                if a && b { both += 1 }
                if a || b { either += 1 }
            }
        }
        XCTAssertGreaterThan(either, width * height / 10, "the walk covers much of the picture")
        XCTAssertGreaterThanOrEqual(Double(both) / Double(max(1, either)), 0.96, "IoU of the covered pixels")
    }

    func testNoPixelToPixelSegmentIsDrawnTwice() {
        let filtered = RepeatedPixelEdges(pixelWidth: width, pixelHeight: height).filtered(walk(count: 200_000, step: 0.6))
        var seen = Set<[Int]>(), repeats = 0
        for index in 0..<filtered.starts.count {
            let range = filtered.subpath(index)
            for point in range.dropFirst() {
                let a = [Int(filtered.xy[2 * point - 2]), Int(filtered.xy[2 * point - 1])]
                let b = [Int(filtered.xy[2 * point]), Int(filtered.xy[2 * point + 1])]
                XCTAssertEqual(filtered.xy[2 * point], Double(b[0]) + 0.5, "vertices at pixel centers")
                if a == b { continue }
                if !seen.insert(a.lexicographicallyPrecedes(b) ? a + b : b + a).inserted { repeats += 1 }
            }
        }
        XCTAssertEqual(repeats, 0)
        XCTAssertGreaterThan(seen.count, 10_000)
    }

    func testShortDashedOrSquareLinesAreDrawnAsTheyAre() {
        let long = walk(count: RepeatedPixelEdges.minimumSegments + 1, step: 0.6)
        let short = walk(count: RepeatedPixelEdges.minimumSegments, step: 0.6)
        XCTAssertTrue(RepeatedPixelEdges.applies(to: long, stroke))
        XCTAssertFalse(RepeatedPixelEdges.applies(to: short, stroke), "one segment fewer: the examples' lines stay as they were")
        var dashed = stroke
        dashed.dash = [4, 2]
        XCTAssertFalse(RepeatedPixelEdges.applies(to: long, dashed))
        var square = stroke
        square.cap = .square
        XCTAssertFalse(RepeatedPixelEdges.applies(to: long, square))
        var miter = stroke
        miter.join = .miter
        XCTAssertFalse(RepeatedPixelEdges.applies(to: long, miter))
    }

    func testALineThatNeverReturnsKeepsEverySegmentAndItsEnds() {
        // A spiral outward: no two segments join the same two pixels.
        var xy = [Double]()
        for index in 0..<20_000 {
            let angle = Double(index) * 0.01, radius = 5 + Double(index) * 0.018
            xy += [512 + radius * cos(angle), 384 + radius * sin(angle)]
        }
        var path = DevicePath(closed: false)
        path.append(subpath: xy)
        let filtered = RepeatedPixelEdges(pixelWidth: width, pixelHeight: height).filtered(path)
        XCTAssertEqual(filtered.starts.count, 1, "one piece")
        XCTAssertEqual(filtered.xy.first, xy[0].rounded(.down) + 0.5)
        XCTAssertEqual(filtered.xy.last, xy[xy.count - 1].rounded(.down) + 0.5)
        // Steps of 0.05 to 3.7 px (longer ones than `reach` are always kept): about 37,000 px of spiral.
        XCTAssertGreaterThan(segments(filtered), 4_000)
    }
}
