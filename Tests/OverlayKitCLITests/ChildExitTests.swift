import Foundation
import TestSupport
import XCTest

/// The test harness's wait for a child: a grandchild left running must not hide the child's
/// exit (the suite once hung on `xvfb-run`, a zombie, while its Xvfb lived on).
final class ChildExitTests: XCTestCase {
    func testChildExitSeenWhileItsGrandchildRuns() throws {
        // The shell starts a sleep that outlives it (inheriting every descriptor the shell
        // had, Foundation's exit-watch socket included), prints its pid and exits with 3.
        let run = try ToolRun.run("/bin/sh", ["-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!; exit 3"])
        let grandchild = try XCTUnwrap(Int32(run.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(grandchild, SIGKILL) }
        XCTAssertEqual(run.status, 3)
        // Returned with the grandchild still alive: `waitUntilExit()` would have waited for it.
        XCTAssertTrue(Self.isAlive(grandchild), "the wait returned only after the grandchild ended")
    }

    func testStatusOfAChildKilledByASignal() throws {
        let run = try ToolRun.run("/bin/sh", ["-c", "kill -TERM $$"])
        XCTAssertEqual(run.status, SIGTERM)
    }

    func testRunToolSeesTheExitToo() throws {
        let result = try CLI.runTool(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!; exit 4"])
        let grandchild = try XCTUnwrap(Int32(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(grandchild, SIGKILL) }
        XCTAssertEqual(result.status, 4)
        XCTAssertTrue(Self.isAlive(grandchild), "the wait returned only after the grandchild ended")
    }

    /// Whether `pid` runs: it exists and is not a zombie (an ended orphan may wait for a reaper).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 && ChildExit.statFields(pid) != nil && !ChildExit.isZombie(pid)
    }
}
