import XCTest
import OverlayKit
import OverlayModel

/// `DouglasPeucker.computeImportance(splitAbove:)` (how `ShapeSimplifier` stops at its own
/// tolerance instead of ranking every vertex): for every threshold at or above the split it
/// keeps exactly the vertices the full ranking keeps — also on grid data full of ties, where the
/// pivot choice depends on the scan — and it visits fewer vertices.
final class DouglasPeuckerSplitTests: XCTestCase {
    private func importance(_ points: [(Double, Double)], splitAbove: Double?) -> [Double] {
        var flat: [Double] = points.flatMap { [$0.0, $0.1, 0.0] }
        DouglasPeucker.computeImportance(&flat, first: 0, last: points.count - 1, squaredTolerance: 0, monotone: true,
                                         splitAbove: splitAbove)
        return stride(from: 2, to: flat.count, by: 3).map { flat[$0] }
    }

    func testSplitKeepsExactlyWhatTheFullRankingKeeps() {
        var generator = SystemRandomNumberGenerator()
        var inputs = [[(Double, Double)]]()
        // Random walks, a grid walk (integer steps: many equal distances), a zigzag and a sine.
        for _ in 0..<20 {
            var x = 0.0, y = 0.0
            inputs.append((0..<2000).map { _ in
                x += Double.random(in: -1...1.2, using: &generator)
                y += Double.random(in: -1...1, using: &generator)
                return (x, y)
            })
            var gx = 0.0, gy = 0.0
            inputs.append((0..<2000).map { _ in
                gx += Double(Int.random(in: -1...2, using: &generator))
                gy += Double(Int.random(in: -1...1, using: &generator))
                return (gx, gy)
            })
        }
        inputs.append((0..<3000).map { (Double($0), Double($0 % 2)) })
        inputs.append((0..<3000).map { (Double($0), 40 * sin(Double($0) / 50)) })
        var visitedFull = 0, visitedSplit = 0
        for points in inputs {
            let full = importance(points, splitAbove: nil)
            for split in [0.25, 1, 4, 30] {
                let partial = importance(points, splitAbove: split)
                for threshold in [split, split * 1.5, split * 4, split * 100] {
                    let keptFull = full.indices.filter { full[$0] > threshold }
                    let keptSplit = partial.indices.filter { partial[$0] > threshold }
                    XCTAssertEqual(keptFull, keptSplit, "split \(split) threshold \(threshold)")
                }
                visitedFull += full.filter { $0 > 0 }.count
                visitedSplit += partial.filter { $0 > 0 }.count
            }
        }
        XCTAssertLessThan(visitedSplit, visitedFull / 2, "the split ranks far fewer vertices")
    }
}
