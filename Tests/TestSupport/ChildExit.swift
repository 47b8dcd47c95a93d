import Foundation

/// Waits for a child process to end, including when Foundation cannot tell that it has.
///
/// On Linux, Foundation learns that a child has exited when a socket it handed the child is
/// closed. A grandchild that inherited the socket and outlives the child keeps it open. An Xvfb
/// left running after `xvfb-run` exits does this, and `Process.waitUntilExit()` then never
/// returns (swift-corelibs-foundation#4795): the suite hangs with the child a zombie. This
/// polls instead. When the kernel shows the child exited but Foundation still calls it running,
/// the child is reaped here and its status decoded.
public enum ChildExit {
    /// The exit status of `process`, started with `run()`; for a child killed by a signal, the
    /// signal's number, as `Process.terminationStatus` gives it.
    public static func status(of process: Process) -> Int32 {
        let pid = process.processIdentifier
        var exitedAt: Date?
        while process.isRunning {
            if isZombie(pid) {
                // Foundation reaps a child it sees exit within a moment; past that it is blind.
                let since = exitedAt ?? Date()
                exitedAt = since
                if Date().timeIntervalSince(since) > graceSeconds {
                    var status: Int32 = 0
                    if waitpid(pid, &status, WNOHANG) == pid { return decoded(status) }
                }
            }
            usleep(2_000)
        }
        return process.terminationStatus
    }

    /// How long a zombie child is left to Foundation before it is reaped here.
    static let graceSeconds = 0.5

    /// Whether /proc shows `pid` exited but not reaped (state Z).
    public static func isZombie(_ pid: Int32) -> Bool {
        statFields(pid)?.first == "Z"
    }

    /// The fields of /proc/PID/stat after the process's name: state, parent pid, …; nil when
    /// there is no such process (or no /proc).
    public static func statFields(_ pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // "pid (comm) state ppid …": the name may hold spaces and parentheses, so read after the last ")".
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// A `waitpid` status as an exit code, or the signal number for a child killed by one.
    static func decoded(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}
