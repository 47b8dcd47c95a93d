import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Drawing one long GPS-like track holds little beyond the track itself (issue 51 item 7): the
/// draw pass's peak memory over what the feature holds, measured as the process's peak resident
/// size (Linux's `VmHWM`, reset through `/proc/self/clear_refs`) while one feature is marked.
final class RenderTrackMemoryTests: XCTestCase {
    /// A random walk of `count` positions `meters` apart from Paris, each step in a direction of
    /// its own (deterministic), as one line feature.
    private func walk(count: Int, meters: Double) -> Feature {
        var coordinates = [Coordinate]()
        coordinates.reserveCapacity(count)
        var latitude = 48.8566, longitude = 2.3522
        for index in 0..<count {
            coordinates.append(Coordinate(latitude: latitude, longitude: longitude))
            let heading = SplitMix64.unit(1_000_003 &+ UInt64(index)) * 2 * Double.pi
            latitude += meters * cos(heading) / 111_320
            longitude += meters * sin(heading) / (111_320 * cos(latitude * Double.pi / 180))
        }
        return Feature(properties: JSONObject(), shape: .polyline(Polyline(vertices: VertexBuffer(coordinates: coordinates))))
    }

    /// Resets the peak resident size to the current one; false where the system cannot.
    private func resetPeak() -> Bool {
        #if os(Linux)
        guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
        defer { fclose(file) }
        return fputs("5", file) >= 0
        #else
        return false
        #endif
    }

    /// A field of /proc/self/status in bytes.
    private func status(_ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }

    /// Bytes per vertex the process's peak grew by while `feature`, handed over as the renderer
    /// hands a feature it read, was marked.
    private func peakGrowthPerVertex(handing feature: consuming Feature, vertices: Int, flat: Bool) throws -> Double {
        let options = RenderOptions()
        let camera = options.resolveCamera(fitting: feature.shape?.boundingMapRect ?? .null)
        var marker = FeatureMarker(camera: camera, options: options)
        marker.simplifiesLongLinesFlat = flat
        try Prerequisite.require(resetPeak(), "the peak resident size cannot be reset here (Linux's /proc/self/clear_refs)")
        let before = try status("VmRSS")
        let outcome = marker.marks(taking: &feature, number: 1)
        let peak = try status("VmHWM")
        guard case .drawn = outcome else {
            XCTFail("the walk is drawn")
            return 0
        }
        return Double(peak - before) / Double(vertices)
    }

    func testMarkingAHandedOverMillionVertexWalkHoldsUnderEightBytesAVertexMore() throws {
        // 10 m steps fitted into 1024×768 pixels (about 13 m a pixel): Douglas–Peucker at a
        // quarter pixel keeps most vertices, the pixel decimation about half.
        let count = 1_000_000
        let flat = try peakGrowthPerVertex(handing: walk(count: count, meters: 10), vertices: count, flat: true)
        // The line's map points are written over its own coordinates' memory (the rest of it
        // handed back), a flag a vertex while Douglas–Peucker runs, then the pixel-decimated run.
        XCTAssertLessThan(flat, 4, "bytes a vertex held while marking")
        // The general path copies the vertices (48 bytes each) at each step; this test tells them
        // apart. Measured 60–86 bytes (less when earlier tests left freed pages to reuse): the
        // bound is four times the flat path's.
        let general = try peakGrowthPerVertex(handing: walk(count: count, meters: 10), vertices: count, flat: false)
        XCTAssertGreaterThan(general, 32, "bytes a vertex the general path holds")
        print("RenderTrackMemoryTests: peak growth while marking, bytes a vertex: flat \(flat), general \(general)")
    }

    func testReadingAMillionVertexTrackKeepsOneCopyOfItsPositions() throws {
        // One top-level Feature, as a GPS export writes it: the reader hands its positions over
        // as the feature's coordinates and keeps nothing of it (before: its own copy of the
        // positions, 32 bytes a vertex, and the geometry until the next object).
        let count = 1_000_000
        var text = [UInt8]()
        text.reserveCapacity(24 * count + 100)
        text += Array("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[".utf8)
        for index in 0..<count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text += Array("[\(2 + Double(index % 1000) / 1e4),\(48 + Double(index / 1000) / 1e4)]".utf8)
        }
        text += Array("]}}\n".utf8)
        var reader = GeoJSONReader(input: ByteInput(bytes: text))
        // Freed pages the allocator kept go back before and after reading (making the text left
        // many), so that the growth is what the feature holds.
        FreedMemoryTrimmer.trim()
        try Prerequisite.require(resetPeak(), "the resident size cannot be measured here (Linux's /proc/self/clear_refs)")
        let before = try status("VmRSS")
        var feature = try XCTUnwrap(try reader.next())
        XCTAssertNil(try reader.next())
        let peak = Double(try status("VmHWM") - before) / Double(count)
        FreedMemoryTrimmer.trim()
        let held = Double(try status("VmRSS") - before) / Double(count)
        guard case .polyline(let line)? = feature.shape else { return XCTFail("a line") }
        XCTAssertEqual(line.vertices.count, count)
        // The feature's coordinates (32 bytes) and nothing more: its map points are projected
        // when something asks for them (measured 32.6; the points the reader projected added 16).
        XCTAssertLessThan(held, 40, "bytes a vertex held after reading")
        XCTAssertLessThan(peak, 72, "bytes a vertex at the peak of reading")
        print("RenderTrackMemoryTests: reading, bytes a vertex: held \(held), peak \(peak)")
        feature.shape = nil
    }
}
