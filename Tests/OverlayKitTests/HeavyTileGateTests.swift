import Foundation
import XCTest
@testable import OverlayKit

final class HeavyTileGateTests: XCTestCase {
    /// Heavy tiles are held one at a time on any number of threads; light ones pass at once.
    func testOneHeavyTileAtATime() {
        let gate = HeavyTileGate()
        let lock = NSLock()
        nonisolated(unsafe) var inside = 0, mostInside = 0, light = 0
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            gate.run(heavy: index % 2 == 0) {
                lock.lock()
                if index % 2 == 0 {
                    inside += 1
                    mostInside = max(mostInside, inside)
                } else {
                    light += 1
                }
                lock.unlock()
                usleep(2000)
                lock.lock()
                if index % 2 == 0 { inside -= 1 }
                lock.unlock()
            }
        }
        XCTAssertEqual(mostInside, 1)
        XCTAssertEqual(light, 32)
        XCTAssertEqual(inside, 0)
    }
}
