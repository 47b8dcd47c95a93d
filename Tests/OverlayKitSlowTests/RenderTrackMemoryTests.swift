import XCTest
@testable import OverlayKit
import OverlayModel
#if canImport(Glibc)
import Glibc
#endif

/// Drawing one long GPS-like track holds little beyond the track itself (issue 51 item 7): the
/// draw pass's peak memory over what the feature holds, measured as the process's peak resident
/// size (Linux's `VmHWM`, reset through `/proc/self/clear_refs`) while one feature is marked.
final class RenderTrackMemoryTests: XCTestCase {
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

    /// Bytes per vertex the process's peak grew by while `feature` was marked.
    private func peakGrowthPerVertex(_ feature: Feature, vertices: Int, flat: Bool) throws -> Double {
        let options = RenderOptions()
        let camera = options.resolveCamera(fitting: feature.shape?.boundingMapRect ?? .null)
        var marker = FeatureMarker(camera: camera, options: options)
        marker.simplifiesLongLinesFlat = flat
        guard resetPeak() else { throw XCTSkip("the peak resident size cannot be reset here (Linux only)") }
        let before = try status("VmRSS")
        let outcome = marker.marks(of: feature, number: 1)
        let peak = try status("VmHWM")
        guard case .drawn = outcome else {
            XCTFail("the walk is drawn")
            return 0
        }
        return Double(peak - before) / Double(vertices)
    }

    func testMarkingAMillionVertexWalkHoldsUnderTwentyFourBytesAVertex() throws {
        // 10 m steps fitted into 1024×768 pixels (about 13 m a pixel): Douglas–Peucker at a
        // quarter pixel keeps most vertices, the pixel decimation about half.
        let count = 1_000_000
        let feature = LongLineSimplificationTests.walk(count: count, meters: 10, seed: 1)
        let flat = try peakGrowthPerVertex(feature, vertices: count, flat: true)
        // Measured 2026-11-29: the coalesced points (16 bytes), a flag each while
        // Douglas–Peucker runs, then the pixel-decimated run.
        XCTAssertLessThan(flat, 24, "bytes a vertex held while marking")
        // The general path copies the vertices (48 bytes each) at each step; this test tells them apart.
        let general = try peakGrowthPerVertex(feature, vertices: count, flat: false)
        XCTAssertGreaterThan(general, 64, "bytes a vertex the general path holds")
    }
}
