import Foundation
import OverlayModel
import TestSupport
import XCTest
@testable import OverlayKit

/// What progress lines are made of: a percentage and the time left (`ProgressEstimate`), a tile
/// run's stages (`TileRunProgress`), a tile set's summary before its scan and the scan's progress.
final class ProgressEstimateTests: XCTestCase {
    func testPercentTimeLeftAndStages() throws {
        XCTAssertEqual(ProgressEstimate(done: 25, total: 100, elapsedSeconds: 10)?.text, "25%, about 30 s left")
        XCTAssertEqual(ProgressEstimate(done: 0, total: 100, elapsedSeconds: 10)?.text, "0%")
        XCTAssertEqual(ProgressEstimate(done: 1, total: 100_000, elapsedSeconds: 0.01)?.text, "0%", "no time left from a first tile")
        XCTAssertEqual(ProgressEstimate(done: 500, total: 100, elapsedSeconds: 10)?.fraction, 0.99, "an estimate passed is not the end")
        XCTAssertNil(ProgressEstimate(done: 5, total: nil, elapsedSeconds: 1))
        XCTAssertNil(ProgressEstimate(done: 5, total: 0, elapsedSeconds: 1))
        XCTAssertEqual(ProgressEstimate.duration(0.2), "1 s")
        XCTAssertEqual(ProgressEstimate.duration(80), "1 min 20 s")
        XCTAssertEqual(ProgressEstimate.duration(7500), "2 h 5 min")

        var reading = TileRunProgress(stage: .reading)
        XCTAssertNil(reading.fractionOfStage, "no size known")
        reading.position = ReadPosition(bytesRead: 300, totalBytes: 1200)
        XCTAssertEqual(reading.fractionOfStage, 0.25)
        var writing = TileRunProgress(stage: .writing)
        writing.expectedTiles = 8
        writing.written.add(tiles: 2, bytesEach: 10, features: 1, atZoom: 3)
        XCTAssertEqual(writing.fractionOfStage, 0.25)
        writing.written.add(tiles: 20, bytesEach: 10, features: 1, atZoom: 3)
        XCTAssertEqual(writing.fractionOfStage, 1, "capped")

        // A run tells its stages in order: reading (from the first byte), then writing.
        let text = #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-170,-80],[170,-80],[170,80],[-170,80],[-170,-80]]]}}"#
        var reader = GeoJSONReader(input: ByteInput(bytes: Array(text.utf8), name: "world.geojson"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.pmtiles").path
        let seen = SeenProgress()
        var tiler = Tiler(output: output, layer: "world")
        tiler.options.maxZoom = 3
        _ = try tiler.run(reading: &reader, onProgress: { seen.add($0) })
        let stages = seen.all.map(\.stage)
        XCTAssertEqual(stages.first, .reading)
        XCTAssertEqual(seen.all.first?.position, ReadPosition(bytesRead: 0, totalBytes: text.utf8.count))
        XCTAssertEqual(stages.last, .writing)
        XCTAssertEqual(stages.firstIndex(of: .writing).map { stages[$0...].allSatisfy { $0 == .writing } }, true)
        let last = try XCTUnwrap(seen.all.last)
        XCTAssertEqual(last.written.tiles, 85)
        XCTAssertEqual(try XCTUnwrap(last.expectedTiles), 85, accuracy: 30, "the tiles the polygon reaches, by its area: about")

        // A tile set's summary comes from its header and metadata; the scan says how far it is.
        let tileSet = try TileSet(path: output)
        XCTAssertEqual(tileSet.summary.headerCounts?.addressedTiles, 85)
        XCTAssertTrue(tileSet.summary.text().contains("\nheader: 85 tiles in "), tileSet.summary.text())
        var scans = [TileSetScanProgress]()
        let report = try tileSet.inspect { scans.append($0) }
        XCTAssertEqual(scans.first?.runs, nil, "before the runs are listed")
        XCTAssertEqual(scans.dropFirst().first?.fraction, 0)
        XCTAssertEqual(report.text(), tileSet.summary.text() + report.scanText())
        XCTAssertTrue(report.scanText().hasPrefix("tiles: 85, bytes: "), report.scanText())
    }
}

/// Progress reports collected from the tiler's threads.
private final class SeenProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var reports = [TileRunProgress]()

    func add(_ report: TileRunProgress) {
        lock.lock()
        reports.append(report)
        lock.unlock()
    }

    var all: [TileRunProgress] {
        lock.lock()
        defer { lock.unlock() }
        return reports
    }
}
