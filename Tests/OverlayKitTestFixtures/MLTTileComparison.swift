import Foundation
import XCTest
@testable import OverlayKit

/// Every tile of an input cut once and encoded both ways: the MLT decodes to the MVT's features.
/// Shared by the library tests (small inputs) and the slow tests (the real corpus), which link
/// this file.
public enum MLTTileComparison {
    /// Cuts `path` to `maxZoom` and checks each tile's MLT against its MVT; the number of tiles.
    public static func compareEveryTile(of path: String, maxZoom: Int) throws -> Int {
        var reader = try FeatureIO.reader(for: ByteInput(path: path))
        var options = TileOptions()
        options.maxZoom = maxZoom
        let source = try TileSource(features: reader.readAll(), options: options)
        let mismatches = Mismatches()
        _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2) { tile in
            let (mvt, _) = MVTEncoder(layerName: "l").encode(tile)
            let (mlt, _) = MLTEncoder(layerName: "l").encode(tile)
            let fromMVT = try MVTTileDecoder().decodeLayers(mvt)
            let fromMLT = try MLTDecoder.decode(mlt)
            mismatches.record(equivalent(fromMVT, fromMLT) ? nil : "\(path) \(tile.id)")
            return mlt.count
        }
        XCTAssertEqual(mismatches.failures, [], path)
        return mismatches.tiles
    }

    /// The same layers, features, geometry and ids; properties the same or as MLT's typed
    /// columns hold them: an integer in a column of numbers as that number, a value in a column
    /// mixing kinds as its text.
    public static func equivalent(_ mvt: [DecodedTileLayer], _ mlt: [DecodedTileLayer]) -> Bool {
        guard mvt.count == mlt.count else { return false }
        for (a, b) in zip(mvt, mlt) {
            guard a.name == b.name, a.extent == b.extent, a.features.count == b.features.count else { return false }
            for (x, y) in zip(a.features, b.features) {
                guard x.type == y.type, x.xy == y.xy, x.ringLengths == y.ringLengths, x.id == y.id,
                      (x.properties ?? [:]).count == (y.properties ?? [:]).count else { return false }
                for member in x.properties ?? [:] {
                    guard let other = y.properties?[member.key] else { return false }
                    if other == member.value { continue }
                    if case .integer(let number) = member.value, case .number(let double) = other, Double(number) == double { continue }
                    if other == .string(String(decoding: MLTPropertyColumn.Cell(member.value)?.text ?? [], as: UTF8.self)) { continue }
                    return false
                }
            }
        }
        return true
    }

    final class Mismatches: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var failures = [String]()
        private(set) var tiles = 0
        func record(_ failure: String?) {
            lock.lock()
            tiles += 1
            if let failure, failures.count < 5 { failures.append(failure) }
            lock.unlock()
        }
    }
}
