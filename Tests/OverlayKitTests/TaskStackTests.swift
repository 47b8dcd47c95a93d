import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// `TaskStack`, the disk pyramid walk's scheduler: tasks that push tasks all run, once each, on
/// one thread or several, and an error ends the run.
final class TaskStackTests: XCTestCase {
    /// A binary tree of tasks, 4 levels below the root: 31 tasks, each pushing its two children.
    private func runTree(threads: Int) throws -> [Int] {
        let seen = Seen()
        @Sendable func node(_ id: Int, depth: Int) -> TaskStack.Task {
            { stack in
                seen.add(id)
                guard depth < 4 else { return }
                stack.push(node(2 * id, depth: depth + 1))
                stack.push(node(2 * id + 1, depth: depth + 1))
            }
        }
        try TaskStack.run(threads: threads, node(1, depth: 0))
        return seen.ids
    }

    func testEveryPushedTaskRunsOnceOnOneThreadOrSeveral() throws {
        for threads in [1, 2, 4] {
            XCTAssertEqual(try runTree(threads: threads).sorted(), Array(1...31), "\(threads) threads")
        }
    }

    func testOneThreadTakesTheLastPushedFirst() throws {
        // Depth-first: the root, then its second child (pushed last) and that child's subtree.
        XCTAssertEqual(Array(try runTree(threads: 1).prefix(5)), [1, 3, 7, 15, 31])
    }

    func testAnErrorEndsTheRunAndIsRethrown() {
        struct Failed: Error {}
        for threads in [1, 2] {
            let seen = Seen()
            XCTAssertThrowsError(try TaskStack.run(threads: threads) { stack in
                for index in 0..<100 { stack.push { _ in seen.add(index) } }
                stack.push { _ in throw Failed() }
            }, "\(threads) threads") { XCTAssertTrue($0 is Failed) }
            // On one thread the failing task, pushed last, runs next and nothing after it (a
            // second thread may take tasks while they are pushed: there only the error is sure).
            if threads == 1 { XCTAssertEqual(seen.ids, []) }
        }
    }

    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var ids = [Int]()
        func add(_ id: Int) {
            lock.lock()
            ids.append(id)
            lock.unlock()
        }
    }
}
