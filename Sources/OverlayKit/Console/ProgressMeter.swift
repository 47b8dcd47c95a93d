#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// The status line a long run redraws on standard error as it goes (`filter`: bytes, features
/// and matches; `tile`: zoom, tiles and rate), the one meter of every command.
///
/// Shown when asked for, or when standard error is a terminal and the run has taken over two
/// seconds. On a terminal one line is rewritten in place, at most twice a second; in a log each
/// update is a line of its own, every two seconds. The caller hands a text only when a line is
/// due, so a hot loop pays a clock read. Safe to call from several threads.
package final class ProgressMeter: @unchecked Sendable {
    /// Whether a line may ever be drawn.
    package let enabled: Bool
    private let forced: Bool
    private let terminal: Bool
    private let status: (String) -> Void
    private let start = ProgressMeter.now()
    private let lock = NSLock()
    private var lastDraw = -Double.infinity
    /// A line is on the screen without its end.
    private var open = false
    /// A line was drawn.
    private var drawn = false
    /// The stage of the last line drawn.
    private var drawnStage = 0

    /// A meter writing its lines to `status`.
    /// - Parameter show: true always, false never, nil when standard error is a terminal (after
    ///   two seconds).
    package init(show: Bool?, status: @escaping (String) -> Void) {
        terminal = isatty(STDERR_FILENO) == 1
        forced = show == true
        enabled = show ?? terminal
        self.status = status
    }

    /// Seconds since the meter was made, for rates.
    package var elapsedSeconds: Double { max(Self.now() - start, 1e-6) }

    /// Draws the line `text` gives when one is due, or at once when `stage` differs from the last
    /// line's (reading done, writing begun: a new stage's first line is not held back).
    package func update(stage: Int = 0, _ text: () -> String) {
        guard enabled else { return }
        let now = Self.now()
        lock.lock()
        defer { lock.unlock() }
        guard stage != drawnStage || now - lastDraw >= (terminal ? 0.5 : 2), forced || now - start >= 2 else { return }
        lastDraw = now
        drawnStage = stage
        draw(text(), final: false)
    }

    /// Ends the line on the screen before other text goes to standard error.
    package func clearLine() {
        lock.lock()
        defer { lock.unlock() }
        guard open else { return }
        status("\n")
        open = false
    }

    /// Draws `text` as the last line when the meter was asked for or has drawn before; returns
    /// whether it did.
    @discardableResult
    package func finish(_ text: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, forced || drawn else { return false }
        draw(text, final: true)
        return true
    }

    private func draw(_ text: String, final: Bool) {
        if terminal {
            // Back to the line's start, the text, and the rest of the old line erased.
            status("\r" + text + "\u{1B}[K" + (final ? "\n" : ""))
            open = !final
        } else {
            status(text + "\n")
        }
        drawn = true
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
